/* segments.c -- an object whose text is split over two executable
   PT_LOAD segments (segments.ld puts .text.far after .bss), with one
   .sframe describing both: main -> far_top -> near_mid -> far_leaf
   crosses from one segment to the other and back.

   Built as a program (SEGMENTS_MAIN) and as a library whose entry is
   segments_run, called by segments-main.c.  Spins for SECONDS (the
   first argument), then exits.  */

#include <stdlib.h>
#include <time.h>

#define FAR __attribute__ ((noipa, section (".text.far")))
#define NEAR __attribute__ ((noipa))

volatile unsigned long segments_sink;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

FAR void
far_leaf (double end)
{
  while (now () < end)
    for (int i = 0; i < 100000; i++)
      segments_sink += i;
}

NEAR void
near_mid (double end)
{
  far_leaf (end);
  segments_sink++;
}

FAR void
far_top (double end)
{
  near_mid (end);
  segments_sink++;
}

NEAR void
segments_run (double seconds)
{
  far_top (now () + seconds);
  segments_sink++;
}

#ifdef SEGMENTS_MAIN
int
main (int argc, char **argv)
{
  far_top (now () + (argc > 1 ? atof (argv[1]) : 1));
  return 0;
}
#endif

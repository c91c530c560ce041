/* plt-main.c -- main -> a -> lib_call (in plt-lib.so, through the PLT)
   -> cb -> leaf, where leaf spins for the given seconds (default 1).  */

#include <stdlib.h>
#include <time.h>

unsigned long lib_call (unsigned long (*fn) (unsigned long), unsigned long x);

volatile unsigned long sink;
static double seconds = 1.0;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__ ((noipa)) unsigned long
leaf (unsigned long seed)
{
  double end = now () + seconds;
  unsigned long n = seed;

  do
    for (int i = 0; i < (1 << 16); i++)
      sink += ++n;
  while (now () < end);
  return n;
}

__attribute__ ((noipa)) unsigned long
cb (unsigned long x)
{
  unsigned long r = leaf (x);
  sink += r;
  return r + 1;
}

__attribute__ ((noipa)) unsigned long
a (unsigned long x)
{
  unsigned long r = lib_call (cb, x);
  sink += r;
  return r + 1;
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    seconds = atof (argv[1]);
  sink += a (argc);
  return 0;
}

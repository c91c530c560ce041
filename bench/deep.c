/* deep.c -- a fixed amount of work at the bottom of a stack of DEPTH
   frames, for the unwind-cost benchmark.

   Usage: deep DEPTH ITERATIONS

   Prints the process's CPU time (user + system, getrusage):

     cpu_ns T

   scripts/bench samples it with perf, built FP-less with .sframe
   (unwound by fp,defer) and with frame pointers (unwound by fp,defer and
   by fp), and times each stack walk with the function graph tracer.  */

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static volatile unsigned long sink;

__attribute__ ((noipa)) static unsigned long
spin (unsigned long n)
{
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; i++)
    s += i ^ (s >> 3);
  return s;
}

__attribute__ ((noipa)) static unsigned long
descend (int depth, unsigned long n)
{
  if (depth == 0)
    return spin (n);
  unsigned long r = descend (depth - 1, n);
  sink += r;			/* Not a tail call: every frame stays.  */
  return r + 1;
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: deep DEPTH ITERATIONS\n");
      return 2;
    }
  descend (atoi (argv[1]), strtoul (argv[2], NULL, 0));

  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);
  printf ("cpu_ns %ld\n",
	  (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000L
	  + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000L);
  return 0;
}

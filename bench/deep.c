/* deep.c -- a fixed amount of work at the bottom of a stack of DEPTH
   frames, for the unwind-cost benchmark.

   Usage: deep DEPTH ITERATIONS [MODE PERIOD]

   With MODE, the program samples itself (sampler.h) and prints what that
   cost; without, it prints its CPU time alone.  scripts/bench-icount
   takes (T - T without MODE) / S as the cost of one sample, built
   FP-less with .sframe or with frame pointers.  Every frame of the
   recursion has the same return address: after a walk or two each is a
   hit of the rules the kernel keeps (DISTINCT, the generated
   deep-distinct.c, has 128 functions that miss instead).  */

#include "sampler.h"

static volatile unsigned long sink;

__attribute__ ((noipa)) static unsigned long
spin (unsigned long n)
{
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; i++)
    s += i ^ (s >> 3);
  return s;
}

#ifdef DISTINCT
/* deep-distinct.c defines descend_0 ... descend_N, each calling the next
   and the last spin, and descend_at (DEPTH), which picks where to start.  */
# include DISTINCT
#else
__attribute__ ((noipa)) static unsigned long
descend (int depth, unsigned long n)
{
  if (depth == 0)
    return spin (n);
  unsigned long r = descend (depth - 1, n);
  sink += r;			/* Not a tail call: every frame stays.  */
  return r + 1;
}
#endif

int
main (int argc, char **argv)
{
  if (argc != 3 && argc != 5)
    {
      fprintf (stderr, "usage: deep DEPTH ITERATIONS [defer|fp|count PERIOD]\n");
      return 2;
    }
  int depth = atoi (argv[1]);
  unsigned long iterations = strtoul (argv[2], NULL, 0);

  if (sampler_start (argc == 5 ? argv[3] : NULL,
		     argc == 5 ? strtoul (argv[4], NULL, 0) : 0))
    return 1;
  descend (depth, iterations);
  return sampler_stop () ? 1 : 0;
}

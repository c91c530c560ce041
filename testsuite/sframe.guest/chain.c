/* chain.c -- a known call chain for the unwinder tests.

   main calls a, a calls b, b calls c, and c spins until the time given on
   the command line (in seconds, default 1) has passed.  Nearly every
   profiling sample therefore lands in c with the user stack
   c <- b <- a <- main.

   Each caller does work after its call returns, so the compiler cannot
   turn the call into a jump (a tail call would rightly drop a frame), and
   noipa keeps the functions from being inlined, cloned or merged (clang,
   which users.exp builds it with too, has only noinline).  */

#include <stdlib.h>

#include "spin.h"

#ifdef __clang__
# define KEEP __attribute__ ((noinline))
#else
# define KEEP __attribute__ ((noipa))
#endif

volatile unsigned long sink;

KEEP unsigned long
c (double seconds)
{
  return spin (seconds, 0, &sink);
}

KEEP unsigned long
b (double seconds)
{
  unsigned long r = c (seconds);
  sink += r;
  return r + 1;
}

KEEP unsigned long
a (double seconds)
{
  unsigned long r = b (seconds);
  sink += r;
  return r + 1;
}

int
main (int argc, char **argv)
{
  double seconds = argc > 1 ? atof (argv[1]) : 1.0;
  unsigned long r = a (seconds);
  sink += r;
  return 0;
}

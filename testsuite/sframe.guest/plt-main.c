/* plt-main.c -- main -> a -> lib_call (in plt-lib.so, through the PLT)
   -> cb -> leaf, where leaf spins for the given seconds (default 1).  */

#include <stdlib.h>

#include "leaf.h"

unsigned long lib_call (unsigned long (*fn) (unsigned long), unsigned long x);

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

/* leaf.h -- the leaf at the end of a test program's call chain: it spins
   for SECONDS (1 unless main changes it), so that the samples land in
   it.  Included once by each program whose chain ends in `leaf'.  */

#ifndef LEAF_H
#define LEAF_H

#include "spin.h"

volatile unsigned long sink;
static double seconds = 1.0;

__attribute__ ((noipa)) unsigned long
leaf (unsigned long seed)
{
  return spin (seconds, seed, &sink);
}

#endif

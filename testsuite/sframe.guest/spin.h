/* spin.h -- the busy loop that the test programs' leaf functions run.

   It is always inlined, so that the samples land in the leaf function
   that calls it, and it checks the clock only every 65536 iterations, so
   that few samples land in clock_gettime.  */

#ifndef SPIN_H
#define SPIN_H

#include <time.h>

static inline __attribute__ ((always_inline)) double
spin_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Spin for SECONDS, adding to *SINK; return the last count from N.  */
static inline __attribute__ ((always_inline)) unsigned long
spin (double seconds, unsigned long n, volatile unsigned long *sink)
{
  double end = spin_now () + seconds;

  do
    for (int i = 0; i < (1 << 16); i++)
      *sink += ++n;
  while (spin_now () < end);
  return n;
}

#endif

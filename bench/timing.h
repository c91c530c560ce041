/* timing.h -- what the benchmark programs share: a monotonic clock in
   nanoseconds, and the comparison that sorts times for their median.
   Inline, so that a program that needs only one of them is not warned
   of the other.  */

#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

#include <time.h>

static inline double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static inline int
compare (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

#endif

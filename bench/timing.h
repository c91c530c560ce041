/* timing.h -- what the benchmark programs share: a monotonic clock in
   nanoseconds, and the comparison that sorts times for their median.  */

#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

#include <time.h>

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int
compare (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

#endif

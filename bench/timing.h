/* timing.h -- what the benchmark programs share: wall and CPU time in
   nanoseconds, the process's own and its waited-for children's, and
   the comparison that sorts times for their median.  Under QEMU's
   -icount the guest's clock counts instructions, so a task's CPU time
   is the instructions it executed, and repeats; wall time across fork
   and exec does not.  Inline, so that a program that needs only some
   of them is not warned of the others.  */

#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

#include <sys/resource.h>
#include <time.h>

/* Wall time, for the native benchmarks that report it beside counts.  */
static inline double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The CPU time of this process.  */
static inline double
self_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The CPU time of this process's children that it waited for.  */
static inline double
children_ns (void)
{
  struct rusage ru;
  getrusage (RUSAGE_CHILDREN, &ru);
  return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9
	 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3;
}

/* The page faults of this process, minor and major.  */
static inline long
faults (void)
{
  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_minflt + ru.ru_majflt;
}

static inline int
compare (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

#endif

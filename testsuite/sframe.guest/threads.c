/* threads.c -- make threads, one after another, for SECONDS.

   Usage: threads SECONDS

   Prints its process ID, then creates and joins threads in spawn_loop
   until SECONDS have passed.  The main thread spends much of that time
   in the clone3 system call: a sample taken there has its user IP right
   after __clone3's syscall instruction, where each new thread also
   starts.  With the patched glibc (glibc-patches/0006), the parent's
   stack goes on from there to _start, and a new thread's ends there.  */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

volatile unsigned long sink;

static void *
worker (void *arg)
{
  sink++;
  return arg;
}

__attribute__ ((noinline)) static unsigned long
spawn_loop (double seconds)
{
  struct timespec start, now;
  unsigned long n = 0;
  clock_gettime (CLOCK_MONOTONIC, &start);
  do
    {
      pthread_t t;
      if (pthread_create (&t, NULL, worker, NULL) != 0
	  || pthread_join (t, NULL) != 0)
	{
	  perror ("threads");
	  exit (1);
	}
      n++;
      clock_gettime (CLOCK_MONOTONIC, &now);
    }
  while (now.tv_sec - start.tv_sec
	 + (now.tv_nsec - start.tv_nsec) / 1e9 < seconds);
  return n;
}

int
main (int argc, char **argv)
{
  if (argc != 2 || atof (argv[1]) <= 0)
    {
      fprintf (stderr, "usage: threads SECONDS\n");
      return 2;
    }
  printf ("pid %d\n", (int) getpid ());
  fflush (stdout);
  printf ("threads %lu\n", spawn_loop (atof (argv[1])));
  return 0;
}

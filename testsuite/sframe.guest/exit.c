/* exit.c -- spend SECONDS in a function registered with atexit.

   Usage: exit SECONDS

   finish registers at_exit and calls exit, which runs at_exit from
   __run_exit_handlers: exit calls __run_exit_handlers last, and finish
   calls exit last, both functions that do not return, so the return
   addresses in __run_exit_handlers' and exit's frames are past exit's
   and finish's ends (exit.exp checks finish's).  at_exit spins in
   burn.  */

#include <stdlib.h>
#include <time.h>

static double seconds;
volatile unsigned long sink;

__attribute__ ((noinline)) static void
burn (void)
{
  for (int i = 0; i < 100000; i++)
    sink += i;
}

static void
at_exit (void)
{
  struct timespec start, now;
  clock_gettime (CLOCK_MONOTONIC, &start);
  do
    {
      burn ();
      clock_gettime (CLOCK_MONOTONIC, &now);
    }
  while (now.tv_sec - start.tv_sec
	 + (now.tv_nsec - start.tv_nsec) / 1e9 < seconds);
}

__attribute__ ((noinline, noreturn)) static void
finish (void)
{
  atexit (at_exit);
  exit (0);
}

int
main (int argc, char **argv)
{
  if (argc != 2 || (seconds = atof (argv[1])) <= 0)
    return 2;
  finish ();
}

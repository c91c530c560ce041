/* exit.c -- spend SECONDS in a function registered with atexit, or
   make N child processes that each end with exit_group.

   Usage: exit SECONDS
	  exit --children N

   finish registers at_exit and calls exit, which runs at_exit from
   __run_exit_handlers: exit calls __run_exit_handlers last, and finish
   calls exit last, both functions that do not return, so the return
   addresses in __run_exit_handlers' and exit's frames are past exit's
   and finish's ends (exit.exp checks finish's).  at_exit spins in
   burn.

   With --children, each child calls exit_group through syscall, from
   leave, from child: exit.exp samples the system call's entry, where
   the kernel unwinds a task that will not return to user space.  */

#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* The increments after the calls keep them calls, not jumps that would
   leave no frame of their caller on the stack.  */
__attribute__ ((noinline)) static void
leave (void)
{
  syscall (SYS_exit_group, 0);
  sink++;
}

__attribute__ ((noinline)) static void
child (void)
{
  leave ();
  sink++;
}

int
main (int argc, char **argv)
{
  if (argc == 3 && strcmp (argv[1], "--children") == 0)
    {
      int n = atoi (argv[2]);
      if (n <= 0)
	return 2;
      for (int i = 0; i < n; i++)
	{
	  pid_t pid = fork ();
	  if (pid < 0)
	    return 1;
	  if (pid == 0)
	    {
	      child ();
	      _exit (3);
	    }
	  int status;
	  if (waitpid (pid, &status, 0) != pid
	      || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
	    return 1;
	}
      return 0;
    }
  if (argc != 2 || (seconds = atof (argv[1])) <= 0)
    return 2;
  finish ();
}

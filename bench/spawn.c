/* spawn.c -- process start and fork cost, for the benchmarks of what
   processes that nobody profiles pay.

   Usage: spawn ROUNDS N PROGRAM [ARG...]
          spawn ROUNDS N --fork

   Runs PROGRAM N times per round (posix_spawn, which is a vfork and an
   execve, then the program's run and exit, and waitpid), or forks N
   children that exit at once, ROUNDS rounds, and prints the median and
   the spread (lowest, highest) over the rounds of the CPU time per run,
   this process's and the children's (under QEMU's -icount, the
   instructions executed):

     spawn N cpu-ns-per-run MEDIAN min MIN max MAX

   scripts/bench-icount runs it on an empty FP-less program linked to
   the patched glibc, with ld.so's registration on and off
   (GLIBC_TUNABLES=glibc.rtld.register_sframe=0), and with --fork built
   against the system's C library, which has no .sframe: a process that
   registered nothing.  */

#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#include "timing.h"

/* One run: 0, or a message and -1.  */
static int
run (char **argv, int fork_only)
{
  pid_t pid;
  int status;

  if (fork_only)
    {
      pid = fork ();
      if (pid == 0)
	_exit (0);
      if (pid < 0)
	{
	  perror ("spawn: fork");
	  return -1;
	}
    }
  else
    {
      int err = posix_spawn (&pid, argv[0], NULL, NULL, argv, environ);
      if (err != 0)
	{
	  fprintf (stderr, "spawn: %s: %s\n", argv[0], strerror (err));
	  return -1;
	}
    }
  if (waitpid (pid, &status, 0) != pid
      || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      fprintf (stderr, "spawn: %s did not exit with status 0\n", argv[0]);
      return -1;
    }
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc < 4)
    {
      fprintf (stderr, "usage: spawn ROUNDS N PROGRAM [ARG...] | --fork\n");
      return 2;
    }
  int rounds = atoi (argv[1]), n = atoi (argv[2]);
  int fork_only = strcmp (argv[3], "--fork") == 0;
  if (rounds < 1 || n < 1)
    {
      fprintf (stderr, "spawn: ROUNDS and N must be positive\n");
      return 2;
    }
  double *per_run = calloc (rounds, sizeof *per_run);
  if (per_run == NULL)
    {
      perror ("spawn");
      return 1;
    }

  for (int r = 0; r < rounds; r++)
    {
      double t0 = self_ns () + children_ns ();
      for (int i = 0; i < n; i++)
	if (run (argv + 3, fork_only) != 0)
	  return 1;
      per_run[r] = (self_ns () + children_ns () - t0) / n;
    }

  qsort (per_run, rounds, sizeof *per_run, compare);
  printf ("spawn %d cpu-ns-per-run %.0f min %.0f max %.0f\n", n,
	  per_run[rounds / 2], per_run[0], per_run[rounds - 1]);
  return 0;
}

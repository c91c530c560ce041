/* spawn.c -- process start cost, for the registration benchmark.

   Usage: spawn ROUNDS N PROGRAM [ARG...]

   Runs PROGRAM N times per round (posix_spawn, which is a vfork and an
   execve, then the program's run and exit, and waitpid), ROUNDS
   rounds, with the environment it was given, and prints the median
   and the spread (lowest, highest) of the time per run over the
   rounds:

     spawn N ns-per-run MEDIAN min MIN max MAX

   scripts/bench runs it on an empty FP-less program linked to the
   patched glibc, with ld.so's registration on and off
   (GLIBC_TUNABLES=glibc.rtld.register_sframe=0), alternately, in one
   guest: the difference is what registering libc.so.6 (and validating
   its .sframe) costs every process start.  */

#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#include "timing.h"

int
main (int argc, char **argv)
{
  if (argc < 4)
    {
      fprintf (stderr, "usage: spawn ROUNDS N PROGRAM [ARG...]\n");
      return 2;
    }
  int rounds = atoi (argv[1]), n = atoi (argv[2]);
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
      double t0 = now ();
      for (int i = 0; i < n; i++)
	{
	  pid_t pid;
	  int status;
	  int err = posix_spawn (&pid, argv[3], NULL, NULL, argv + 3, environ);
	  if (err != 0)
	    {
	      fprintf (stderr, "spawn: %s: %s\n", argv[3], strerror (err));
	      return 1;
	    }
	  if (waitpid (pid, &status, 0) != pid
	      || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
	    {
	      fprintf (stderr, "spawn: %s did not exit with status 0\n",
		       argv[3]);
	      return 1;
	    }
	}
      per_run[r] = (now () - t0) / n;
    }

  qsort (per_run, rounds, sizeof *per_run, compare);
  printf ("spawn %d ns-per-run %.0f min %.0f max %.0f\n", n,
	  per_run[rounds / 2], per_run[0], per_run[rounds - 1]);
  return 0;
}

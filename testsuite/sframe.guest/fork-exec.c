/* fork-exec.c -- run a program as a child: fork, then exec.

   The parent is an FP-less program of its own; perf follows the child
   through fork and exec, so the child's stacks must come out whole from
   its own registration at exec, not from anything the parent had.
   Exits with the child's status.  */

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      fprintf (stderr, "usage: fork-exec PROGRAM [ARG...]\n");
      return 2;
    }
  pid_t pid = fork ();
  if (pid < 0)
    {
      perror ("fork");
      return 1;
    }
  if (pid == 0)
    {
      execv (argv[1], argv + 1);
      perror (argv[1]);
      _exit (127);
    }
  int status;
  if (waitpid (pid, &status, 0) != pid)
    {
      perror ("waitpid");
      return 1;
    }
  return WIFEXITED (status) ? WEXITSTATUS (status) : 1;
}

/* prctl-count.c -- count the sframe prctl calls a program makes, as the
   kernel sees them: a tracer, independent of the loader's own trace.

   Usage: prctl-count COMMAND [ARG...]

   Runs COMMAND with every thread and child traced (ptrace), and at the
   end prints on standard error

     prctl-count: processes P probe N add N (ok N) remove N (ok N)

   where a probe is PR_REMOVE_SFRAME of address 0.  Exits with COMMAND's
   status.  Only system-call stops are traced, so COMMAND runs unchanged
   but slowly: use it for counting, not for profiling.  */

#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../rtld/sframe-prctl.h"

/* What each thread's pending system call was, to classify its result.  */
struct pending
{
  pid_t tid;
  int kind;			/* 0, or one of the counters below.  */
};

enum { PROBE = 1, ADD, REMOVE, NKINDS };

static struct pending pending[65536];
static unsigned long calls[NKINDS], ok[NKINDS], processes;

static struct pending *
slot (pid_t tid)
{
  unsigned int h = (unsigned int) tid % 65536;
  for (unsigned int i = 0; i < 65536; i++)
    {
      struct pending *p = &pending[(h + i) % 65536];
      if (p->tid == tid || p->tid == 0)
	{
	  p->tid = tid;
	  return p;
	}
    }
  fprintf (stderr, "prctl-count: too many threads\n");
  exit (125);
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      fprintf (stderr, "usage: prctl-count COMMAND [ARG...]\n");
      return 125;
    }

  pid_t child = fork ();
  if (child == 0)
    {
      ptrace (PTRACE_TRACEME, 0, 0, 0);
      raise (SIGSTOP);
      execvp (argv[1], argv + 1);
      fprintf (stderr, "prctl-count: %s: %s\n", argv[1], strerror (errno));
      _exit (127);
    }
  int status, exit_status = 125;
  if (waitpid (child, &status, 0) != child || !WIFSTOPPED (status))
    {
      fprintf (stderr, "prctl-count: cannot trace %s\n", argv[1]);
      return 125;
    }
  ptrace (PTRACE_SETOPTIONS, child, 0,
	  PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK
	  | PTRACE_O_TRACEVFORK | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL);
  ptrace (PTRACE_SYSCALL, child, 0, 0);
  processes = 1;

  for (;;)
    {
      pid_t tid = waitpid (-1, &status, __WALL);
      if (tid < 0)
	{
	  if (errno == EINTR)
	    continue;
	  break;		/* ECHILD: every tracee is gone.  */
	}
      if (WIFEXITED (status) || WIFSIGNALED (status))
	{
	  if (tid == child)
	    exit_status = WIFEXITED (status) ? WEXITSTATUS (status)
					     : 128 + WTERMSIG (status);
	  slot (tid)->kind = 0;
	  continue;
	}
      if (!WIFSTOPPED (status))
	continue;

      int sig = WSTOPSIG (status), deliver = 0;
      int event = status >> 16;
      if (sig == (SIGTRAP | 0x80))
	{
	  struct __ptrace_syscall_info info;
	  struct pending *p = slot (tid);
	  if (ptrace (PTRACE_GET_SYSCALL_INFO, tid, sizeof info, &info) > 0)
	    {
	      if (info.op == PTRACE_SYSCALL_INFO_ENTRY)
		{
		  p->kind = 0;
		  if (info.entry.nr == SYS_prctl
		      && info.entry.args[0] == PR_ADD_SFRAME)
		    p->kind = ADD;
		  else if (info.entry.nr == SYS_prctl
			   && info.entry.args[0] == PR_REMOVE_SFRAME)
		    p->kind = info.entry.args[1] == 0 ? PROBE : REMOVE;
		  if (p->kind != 0)
		    calls[p->kind]++;
		}
	      else if (info.op == PTRACE_SYSCALL_INFO_EXIT)
		{
		  if (p->kind != 0 && info.exit.rval == 0)
		    ok[p->kind]++;
		  p->kind = 0;
		}
	    }
	}
      else if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK)
	processes++;
      else if (event != 0)
	;			/* Clone, exec: nothing to count.  */
      else if (sig != SIGSTOP)
	deliver = sig;		/* A real signal for the tracee.  */
      ptrace (PTRACE_SYSCALL, tid, 0, deliver);
    }

  fprintf (stderr, "prctl-count: processes %lu probe %lu add %lu (ok %lu)"
	   " remove %lu (ok %lu)\n", processes, calls[PROBE], calls[ADD],
	   ok[ADD], calls[REMOVE], ok[REMOVE]);
  return exit_status;
}

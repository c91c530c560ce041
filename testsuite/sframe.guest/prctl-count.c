/* prctl-count.c -- count the sframe prctl calls a program makes, as the
   kernel sees them: a tracer, independent of the loader's own trace.

   Usage: prctl-count COMMAND [ARG...]

   Runs COMMAND with every thread and child traced (ptrace), and at the
   end prints on standard error

     prctl-count: processes P probe N add N (ok N) remove N (ok N)

   where a probe is PR_REMOVE_SFRAME of address 0 (sframe_start of the
   struct sframe_setup it points to, read from the tracee).  Exits with COMMAND's
   status.  A seccomp filter, inherited by every thread and child, stops
   the tracee at prctl calls alone: stopping at every system call made a
   run of dlheavy six times as slow under QEMU.  The filter needs
   no_new_privs, so a set-user-ID program that COMMAND runs gains no
   privileges.  */

#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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

/* Stop at prctl (SECCOMP_RET_TRACE), let everything else through.  */
static int
trace_prctl_only (void)
{
  struct sock_filter insns[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, arch)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 3),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_TRACE),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = { sizeof insns / sizeof insns[0], insns };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return -1;
  return syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
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
      /* The tracer has set PTRACE_O_TRACESECCOMP by now: without it a
	 traced prctl would fail with ENOSYS, which the loader takes for
	 a kernel without the support, and the counts would be wrong.  */
      if (trace_prctl_only () != 0)
	{
	  fprintf (stderr, "prctl-count: seccomp: %s\n", strerror (errno));
	  _exit (125);
	}
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
	  | PTRACE_O_TRACEVFORK | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL
	  | PTRACE_O_TRACESECCOMP);
  ptrace (PTRACE_CONT, child, 0, 0);
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
      /* A prctl's entry (the filter's stop) is resumed to its exit stop,
	 to read its result; every other stop to the next prctl.  */
      int resume = PTRACE_CONT;
      if (event == PTRACE_EVENT_SECCOMP || sig == (SIGTRAP | 0x80))
	{
	  struct __ptrace_syscall_info info;
	  struct pending *p = slot (tid);
	  if (ptrace (PTRACE_GET_SYSCALL_INFO, tid, sizeof info, &info) > 0)
	    {
	      if (info.op == PTRACE_SYSCALL_INFO_SECCOMP
		  && info.seccomp.nr == SYS_prctl)
		{
		  p->kind = 0;
		  if (info.seccomp.args[0] == PR_ADD_SFRAME)
		    p->kind = ADD;
		  else if (info.seccomp.args[0] == PR_REMOVE_SFRAME)
		    {
		      /* sframe_start, the first member.  */
		      errno = 0;
		      long start = ptrace (PTRACE_PEEKDATA, tid,
					   (void *) info.seccomp.args[1], 0);
		      p->kind = start == 0 && errno == 0 ? PROBE : REMOVE;
		    }
		  if (p->kind != 0)
		    {
		      calls[p->kind]++;
		      resume = PTRACE_SYSCALL;
		    }
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
      ptrace (resume, tid, 0, deliver);
    }

  fprintf (stderr, "prctl-count: processes %lu probe %lu add %lu (ok %lu)"
	   " remove %lu (ok %lu)\n", processes, calls[PROBE], calls[ADD],
	   ok[ADD], calls[REMOVE], ok[REMOVE]);
  return exit_status;
}

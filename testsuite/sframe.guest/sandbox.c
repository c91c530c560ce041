/* sandbox.c -- a sandbox that traps unknown prctl options, installed
   after start-up, as Chromium's seccomp-bpf policy does, then dlopen.

   Usage: sandbox LIBRARY

   Installs a seccomp filter that allows every system call but prctl,
   and of prctl only the options a sandboxed process commonly needs
   (PR_SET_NAME, PR_GET_NAME, PR_SET_VMA, PR_GET_DUMPABLE); any other
   option raises SIGSYS (SECCOMP_RET_TRAP).  Then it dlopens LIBRARY.
   Prints

     trapped: prctl option 0xN     and exits 99, if SIGSYS came;
     dlopen: ok                    and exits 0 otherwise.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static void
on_sigsys (int sig, siginfo_t *si, void *context)
{
  ucontext_t *uc = context;
  char msg[64];
  (void) sig;
  (void) si;
  /* prctl's first argument, in %rdi at the system call.  */
  int n = snprintf (msg, sizeof msg, "trapped: prctl option 0x%llx\n",
		    (unsigned long long) uc->uc_mcontext.gregs[REG_RDI]);
  write (STDOUT_FILENO, msg, n);
  _exit (99);
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: sandbox LIBRARY\n");
      return 2;
    }

  struct sigaction sa = { .sa_sigaction = on_sigsys, .sa_flags = SA_SIGINFO };
  sigemptyset (&sa.sa_mask);
  if (sigaction (SIGSYS, &sa, NULL) != 0)
    {
      perror ("sandbox: sigaction");
      return 2;
    }

  struct sock_filter filter[] =
    {
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, arch)),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 1, 0),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
		offsetof (struct seccomp_data, args[0])),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, PR_SET_NAME, 4, 0),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, PR_GET_NAME, 3, 0),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, PR_SET_VMA, 2, 0),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, PR_GET_DUMPABLE, 1, 0),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_TRAP),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
  struct sock_fprog prog = { sizeof filter / sizeof filter[0], filter };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0)
    {
      perror ("sandbox: seccomp");
      return 2;
    }

  if (dlopen (argv[1], RTLD_NOW) == NULL)
    {
      printf ("dlopen: %s\n", dlerror ());
      return 1;
    }
  printf ("dlopen: ok\n");
  return 0;
}

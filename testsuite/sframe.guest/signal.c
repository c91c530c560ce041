/* signal.c -- call chains through a signal frame.

   Usage: signal libc|own|other [SECONDS]

   main -> interrupted, which spins until SIGALRM arrives; the handler
   calls leaf, which spins for SECONDS (default 1).  The chain seen from
   leaf is

     leaf <- handler <- (trampoline) <- interrupted <- main

   where the trampoline frame is where the handler returns to, and
   interrupted's address is where the signal interrupted it.  MODE picks
   the trampoline:

     libc  the C library's (sigaction)
     own   sframe_test_sigreturn (sigreturn-amd64.S), installed with the
           raw rt_sigaction system call; it has .sframe with the
           signal-frame bit when built with binutils 2.47;
     other sframe_test_sigreturn_other, the same but for code that the
           kernel's rt_sigreturn heuristic does not match.  */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "leaf.h"

/* The kernel's struct sigaction for rt_sigaction on x86-64.  */
struct kernel_sigaction
{
  void (*handler) (int);
  unsigned long flags;
  void (*restorer) (void);
  unsigned long mask;
};

#define KERNEL_SA_RESTORER 0x04000000

extern char sframe_test_sigreturn[];
extern char sframe_test_sigreturn_other[];

static volatile sig_atomic_t handled;

__attribute__ ((noipa)) void
handler (int sig)
{
  sink += leaf (sig);
  handled = 1;
}

__attribute__ ((noipa)) void
interrupted (void)
{
  while (!handled)
    sink++;
}

int
main (int argc, char **argv)
{
  struct itimerval it = { { 0, 0 }, { 0, 20000 } };

  if (argc < 2)
    {
      fprintf (stderr, "usage: signal libc|own|other [SECONDS]\n");
      return 2;
    }
  if (argc > 2)
    seconds = atof (argv[2]);

  if (strcmp (argv[1], "libc") == 0)
    {
      struct sigaction sa;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = handler;
      if (sigaction (SIGALRM, &sa, NULL) != 0)
	{
	  perror ("sigaction");
	  return 2;
	}
    }
  else if (strcmp (argv[1], "own") == 0 || strcmp (argv[1], "other") == 0)
    {
      char *tramp = (strcmp (argv[1], "own") == 0
		     ? sframe_test_sigreturn : sframe_test_sigreturn_other);
      struct kernel_sigaction ksa = {
	.handler = handler,
	.flags = KERNEL_SA_RESTORER,
	.restorer = (void (*) (void)) (tramp + 1),
      };
      if (syscall (SYS_rt_sigaction, SIGALRM, &ksa, NULL, 8) != 0)
	{
	  perror ("rt_sigaction");
	  return 2;
	}
    }
  else
    {
      fprintf (stderr, "signal: unknown mode %s\n", argv[1]);
      return 2;
    }

  if (setitimer (ITIMER_REAL, &it, NULL) != 0)
    {
      perror ("setitimer");
      return 2;
    }
  interrupted ();
  /* Work after the call, so that it is not a tail call.  */
  printf ("%lu\n", sink & 1);
  return 0;
}

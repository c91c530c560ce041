/* late.c -- sends itself SIGUSR1 100 times, each with a kill system call
   made from send_signal itself.

   Each kill is one entry into the kernel with two signal tracepoints:
   signal_generate in the system call, which asks for the deferred user
   callchain, and signal_deliver on the way back to user space, in
   get_signal(), after the task_work has already unwound the stack and
   emitted it.  So the second sample of every entry comes after the
   deferred callchain it shares with the first (late.exp).  The system
   call is made inline, not through the C library, so that the user
   stack starts in this program, whose .sframe the kernel registers at
   exec.  */

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t delivered;

static void
handler (int sig)
{
  (void) sig;
  delivered++;
}

__attribute__ ((noipa)) static long
send_signal (long pid)
{
  long ret;

  __asm__ volatile ("syscall"
		    : "=a" (ret)
		    : "0" ((long) SYS_kill), "D" (pid), "S" ((long) SIGUSR1)
		    : "rcx", "r11", "memory");
  return ret;
}

int
main (void)
{
  signal (SIGUSR1, handler);
  for (int i = 0; i < 100; i++)
    if (send_signal (getpid ()) != 0)
      return 2;
  return delivered == 100 ? 0 : 1;
}

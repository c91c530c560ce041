/* flex.c -- call chains through functions that only SFrame FLEX FDEs
   describe (flex-amd64.S).

   Usage: flex MODE [SECONDS]

     drap    main -> flex_drap -> mid -> leaf   (CFA = *(RBP - 8) in
                                                  flex_drap, no return
                                                  address above its RBP)
     regcfa  main -> flex_regcfa_spin            (leaf; CFA = R12 + 16)
     regfp   main -> fp_frame -> flex_regfp_spin (leaf; the caller's FP is
                                                  in RBX, RBP is 0, and
                                                  fp_frame keeps a frame
                                                  record)

   The leaf functions spin for SECONDS (default 1).  */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "leaf.h"

unsigned long flex_drap (unsigned long (*fn) (unsigned long),
			 unsigned long arg);
void flex_regcfa_spin (void);
void flex_regfp_spin (void);

/* Set when the asm leaves should stop spinning.  */
__attribute__ ((visibility ("hidden"))) volatile sig_atomic_t flex_stop;

__attribute__ ((noipa)) unsigned long
mid (unsigned long x)
{
  unsigned long r = leaf (x);
  sink += x;
  return r + 1;
}

/* A frame-pointer frame: its CFA is RBP + 16.  */
__attribute__ ((noipa, optimize ("no-omit-frame-pointer"))) unsigned long
fp_frame (unsigned long x)
{
  flex_regfp_spin ();
  sink += x;
  return x + 1;
}

static void
on_alarm (int sig)
{
  (void) sig;
  flex_stop = 1;
}

/* Stop the asm leaves after SECONDS.  */
static void
arm_stop (void)
{
  struct itimerval it = { { 0, 0 }, { (long) seconds,
				      (long) ((seconds - (long) seconds) * 1e6) } };
  signal (SIGALRM, on_alarm);
  if (setitimer (ITIMER_REAL, &it, NULL) != 0)
    {
      perror ("setitimer");
      exit (2);
    }
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      fprintf (stderr, "usage: flex drap|regcfa|regfp [SECONDS]\n");
      return 2;
    }
  if (argc > 2)
    seconds = atof (argv[2]);

  if (strcmp (argv[1], "drap") == 0)
    sink += flex_drap (mid, 3);
  else if (strcmp (argv[1], "regcfa") == 0)
    {
      arm_stop ();
      flex_regcfa_spin ();
    }
  else if (strcmp (argv[1], "regfp") == 0)
    {
      arm_stop ();
      sink += fp_frame (5);
    }
  else
    {
      fprintf (stderr, "flex: unknown mode %s\n", argv[1]);
      return 2;
    }
  /* Work after the calls, so that none of them is a tail call.  */
  printf ("%lu\n", sink & 1);
  return 0;
}

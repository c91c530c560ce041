/* reload.c -- load two builds of a plugin in turn at the same address.

   Usage: reload PLUGIN-1 PLUGIN-2 ROUNDS SECONDS

   Each round dlopens PLUGIN-1 or PLUGIN-2 (alternately), calls its step,
   whose leaf spins for SECONDS, and dlcloses it.  The two builds of
   reload-plugin.c are the same size, so the next round's plugin is
   usually mapped where the last one was, and the same addresses then
   need other unwind rules: the chain from leaf is

     leaf <- step <- run_round <- main

   only if the kernel forgets the rules it found for the plugin closed
   before.  It prints "rounds: N" and "same address: M", the rounds
   whose plugin was mapped where the previous round's was.  */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long main_sink;

static __attribute__ ((noipa)) void *
run_round (const char *path, double seconds)
{
  void *h = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL)
    {
      fprintf (stderr, "reload: %s\n", dlerror ());
      exit (1);
    }
  unsigned long (*step) (double)
    = (unsigned long (*) (double)) dlsym (h, "step");
  if (step == NULL)
    {
      fprintf (stderr, "reload: %s\n", dlerror ());
      exit (1);
    }
  main_sink += step (seconds);
  if (dlclose (h) != 0)
    {
      fprintf (stderr, "reload: %s\n", dlerror ());
      exit (1);
    }
  /* The address the plugin had, compared by the caller only.  */
  return (void *) step;
}

int
main (int argc, char **argv)
{
  if (argc != 5)
    {
      fprintf (stderr, "usage: reload PLUGIN-1 PLUGIN-2 ROUNDS SECONDS\n");
      return 2;
    }
  int rounds = atoi (argv[3]);
  double seconds = atof (argv[4]);
  void *last = NULL;
  int same = 0;
  for (int i = 0; i < rounds; i++)
    {
      void *at = run_round (argv[1 + i % 2], seconds);
      same += at == last;
      last = at;
    }
  printf ("rounds: %d\nsame address: %d\n", rounds, same);
  return 0;
}

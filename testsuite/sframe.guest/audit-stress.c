/* audit-stress.c -- exit while other threads are in dlopen and dlclose,
   under the LD_AUDIT module.

   Usage: audit-stress RUNS PLUGIN MODULE
	  audit-stress child PLUGIN THREADS DELAY-US

   The driver runs the child RUNS times, each with LD_AUDIT=MODULE and 4
   threads, after a delay that differs from run to run, and prints

     runs R ok K failed F in S s

   with the first failures' statuses on standard error.  It exits 0 if
   every child exited with status 0.

   A child dlopens PLUGIN and keeps it; then THREADS threads dlopen and
   dlclose PLUGIN (their own reference) in a loop while main, after
   DELAY-US microseconds, returns.  exit then runs _dl_fini, which calls
   the module's la_objclose without glibc's dl_load_lock while the
   threads' dlopen and dlclose call la_objopen and la_objclose with it.
   With THREADS 0 the child only leaves PLUGIN loaded at exit.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *plugin;

static void *
churn (void *unused)
{
  (void) unused;
  for (;;)
    {
      void *h = dlopen (plugin, RTLD_NOW | RTLD_LOCAL);
      if (h == NULL)
	{
	  fprintf (stderr, "audit-stress: %s\n", dlerror ());
	  _exit (3);
	}
      dlclose (h);
    }
  return NULL;
}

static int
child (int threads, long delay_us)
{
  pthread_t t;

  if (dlopen (plugin, RTLD_NOW | RTLD_LOCAL) == NULL)
    {
      fprintf (stderr, "audit-stress: %s\n", dlerror ());
      return 3;
    }
  for (int i = 0; i < threads; i++)
    if (pthread_create (&t, NULL, churn, NULL) != 0)
      return 4;
  struct timespec ts = { delay_us / 1000000, delay_us % 1000000 * 1000 };
  nanosleep (&ts, NULL);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc == 5 && strcmp (argv[1], "child") == 0)
    {
      plugin = argv[2];
      return child (atoi (argv[3]), atol (argv[4]));
    }
  if (argc != 4)
    {
      fprintf (stderr, "usage: audit-stress RUNS PLUGIN MODULE\n");
      return 2;
    }

  long runs = atol (argv[1]), ok = 0, failed = 0;
  /* The child inherits the rest of the environment (ASAN_OPTIONS).  */
  if (setenv ("LD_AUDIT", argv[3], 1) != 0)
    return 2;
  struct timespec t0, t1;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  for (long i = 0; i < runs; i++)
    {
      char delay[32];
      /* 0 to 3 ms: sometimes before the threads have started, mostly
	 while they are in dlopen or dlclose.  */
      snprintf (delay, sizeof delay, "%ld", (i * 997) % 3000);
      char *args[] = { argv[0], "child", argv[2], "4", delay, NULL };
      pid_t pid = fork ();
      if (pid < 0)
	{
	  perror ("audit-stress: fork");
	  return 2;
	}
      if (pid == 0)
	{
	  execv ("/proc/self/exe", args);
	  _exit (127);
	}
      int status;
      if (waitpid (pid, &status, 0) != pid)
	return 2;
      if (WIFEXITED (status) && WEXITSTATUS (status) == 0)
	ok++;
      else if (failed++ < 10)
	fprintf (stderr, "audit-stress: run %ld (delay %s us): %s %d\n", i,
		 delay, WIFEXITED (status) ? "exit status" : "signal",
		 WIFEXITED (status) ? WEXITSTATUS (status)
		 : WTERMSIG (status));
    }
  clock_gettime (CLOCK_MONOTONIC, &t1);
  printf ("runs %ld ok %ld failed %ld in %.1f s\n", runs, ok, failed,
	  (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
  return failed != 0;
}

/* dlopen.c -- dlopen+dlclose latency, for the loader-overhead benchmark.

   Usage: dlopen DIR N ROUNDS

   Opens DIR/lib-0000.so ... (N of them, RTLD_NOW | RTLD_LOCAL), then
   closes them all, ROUNDS times, and prints the median time of one
   dlopen+dlclose pair over the rounds:

     dlopen N ns-per-pair T

   scripts/bench runs it with the patched ld.so's registration on and off
   (GLIBC_TUNABLES=glibc.rtld.sframe=0), alternately, in one guest.  */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int
compare (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

int
main (int argc, char **argv)
{
  if (argc != 4)
    {
      fprintf (stderr, "usage: dlopen DIR N ROUNDS\n");
      return 2;
    }
  const char *dir = argv[1];
  int n = atoi (argv[2]), rounds = atoi (argv[3]);
  void **h = calloc (n, sizeof *h);
  double *t = calloc (rounds, sizeof *t);
  char path[4096];

  if (h == NULL || t == NULL || n <= 0 || rounds <= 0)
    return 2;
  for (int r = 0; r < rounds; r++)
    {
      double t0 = now ();
      for (int i = 0; i < n; i++)
	{
	  snprintf (path, sizeof path, "%s/lib-%04d.so", dir, i);
	  h[i] = dlopen (path, RTLD_NOW | RTLD_LOCAL);
	  if (h[i] == NULL)
	    {
	      fprintf (stderr, "dlopen: %s\n", dlerror ());
	      return 1;
	    }
	}
      for (int i = n - 1; i >= 0; i--)
	dlclose (h[i]);
      t[r] = (now () - t0) / n;
    }
  qsort (t, rounds, sizeof *t, compare);
  printf ("dlopen %d ns-per-pair %.0f\n", n, t[rounds / 2]);
  return 0;
}

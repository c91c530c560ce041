/* dlopen.c -- dlopen+dlclose latency, for the loader-overhead benchmark.

   Usage: dlopen DIR N ROUNDS [register]

   Opens DIR/lib-0000.so ... (N of them, RTLD_NOW | RTLD_LOCAL), then
   closes them all, ROUNDS times, and prints the median time of one
   dlopen+dlclose pair over the rounds:

     dlopen N ns-per-pair T

   scripts/bench runs it with the patched ld.so's registration on and off
   (GLIBC_TUNABLES=glibc.rtld.register_sframe=0), alternately, in one guest.

   Under TCG a pair takes milliseconds (9p file access) and varies by
   10% from run to run, far more than the registration costs.  So with
   "register" (and the registration off), it also measures that cost
   alone: with the N libraries loaded, it registers each one's .sframe
   for its executable segments as ld.so does and then removes them all,
   ROUNDS times, and prints the median time of one add+remove:

     register N ns-per-add-remove T first F

   where F is the first round's time, in which the kernel checks each
   section in full unless some process registered the same file since
   the kernel booted; later rounds find its verdict
   (kernel-patches/0017).  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

/* The registration ld.so and the audit module make, from the same
   source, without tracing.  */
static int
bench_prctl (int option, unsigned long a, unsigned long b, unsigned long c,
	     unsigned long d)
{
  return prctl (option, a, b, c, d) == 0 ? 0 : -errno;
}

static void
bench_trace (const char *format, ...)
{
}

/* Debian 12's <elf.h> predates it.  */
#ifndef PT_GNU_SFRAME
# define PT_GNU_SFRAME 0x6474e554
#endif

#define SFRAME_PRCTL(option, a, b, c, d) \
  bench_prctl ((option), (a), (b), (c), (d))
#define SFRAME_TRACE(...) bench_trace (__VA_ARGS__)
#include "../rtld/dl-sframe.h"

#include "timing.h"

/* The loaded objects of DIR, as dl_iterate_phdr shows them.  */
struct objects
{
  const char *dir;
  struct dl_phdr_info *o;
  int n, max;
};

static int
find_object (struct dl_phdr_info *info, size_t size, void *data)
{
  struct objects *objs = data;

  if (strncmp (info->dlpi_name, objs->dir, strlen (objs->dir)) == 0
      && objs->n < objs->max)
    objs->o[objs->n++] = *info;
  return 0;
}

static int
open_all (const char *dir, int n, void **h)
{
  char path[4096];

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
  return 0;
}

/* The median time of registering and removing the sections of the N
   loaded objects, per object, as ld.so does it, and in *FIRST the first
   round's; -1 if any fails.  */
static double
register_cost (const char *dir, int n, int rounds, double *t, double *first)
{
  struct objects objs = { dir, calloc (n, sizeof (struct dl_phdr_info)), 0, n };
  ElfW(Addr) *key = calloc (n, sizeof *key);

  if (objs.o == NULL || key == NULL)
    return -1;
  dl_iterate_phdr (find_object, &objs);
  if (objs.n != n)
    {
      fprintf (stderr, "dlopen: found %d of %d objects\n", objs.n, n);
      return -1;
    }
  for (int r = 0; r < rounds; r++)
    {
      double t0 = now ();
      for (int i = 0; i < n; i++)
	{
	  key[i] = sframe_register (objs.o[i].dlpi_name, objs.o[i].dlpi_addr,
				    objs.o[i].dlpi_phdr, objs.o[i].dlpi_phnum);
	  if (key[i] == 0)
	    {
	      fprintf (stderr, "dlopen: %s not registered\n",
		       objs.o[i].dlpi_name);
	      return -1;
	    }
	}
      for (int i = n - 1; i >= 0; i--)
	sframe_unregister (objs.o[i].dlpi_name, key[i]);
      t[r] = (now () - t0) / n;
    }
  free (key);
  free (objs.o);
  *first = t[0];
  qsort (t, rounds, sizeof *t, compare);
  return t[rounds / 2];
}

int
main (int argc, char **argv)
{
  if (argc != 4 && !(argc == 5 && strcmp (argv[4], "register") == 0))
    {
      fprintf (stderr, "usage: dlopen DIR N ROUNDS [register]\n");
      return 2;
    }
  const char *dir = argv[1];
  int n = atoi (argv[2]), rounds = atoi (argv[3]);
  void **h = calloc (n, sizeof *h);
  double *t = calloc (rounds, sizeof *t);

  if (h == NULL || t == NULL || n <= 0 || rounds <= 0)
    return 2;
  for (int r = 0; r < rounds; r++)
    {
      double t0 = now ();
      if (open_all (dir, n, h) != 0)
	return 1;
      for (int i = n - 1; i >= 0; i--)
	dlclose (h[i]);
      t[r] = (now () - t0) / n;
    }
  qsort (t, rounds, sizeof *t, compare);
  printf ("dlopen %d ns-per-pair %.0f\n", n, t[rounds / 2]);

  if (argc == 5)
    {
      /* All N objects loaded, as at the end of a round's dlopens.  */
      if (open_all (dir, n, h) != 0)
	return 1;
      double first;
      double cost = register_cost (dir, n, rounds, t, &first);
      if (cost < 0)
	return 1;
      printf ("register %d ns-per-add-remove %.0f first %.0f\n", n, cost,
	      first);
      for (int i = n - 1; i >= 0; i--)
	dlclose (h[i]);
    }
  return 0;
}

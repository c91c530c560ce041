/* dlopen.c -- dlopen+dlclose cost, for the loader-overhead benchmark.

   Usage: dlopen DIR N ROUNDS [register]

   Opens DIR/lib-0000.so ... (N of them, RTLD_NOW | RTLD_LOCAL), then
   closes them all, ROUNDS times, and prints the median CPU time of one
   dlopen+dlclose pair over the rounds (under QEMU's -icount, the
   instructions executed):

     dlopen N cpu-ns-per-pair T

   scripts/bench-icount runs it with the patched ld.so's registration on
   and off (GLIBC_TUNABLES=glibc.rtld.register_sframe=0).

   With "register" (and the registration off), it also measures the
   registration alone: with the N libraries loaded, it registers each
   one's .sframe for its executable segments as ld.so does, and then
   removes them all, and prints the CPU time and page faults per
   library of the first registration, and the median CPU time of one
   add+remove over the ROUNDS rounds:

     register N first-cpu-ns A first-faults F cpu-ns-per-add-remove T

   Run on files the guest has not read yet, the first registration
   faults in what the kernel reads of each section: its header's page
   alone, unless the kernel checks whole sections
   (CONFIG_SFRAME_VALIDATION).  */

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

/* The median CPU time of registering and removing the sections of the
   N loaded objects, per object, as ld.so does it, and in *FIRST and
   *FIRST_FAULTS the CPU time and page faults of the first round's
   registrations; -1 if any fails.  */
static double
register_cost (const char *dir, int n, int rounds, double *t, double *first,
	       double *first_faults)
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
      double t0 = self_ns ();
      long f0 = faults ();
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
      if (r == 0)
	{
	  *first = (self_ns () - t0) / n;
	  *first_faults = (double) (faults () - f0) / n;
	}
      for (int i = n - 1; i >= 0; i--)
	sframe_unregister (objs.o[i].dlpi_name, key[i]);
      t[r] = (self_ns () - t0) / n;
    }
  free (key);
  free (objs.o);
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
  if (argc == 4)
    {
      for (int r = 0; r < rounds; r++)
	{
	  double t0 = self_ns ();
	  if (open_all (dir, n, h) != 0)
	    return 1;
	  for (int i = n - 1; i >= 0; i--)
	    dlclose (h[i]);
	  t[r] = (self_ns () - t0) / n;
	}
      qsort (t, rounds, sizeof *t, compare);
      printf ("dlopen %d cpu-ns-per-pair %.0f\n", n, t[rounds / 2]);
      return 0;
    }
  /* All N objects loaded, as at the end of a round's dlopens, and their
     sections not read yet.  */
  if (open_all (dir, n, h) != 0)
    return 1;
  double first = 0, first_faults = 0;
  double cost = register_cost (dir, n, rounds, t, &first, &first_faults);
  if (cost < 0)
    return 1;
  printf ("register %d first-cpu-ns %.0f first-faults %.2f"
	  " cpu-ns-per-add-remove %.0f\n", n, first, first_faults, cost);
  for (int i = n - 1; i >= 0; i--)
    dlclose (h[i]);
  return 0;
}

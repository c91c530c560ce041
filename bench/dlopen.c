/* dlopen.c -- dlopen+dlclose latency, for the loader-overhead benchmark.

   Usage: dlopen DIR N ROUNDS [register]

   Opens DIR/lib-0000.so ... (N of them, RTLD_NOW | RTLD_LOCAL), then
   closes them all, ROUNDS times, and prints the median time of one
   dlopen+dlclose pair over the rounds:

     dlopen N ns-per-pair T

   scripts/bench runs it with the patched ld.so's registration on and off
   (GLIBC_TUNABLES=glibc.rtld.sframe=0), alternately, in one guest.

   Under TCG a pair takes milliseconds (9p file access) and varies by
   10% from run to run, far more than the registration costs.  So with
   "register" (and the registration off), it also measures that cost
   alone: with the N libraries loaded, it registers each one's .sframe
   for its executable segments as ld.so does and then removes them all,
   ROUNDS times, and prints the median time of one add+remove:

     register N ns-per-add-remove T  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "../rtld/sframe-prctl.h"

#ifndef PT_GNU_SFRAME
# define PT_GNU_SFRAME 0x6474e554
#endif

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

/* One object's section and executable segment, as ld.so registers them
   (the plugins have one executable PT_LOAD).  */
struct object
{
  unsigned long sframe, sframe_end, text, text_end;
};

struct objects
{
  const char *dir;
  struct object *o;
  int n, max;
};

static int
find_object (struct dl_phdr_info *info, size_t size, void *data)
{
  struct objects *objs = data;
  struct object o = { 0 };

  if (strncmp (info->dlpi_name, objs->dir, strlen (objs->dir)) != 0)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
      unsigned long start = info->dlpi_addr + ph->p_vaddr;
      if (ph->p_type == PT_GNU_SFRAME)
	{
	  o.sframe = start;
	  o.sframe_end = start + ph->p_memsz;
	}
      else if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X))
	{
	  o.text = start;
	  o.text_end = start + ph->p_memsz;
	}
    }
  if (o.sframe != 0 && o.text != 0 && objs->n < objs->max)
    objs->o[objs->n++] = o;
  return 0;
}

static int compare (const void *a, const void *b);

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
   loaded objects, per object; -1 if any call fails.  */
static double
register_cost (const char *dir, int n, int rounds, double *t)
{
  struct objects objs = { dir, calloc (n, sizeof (struct object)), 0, n };

  if (objs.o == NULL)
    return -1;
  dl_iterate_phdr (find_object, &objs);
  if (objs.n != n)
    {
      fprintf (stderr, "dlopen: found %d of %d objects with .sframe\n",
	       objs.n, n);
      return -1;
    }
  for (int r = 0; r < rounds; r++)
    {
      double t0 = now ();
      for (int i = 0; i < n; i++)
	if (prctl (PR_ADD_SFRAME, objs.o[i].sframe, objs.o[i].sframe_end,
		   objs.o[i].text, objs.o[i].text_end) != 0)
	  {
	    perror ("dlopen: PR_ADD_SFRAME");
	    return -1;
	  }
      for (int i = n - 1; i >= 0; i--)
	if (prctl (PR_REMOVE_SFRAME, objs.o[i].sframe, 0, 0, 0) != 0)
	  {
	    perror ("dlopen: PR_REMOVE_SFRAME");
	    return -1;
	  }
      t[r] = (now () - t0) / n;
    }
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
      double cost = register_cost (dir, n, rounds, t);
      if (cost < 0)
	return 1;
      printf ("register %d ns-per-add-remove %.0f\n", n, cost);
      for (int i = n - 1; i >= 0; i--)
	dlclose (h[i]);
    }
  return 0;
}

/* dlheavy.c -- a dlopen-heavy program: many plugins built without frame
   pointers, loaded and unloaded from 8 threads while perf samples it.

   Usage: LD_PRELOAD=DIR/dlheavy-preload.so dlheavy DIR NPLUGINS SECONDS

   DIR holds plugin-000.so ... (NPLUGINS of them), dlheavy-nest.so,
   dlheavy-child.so and dlheavy-bad.so (whose .sframe is corrupt).

   1. One thread opens each plugin in turn (RTLD_LOCAL and RTLD_GLOBAL
      alternately), checks whether the kernel lists it in
      /proc/self/sframe_maps, closes it and checks that the kernel no
      longer does.  Plugins 0 to 3 are then opened RTLD_NODELETE and
      stay.  The corrupt plugin is opened, called and closed.
   2. 8 threads, for SECONDS, each repeatedly open three plugins and call

	worker -> run_chain -> preload_hop -> first_step
	       -> plugin_step -> plugin_step -> plugin_step -> plugin_leaf

      then close them.  Thread 6 uses dlheavy-nest.so as the second
      step (nest_step, which calls dlheavy-child.so's plugin_step, loaded
      by nest's constructor); thread 7 loads its plugins into a dlmopen
      namespace; thread 5 also opens the corrupt plugin now and then.
   3. After the threads, the namespace is closed and the plugins still
      listed by the kernel are counted.

   It prints one "key: value" line per result for the test to check.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dlheavy.h"
#include "sframe-maps.h"

#define NTHREADS 8
#define NODELETE 4

/* In dlheavy-preload.so.  */
extern unsigned long preload_hop (unsigned long (*) (struct dlheavy_ctx *),
				  struct dlheavy_ctx *) __attribute__ ((weak));

static const char *dir;
static int nplugins;
static double seconds;
static Lmid_t ns;
static void *ns_anchor;
static volatile unsigned long main_sink;

static unsigned long nopen, nclose, nbad, nbad_registered;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

static void
count (unsigned long *what, unsigned long n)
{
  pthread_mutex_lock (&count_lock);
  *what += n;
  pthread_mutex_unlock (&count_lock);
}

/* Calls of kernel_lists that could not read /proc/self/sframe_maps.  */
static atomic_int maps_unreadable;

/* The kernel's view (see sframe-maps.h); a failed reading is counted,
   so that it shows as an error instead of "not listed".  */
static int
kernel_lists (const void *addr, const char *name)
{
  int n = sframe_maps_count (addr, name);
  if (n < 0)
    {
      atomic_fetch_add (&maps_unreadable, 1);
      return 0;
    }
  return n;
}

static void *
open_in (Lmid_t lmid, const char *file, int mode)
{
  char path[4096];
  void *h;

  snprintf (path, sizeof path, "%s/%s", dir, file);
  h = lmid == LM_ID_BASE ? dlopen (path, mode) : dlmopen (lmid, path, mode);
  if (h == NULL)
    {
      fprintf (stderr, "dlheavy: %s\n", dlerror ());
      exit (2);
    }
  count (&nopen, 1);
  return h;
}

static void
close_one (void *h)
{
  if (dlclose (h) != 0)
    {
      fprintf (stderr, "dlheavy: dlclose: %s\n", dlerror ());
      exit (2);
    }
  count (&nclose, 1);
}

static const char *
plugin_name (int i, char *buf, size_t size)
{
  snprintf (buf, size, "plugin-%03d.so", i);
  return buf;
}

static void *
xdlsym (void *h, const char *sym)
{
  void *p = dlsym (h, sym);
  if (p == NULL)
    {
      fprintf (stderr, "dlheavy: dlsym %s: %s\n", sym, dlerror ());
      exit (2);
    }
  return p;
}

static __attribute__ ((noipa)) unsigned long
first_step (struct dlheavy_ctx *ctx)
{
  unsigned long r = ctx->steps[0] (ctx, 0);
  main_sink += r;
  return r;
}

static __attribute__ ((noipa)) unsigned long
run_chain (struct dlheavy_ctx *ctx)
{
  unsigned long r = preload_hop (first_step, ctx);
  main_sink += r;
  return r;
}

/* Open the corrupt plugin, call it, check that the kernel does not
   list it, close it.  */
static void
use_bad_plugin (void)
{
  void *h = open_in (LM_ID_BASE, "dlheavy-bad.so", RTLD_NOW | RTLD_LOCAL);
  dlheavy_step_fn *step = (dlheavy_step_fn *) xdlsym (h, "bad_step");
  struct dlheavy_ctx ctx = { .nsteps = 1, .seconds = 0.001 };

  main_sink += step (&ctx, 0);
  count (&nbad, 1);
  if (kernel_lists ((void *) step, NULL) > 0)
    count (&nbad_registered, 1);
  close_one (h);
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static __attribute__ ((noipa)) void *
worker (void *arg)
{
  int id = (int) (intptr_t) arg;
  unsigned int seed = id * 7919 + 1;
  unsigned long iterations = 0;
  double end = now () + seconds;
  char name[64];

  while (now () < end)
    {
      struct dlheavy_ctx ctx = { .nsteps = 3, .seconds = 0.02,
				 .seed = iterations };
      int mode = RTLD_NOW | (iterations % 2 ? RTLD_GLOBAL : RTLD_LOCAL);
      Lmid_t lmid = id == 7 ? ns : LM_ID_BASE;
      void *h[3];
      int nh = 0;

      if (id == 7)
	mode = RTLD_NOW | RTLD_LOCAL;
      for (int s = 0; s < 3; s++)
	{
	  if (id == 6 && s == 1)
	    {
	      h[nh] = open_in (lmid, "dlheavy-nest.so", mode);
	      ctx.steps[s] = (dlheavy_step_fn *) xdlsym (h[nh++], "nest_step");
	      break;		/* nest_step calls the child's step.  */
	    }
	  plugin_name (rand_r (&seed) % nplugins, name, sizeof name);
	  h[nh] = open_in (lmid, name, mode);
	  ctx.steps[s] = (dlheavy_step_fn *) xdlsym (h[nh++], "plugin_step");
	}
      main_sink += run_chain (&ctx);
      while (nh > 0)
	close_one (h[--nh]);
      if (id == 5 && iterations % 8 == 0)
	use_bad_plugin ();
      iterations++;
    }
  return (void *) (uintptr_t) iterations;
}

int
main (int argc, char **argv)
{
  char name[64];
  int open_listed = 0, closed_listed = 0;

  if (argc != 4)
    {
      fprintf (stderr, "usage: dlheavy DIR NPLUGINS SECONDS\n");
      return 2;
    }
  dir = argv[1];
  nplugins = atoi (argv[2]);
  seconds = atof (argv[3]);
  if (preload_hop == NULL)
    {
      fprintf (stderr, "dlheavy: run with LD_PRELOAD=%s/dlheavy-preload.so\n",
	       dir);
      return 2;
    }
  printf ("sframe_maps: %s\n",
	  sframe_maps_count (NULL, NULL) < 0 ? "absent" : "present");
  printf ("preload listed: %d\n", kernel_lists ((void *) preload_hop, NULL));

  /* 1. Each plugin alone.  */
  for (int i = 0; i < nplugins; i++)
    {
      void *h = open_in (LM_ID_BASE, plugin_name (i, name, sizeof name),
			 RTLD_NOW | (i % 2 ? RTLD_GLOBAL : RTLD_LOCAL));
      void *fn = xdlsym (h, "plugin_step");
      if (kernel_lists (fn, NULL) > 0)
	open_listed++;
      close_one (h);
      if (kernel_lists (fn, NULL) > 0 || kernel_lists (NULL, name) > 0)
	closed_listed++;
    }
  printf ("plugins: %d\n", nplugins);
  printf ("listed while open: %d\n", open_listed);
  printf ("listed after dlclose: %d\n", closed_listed);
  for (int i = 0; i < NODELETE; i++)
    open_in (LM_ID_BASE, plugin_name (i, name, sizeof name),
	     RTLD_NOW | RTLD_NODELETE);
  use_bad_plugin ();

  /* 2. The threads.  */
  ns_anchor = open_in (LM_ID_NEWLM, plugin_name (nplugins - 1, name,
						  sizeof name), RTLD_NOW);
  if (dlinfo (ns_anchor, RTLD_DI_LMID, &ns) != 0)
    {
      fprintf (stderr, "dlheavy: dlinfo: %s\n", dlerror ());
      return 2;
    }
  printf ("namespace listed: %d\n",
	  kernel_lists (xdlsym (ns_anchor, "plugin_step"), NULL));

  pthread_t t[NTHREADS];
  unsigned long iterations = 0;
  for (int i = 0; i < NTHREADS; i++)
    if (pthread_create (&t[i], NULL, worker, (void *) (intptr_t) i) != 0)
      {
	fprintf (stderr, "dlheavy: pthread_create failed\n");
	return 2;
      }
  for (int i = 0; i < NTHREADS; i++)
    {
      void *r;
      pthread_join (t[i], &r);
      iterations += (uintptr_t) r;
    }
  close_one (ns_anchor);

  /* 3. What the kernel still holds.  */
  printf ("chains: %lu\n", iterations);
  printf ("dlopen: %lu\n", nopen);
  printf ("dlclose: %lu\n", nclose);
  printf ("bad plugin calls: %lu\n", nbad);
  printf ("bad plugin listed: %lu\n", nbad_registered);
  printf ("plugins listed at exit: %d\n", kernel_lists (NULL, "/plugin-"));
  printf ("preload listed at exit: %d\n",
	  kernel_lists (NULL, "/dlheavy-preload.so"));
  printf ("nest listed at exit: %d\n", kernel_lists (NULL, "/dlheavy-nest.so"));
  printf ("child listed at exit: %d\n",
	  kernel_lists (NULL, "/dlheavy-child.so"));
  printf ("bad listed at exit: %d\n", kernel_lists (NULL, "/dlheavy-bad.so"));
  printf ("sframe_maps unreadable: %d\n", atomic_load (&maps_unreadable));
  return 0;
}

/* imgpipe.c -- the demo's application: an image pipeline whose filters
   are plugins, built like a distribution would build it (no frame
   pointers, .sframe from as --gsframe).

   Usage: imgpipe SECONDS PLUGIN.so...

   A synthetic 256x256 grey image goes through the plugins in the order
   given, over and over, for SECONDS.  Two worker threads split each
   frame's rows.  Every 8 frames all plugins are unloaded and loaded
   again, as programs with hot-reloadable plugin directories do, so the
   profile spans many dlopen/dlclose cycles.  */

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "imgpipe.h"

#define NWORKERS 2
#define SIZE 256
#define MAX_PLUGINS 16
#define RELOAD_EVERY 8

static int nplugins;
static char **plugin_paths;
static void *handles[MAX_PLUGINS];
static filter_fn *filters[MAX_PLUGINS];

static struct image frame[2];
static filter_fn *current;
static int src_index;
static int done;
static pthread_barrier_t start, finish;

static void
load_plugins (void)
{
  for (int i = 0; i < nplugins; i++)
    {
      handles[i] = dlopen (plugin_paths[i], RTLD_NOW | RTLD_LOCAL);
      if (handles[i] == NULL)
	{
	  fprintf (stderr, "imgpipe: %s\n", dlerror ());
	  exit (1);
	}
      filters[i] = (filter_fn *) dlsym (handles[i], "filter_apply");
      if (filters[i] == NULL)
	{
	  fprintf (stderr, "imgpipe: %s: no filter_apply\n", plugin_paths[i]);
	  exit (1);
	}
    }
}

static void
unload_plugins (void)
{
  for (int i = 0; i < nplugins; i++)
    dlclose (handles[i]);
}

__attribute__ ((noinline)) static void
run_filter (filter_fn *f, int id)
{
  int rows = SIZE / NWORKERS;
  f (&frame[src_index], &frame[1 - src_index], id * rows, (id + 1) * rows);
  __asm__ volatile ("" ::: "memory");
}

__attribute__ ((noinline)) static void *
worker (void *arg)
{
  int id = (int) (long) arg;

  for (;;)
    {
      pthread_barrier_wait (&start);
      if (done)
	break;
      run_filter (current, id);
      pthread_barrier_wait (&finish);
    }
  return NULL;
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main (int argc, char **argv)
{
  if (argc < 3 || argc - 2 > MAX_PLUGINS)
    {
      fprintf (stderr, "usage: imgpipe SECONDS PLUGIN.so... (at most %d)\n",
	       MAX_PLUGINS);
      return 2;
    }
  double end = now () + atof (argv[1]);
  nplugins = argc - 2;
  plugin_paths = argv + 2;

  for (int i = 0; i < 2; i++)
    {
      frame[i].width = frame[i].height = SIZE;
      frame[i].pixels = malloc (SIZE * SIZE);
      if (frame[i].pixels == NULL)
	return 1;
    }
  srand (1);
  for (int i = 0; i < SIZE * SIZE; i++)
    frame[0].pixels[i] = (i % SIZE) ^ (i / SIZE) ^ (rand () & 15);

  pthread_t t[NWORKERS];
  pthread_barrier_init (&start, NULL, NWORKERS + 1);
  pthread_barrier_init (&finish, NULL, NWORKERS + 1);
  for (long i = 0; i < NWORKERS; i++)
    pthread_create (&t[i], NULL, worker, (void *) i);

  unsigned long frames = 0, reloads = 0;
  load_plugins ();
  while (now () < end)
    {
      for (int i = 0; i < nplugins; i++)
	{
	  current = filters[i];
	  pthread_barrier_wait (&start);
	  pthread_barrier_wait (&finish);
	  src_index = 1 - src_index;
	}
      if (++frames % RELOAD_EVERY == 0)
	{
	  unload_plugins ();
	  load_plugins ();
	  reloads++;
	}
    }
  done = 1;
  pthread_barrier_wait (&start);
  for (int i = 0; i < NWORKERS; i++)
    pthread_join (t[i], NULL);
  unload_plugins ();

  unsigned long sum = 0;
  for (int i = 0; i < SIZE * SIZE; i++)
    sum = sum * 31 + frame[src_index].pixels[i];
  printf ("imgpipe: %lu frames, %lu plugin reloads, checksum %08lx\n",
	  frames, reloads, sum & 0xffffffff);
  return 0;
}

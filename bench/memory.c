/* memory.c -- kernel memory per registered .sframe section.

   Usage: memory N...   (as root, in the guest)

   For each N: copies this program's loaded image N times into anonymous
   memory (image-copy.h), registers each copy's .sframe for its text with
   PR_ADD_SFRAME, and prints what the kernel's slab caches grew by:

     sections N sframe_section B maple_node B slab B

   sframe_section is the registry's own cache, maple_node that of the
   mm's two maple trees (shared with the VMA trees), slab all of
   /proc/meminfo's Slab.  The copies are made before the first reading,
   so their mappings do not count.  Each reading waits for the RCU frees
   of replaced tree nodes and shrinks the caches, since SLUB counts the
   free objects of per-CPU slabs as active.  Then the copies are
   unmapped, which drops their registrations.  */

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "../rtld/sframe-prctl.h"
#include "../testsuite/sframe.guest/image-copy.h"

static void
shrink (const char *cache)
{
  char path[256];
  snprintf (path, sizeof path, "/sys/kernel/slab/%s/shrink", cache);
  FILE *f = fopen (path, "w");
  if (f != NULL)
    {
      fputs ("1", f);
      fclose (f);
    }
}

/* Bytes in active objects of CACHE.  */
static long
cache_bytes (const char *cache)
{
  FILE *f = fopen ("/proc/slabinfo", "r");
  char line[512], name[64];
  long active, num, size, bytes = -1;

  if (f == NULL)
    return -1;
  while (fgets (line, sizeof line, f) != NULL)
    if (sscanf (line, "%63s %ld %ld %ld", name, &active, &num, &size) == 4
	&& strcmp (name, cache) == 0)
      bytes = active * size;
  fclose (f);
  return bytes;
}

static long
slab_bytes (void)
{
  FILE *f = fopen ("/proc/meminfo", "r");
  char line[256];
  long kb = -1;

  if (f == NULL)
    return -1;
  while (fgets (line, sizeof line, f) != NULL)
    if (sscanf (line, "Slab: %ld kB", &kb) == 1)
      break;
  fclose (f);
  return kb * 1024;
}

static void
measure (long v[3])
{
  /* The mm's text tree is an RCU maple tree: the nodes each insertion
     replaced are freed after a grace period, and would count as used.  */
  sleep (1);
  shrink ("sframe_section");
  shrink ("maple_node");
  v[0] = cache_bytes ("sframe_section");
  v[1] = cache_bytes ("maple_node");
  v[2] = slab_bytes ();
}

int
main (int argc, char **argv)
{
  struct image im;

  if (argc < 2)
    {
      fprintf (stderr, "usage: memory N...\n");
      return 2;
    }
  if (image_find (&im) != 0)
    {
      fprintf (stderr, "memory: built without .sframe\n");
      return 2;
    }
  for (int a = 1; a < argc; a++)
    {
      int n = atoi (argv[a]);
      struct image_copy *c = calloc (n, sizeof *c);
      long before[3], after[3];

      if (c == NULL)
	return 1;
      for (int i = 0; i < n; i++)
	if (image_copy (&im, &c[i]) != 0)
	  {
	    perror ("memory: image copy");
	    return 1;
	  }
      measure (before);
      for (int i = 0; i < n; i++)
	{
	  struct sframe_setup s =
	    {
	      .sframe_start = (uintptr_t) c[i].sframe,
	      .sframe_size = c[i].sframe_len,
	      .text_start = c[i].text,
	      .text_size = c[i].text_end - c[i].text
	    };
	  if (prctl (PR_ADD_SFRAME, &s, sizeof s, 0, 0) != 0)
	    {
	      perror ("memory: PR_ADD_SFRAME");
	      return 1;
	    }
	}
      measure (after);
      printf ("sections %d sframe_section %ld maple_node %ld slab %ld\n", n,
	      after[0] - before[0], after[1] - before[1],
	      after[2] - before[2]);
      for (int i = 0; i < n; i++)
	munmap (c[i].base, c[i].span);
      free (c);
    }
  return 0;
}

/* sframe-lookup -- the kernel's .sframe lookup, natively: what one
   sframe_find() costs on real objects, next to a frame-pointer step.

   Usage: sframe-lookup [--lookups N] [--seed S] OBJECT...

   Each OBJECT (an executable or shared object with PT_GNU_SFRAME) is
   laid out and registered as sframe-check does it, with the series'
   kernel/unwind/sframe.c on fuzz/'s shim, and looked up N times (default
   1000000) at two sets of addresses:
     sequential  a point inside every FDE's function in turn, as a walk
                 through a deep stack meets them;
     random      uniformly random addresses inside the FDEs' functions;
     stack       a walk of a stack of 32 functions spread over the object
                 (no more of them in a set of the task's rules than it
                 holds), again and again, each address looked up on its own;
     stack-rules the same walks with the rules the kernel keeps (struct
                 sframe_rules): the first walk looks the addresses up, the
                 others find them in the rules, as a profiled task's
                 repeated stacks do;
                 its line ends with reads=R, the lookups that read the
                 section (each opens one window), and same=K, how many of
                 the stack's 32 rules, taken from the rules, equal a
                 lookup's.
   For each it prints, one line per object and set,

     OBJECT SET fdes=F lookups=N found=K ns_per_lookup=T windows=W loads=L

   where T is the wall time per lookup, and W and L are the user access
   windows and user loads per lookup that the shim counted: those are
   deterministic, the time is not.  The line ends with counted=C, the
   loads the kernel counted itself, against which its walks' budget is
   checked: it must be L, or the program fails.  Then one line for a frame-pointer
   step through the same shim (one copy_from_user of the saved frame
   pointer and return address, as unwind_user's FP step reads them):

     fp-step ns_per_step=T windows=1 loads=1

   The shim's user access is a bounds check and a memcpy: the figures
   compare decoders, not the kernel's uaccess cost, which TCG cannot
   model either.  Exit status 0, 1 if an object cannot be loaded or a
   lookup inside an FDE fails, 2 on a usage error.  */

#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze.h"
#include "ksframe.h"

#include "timing.h"

/* A small, fixed PRNG, so that runs compare.  */
static uint64_t
next_random (uint64_t *state)
{
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

/* Look up the N addresses IPS; print the line for SET of NAME.  Returns
   how many failed.  */
static unsigned long
measure (const char *name, const char *set, long nfdes, const uint64_t *ips,
	 unsigned long n)
{
  unsigned long w0, l0, w1, l1, found = 0, counted = 0;
  unsigned int loads;
  double t0, t1;

  ksframe_user_accesses (&w0, &l0);
  t0 = now ();
  for (unsigned long i = 0; i < n; i++)
    {
      found += ksframe_find_loads (ips[i], &loads) == 0;
      counted += loads;
    }
  t1 = now ();
  ksframe_user_accesses (&w1, &l1);
  printf ("%s %s fdes=%ld lookups=%lu found=%lu ns_per_lookup=%.1f "
	  "windows=%.2f loads=%.2f counted=%.2f\n", name, set, nfdes, n,
	  found, (t1 - t0) / n, (double) (w1 - w0) / n,
	  (double) (l1 - l0) / n, (double) counted / n);
  /* The kernel's own count of its loads, which its walks' budget is
     of, must be the loads it made.  */
  if (counted != l1 - l0)
    {
      fprintf (stderr, "sframe-lookup: %s %s: the kernel counted %lu loads,"
	       " and made %lu\n", name, set, counted, l1 - l0);
      return n - found + 1;
    }
  return n - found;
}

/* The "stack" and "stack-rules" sets.  */
static unsigned long
measure_stack (const char *name, long nfdes, const uint64_t *starts,
	       const uint32_t *sizes, unsigned long n)
{
  enum { DEPTH = 32, MAX_SETS = 1024 };
  unsigned long stack[DEPTH], walks = n / DEPTH, failed = 0;
  long bad = 0, differ;
  unsigned long w0, l0, w1, l1;
  int in_set[MAX_SETS] = { 0 }, d = 0;
  uint64_t *ips;
  double t0, t1;

  if (walks == 0)
    walks = 1;
  /* Functions spread over the object, as many in a set of the rules as
     it holds: a stack that overfills a set misses in it at every walk
     whatever the cache does right, and only the layout would decide.  */
  for (long i = 0; i < nfdes && d < DEPTH; i++)
    {
      uint64_t ip = starts[i] + sizes[i] / 2;
      int set = ksframe_rules_set (ip);

      /* The first function of the d-th 32nd of the object that fits.  */
      if ((long) ((double) i * DEPTH / nfdes) != d
	  || set < 0 || set >= MAX_SETS || in_set[set] >= ksframe_rules_ways ())
	continue;
      in_set[set]++;
      stack[d++] = ip;
    }
  if (d < DEPTH)
    {
      fprintf (stderr, "sframe-lookup: %s: too few functions for a stack\n",
	       name);
      return 1;
    }
  ips = malloc (walks * DEPTH * sizeof *ips);
  if (ips == NULL)
    abort ();
  for (unsigned long i = 0; i < walks * DEPTH; i++)
    ips[i] = stack[i % DEPTH];
  failed += measure (name, "stack", nfdes, ips, walks * DEPTH);
  free (ips);

  ksframe_user_accesses (&w0, &l0);
  t0 = now ();
  for (unsigned long i = 0; i < walks; i++)
    {
      long r = ksframe_find_rules (stack, DEPTH, false);

      if (r < 0)
	abort ();
      bad += r;
    }
  t1 = now ();
  ksframe_user_accesses (&w1, &l1);
  /* Then, untimed, whether the rules are what a lookup finds.  */
  differ = ksframe_find_rules (stack, DEPTH, true);
  if (differ < 0)
    abort ();
  printf ("%s stack-rules fdes=%ld lookups=%lu found=%lu ns_per_lookup=%.1f "
	  "windows=%.2f loads=%.2f reads=%lu same=%ld\n", name, nfdes,
	  walks * DEPTH, walks * DEPTH - bad, (t1 - t0) / (walks * DEPTH),
	  (double) (w1 - w0) / (walks * DEPTH),
	  (double) (l1 - l0) / (walks * DEPTH), w1 - w0, DEPTH - differ);
  return failed + bad + differ;
}

static int
bench_object (const char *path, unsigned long n, uint64_t seed)
{
  struct sframe_loaded *l;
  const char *why;
  uint64_t *starts, *ips;
  uint32_t *sizes;
  unsigned long failed = 0;
  long nfdes;
  struct stat st;
  void *data;
  int fd;

  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0 || fstat (fd, &st) != 0 || st.st_size == 0)
    {
      fprintf (stderr, "sframe-lookup: %s: cannot read it\n", path);
      return 1;
    }
  data = mmap (NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close (fd);
  if (data == MAP_FAILED)
    {
      fprintf (stderr, "sframe-lookup: %s: cannot map it\n", path);
      return 1;
    }
  l = sframe_load (data, st.st_size, &why);
  if (l == NULL)
    {
      fprintf (stderr, "sframe-lookup: %s: %s\n", path, why);
      munmap (data, st.st_size);
      return 1;
    }
  nfdes = sframe_loaded_fdes (l, &starts, &sizes);
  if (nfdes <= 0)
    {
      fprintf (stderr, "sframe-lookup: %s: no FDE can be read\n", path);
      sframe_unload (l);
      munmap (data, st.st_size);
      return 1;
    }

  ips = calloc (n, sizeof *ips);
  if (ips == NULL)
    abort ();
  /* The middle of each function in turn: past the prologue's rows.  */
  for (unsigned long i = 0; i < n; i++)
    {
      long f = i % nfdes;

      ips[i] = starts[f] + sizes[f] / 2;
    }
  failed += measure (path, "sequential", nfdes, ips, n);
  for (unsigned long i = 0; i < n; i++)
    {
      long f = next_random (&seed) % nfdes;

      ips[i] = starts[f] + (sizes[f] ? next_random (&seed) % sizes[f] : 0);
    }
  failed += measure (path, "random", nfdes, ips, n);
  failed += measure_stack (path, nfdes, starts, sizes, n);

  free (ips);
  free (starts);
  free (sizes);
  sframe_unload (l);
  munmap (data, st.st_size);
  return failed ? 1 : 0;
}

/* A frame-pointer step as the unwinder makes it: the saved frame
   pointer and return address, 16 bytes, in one copy from user memory.  */
static void
bench_fp_step (unsigned long n)
{
  enum { FRAMES = 4096 };
  static unsigned char stack[FRAMES * 16];
  struct ksframe_vma vma = {
    0x10000000UL, 0x10000000UL + sizeof stack, true, false, NULL
  };
  unsigned long w0, l0, w1, l1, fp = 0x10000000UL, sum = 0;
  double t0, t1;

  /* Each frame links to the next, the last back to the first.  */
  for (unsigned long i = 0; i < FRAMES; i++)
    {
      uint64_t next = 0x10000000UL + ((i + 1) % FRAMES) * 16, ra = i;

      memcpy (stack + i * 16, &next, 8);
      memcpy (stack + i * 16 + 8, &ra, 8);
    }
  if (ksframe_begin (vma.start, stack, sizeof stack, &vma, 1) != 0)
    abort ();
  ksframe_user_accesses (&w0, &l0);
  t0 = now ();
  for (unsigned long i = 0; i < n; i++)
    {
      uint64_t frame[2];

      if (ksframe_copy (frame, fp, sizeof frame))
	abort ();
      fp = frame[0];
      sum += frame[1];
    }
  t1 = now ();
  ksframe_user_accesses (&w1, &l1);
  ksframe_end ();
  printf ("fp-step ns_per_step=%.1f windows=%.2f loads=%.2f (sum %lu)\n",
	  (t1 - t0) / n, (double) (w1 - w0) / n,
	  (double) (l1 - l0) / n, sum);
}

int
main (int argc, char **argv)
{
  static const struct option options[] = {
    { "lookups", required_argument, NULL, 'n' },
    { "seed", required_argument, NULL, 's' },
    { NULL, 0, NULL, 0 },
  };
  unsigned long n = 1000000;
  uint64_t seed = 0x5f3759df;
  int c, status = 0;

  while ((c = getopt_long (argc, argv, "", options, NULL)) != -1)
    switch (c)
      {
      case 'n':
	n = strtoul (optarg, NULL, 0);
	break;
      case 's':
	seed = strtoull (optarg, NULL, 0);
	break;
      default:
	fprintf (stderr, "usage: sframe-lookup [--lookups N] [--seed S] "
		 "OBJECT...\n");
	return 2;
      }
  if (optind == argc || n == 0 || seed == 0)
    {
      fprintf (stderr, "usage: sframe-lookup [--lookups N] [--seed S] "
	       "OBJECT...\n");
      return 2;
    }
  for (int i = optind; i < argc; i++)
    status |= bench_object (argv[i], n, seed);
  bench_fp_step (n);
  return status;
}

/* stress.c -- registrations changing under a sampled, threaded process.

   Usage: stress SECONDS [REPORT-FILE]

   For SECONDS, at the same time:
   - two runner threads call work (runner -> work -> work_mid -> work_leaf)
     in the program itself, whose .sframe the kernel registered at exec,
     and in two anonymous copies of the program (image-copy.h);
   - two toggler threads each register and remove the .sframe of one of
     those copies, as fast as they can, while the runners run in it;
   - a churn thread makes fresh copies, registers them, and gets rid of
     them by PR_REMOVE_SFRAME, by munmap or by mremap, in turn.
   The test suite samples the process with perf at a high rate: no splat
   is allowed, samples in the program's own work_leaf must carry the
   whole chain, and the kernel's sframe_section slab cache must be back to
   its size after the process exits.  Prints what each thread did, and
   where the runners' copies were.  */

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "../../rtld/sframe-prctl.h"
#include "image-copy.h"

volatile unsigned long sink;
static atomic_int stop;
static struct image im;
static struct image_copy copies[2];
static atomic_long runs, toggles, churns, errors;

static int
add (const struct image_copy *c)
{
  struct sframe_setup s =
    {
      .sframe_start = (uintptr_t) c->sframe,
      .sframe_size = c->sframe_len,
      .text_start = (uintptr_t) c->text,
      .text_size = (uintptr_t) c->text_end - (uintptr_t) c->text
    };

  return prctl (PR_ADD_SFRAME, &s, sizeof s, 0, 0);
}

static int
del (const struct image_copy *c)
{
  struct sframe_setup s = { .sframe_start = (uintptr_t) c->sframe };

  return prctl (PR_REMOVE_SFRAME, &s, sizeof s, 0, 0);
}

static void
error (const char *what)
{
  if (atomic_fetch_add (&errors, 1) < 10)
    fprintf (stderr, "stress: %s: %m\n", what);
}

__attribute__ ((noipa)) static void *
runner (void *arg)
{
  long id = (long) arg;
  unsigned long (*in_copy) (unsigned long, volatile char *)
    = image_copy_fn (&copies[id], work);

  while (!atomic_load (&stop))
    {
      sink += work (20000, NULL);
      sink += in_copy (20000, NULL);
      atomic_fetch_add (&runs, 1);
    }
  return NULL;
}

static void *
toggler (void *arg)
{
  const struct image_copy *c = &copies[(long) arg];

  while (!atomic_load (&stop))
    {
      if (add (c))
	error ("toggle: add");
      if (del (c))
	error ("toggle: remove");
      atomic_fetch_add (&toggles, 1);
    }
  return NULL;
}

static void *
churn (void *arg)
{
  (void) arg;
  for (long i = 0; !atomic_load (&stop); i++)
    {
      struct image_copy c;

      if (image_copy (&im, &c))
	{
	  error ("churn: copy");
	  continue;
	}
      if (add (&c))
	error ("churn: add");
      switch (i % 3)
	{
	case 0:
	  if (del (&c))
	    error ("churn: remove");
	  munmap (c.base, c.span);
	  break;
	case 1:
	  /* Unmapping the text drops the registration. */
	  munmap (c.base, c.span);
	  if (del (&c) == 0 || errno != ENOENT)
	    error ("churn: still registered after munmap");
	  break;
	default:
	  {
	    /* So does moving it. */
	    void *dst = mmap (NULL, c.span, PROT_NONE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	    void *to = dst == MAP_FAILED ? MAP_FAILED
	      : mremap (c.base, c.span, c.span,
			MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	    if (to == MAP_FAILED)
	      {
		error ("churn: mremap");
		munmap (c.base, c.span);
		break;
	      }
	    if (del (&c) == 0 || errno != ENOENT)
	      error ("churn: still registered after mremap");
	    munmap (to, c.span);
	  }
	  break;
	}
      atomic_fetch_add (&churns, 1);
    }
  return NULL;
}

int
main (int argc, char **argv)
{
  double seconds = argc > 1 ? atof (argv[1]) : 5;
  pthread_t t[5];
  struct timespec ts = { (time_t) seconds,
			 (long) ((seconds - (time_t) seconds) * 1e9) };

  if (image_find (&im) || image_copy (&im, &copies[0])
      || image_copy (&im, &copies[1]))
    {
      fprintf (stderr, "stress: cannot copy the program\n");
      return 2;
    }
  pthread_create (&t[0], NULL, runner, (void *) 0L);
  pthread_create (&t[1], NULL, runner, (void *) 1L);
  pthread_create (&t[2], NULL, toggler, (void *) 0L);
  pthread_create (&t[3], NULL, toggler, (void *) 1L);
  pthread_create (&t[4], NULL, churn, NULL);
  nanosleep (&ts, NULL);
  atomic_store (&stop, 1);
  for (int i = 0; i < 5; i++)
    pthread_join (t[i], NULL);

  FILE *report = argc > 2 ? fopen (argv[2], "w") : stdout;
  if (!report)
    {
      perror (argv[2]);
      return 2;
    }
  fprintf (report, "stress: %ld runs, %ld add/remove pairs, "
	   "%ld copies churned, %ld errors\n", atomic_load (&runs),
	   atomic_load (&toggles), atomic_load (&churns),
	   atomic_load (&errors));
  /* Where the runners' copies were, so that the test suite can name
     the frames perf sampled in them by the program's own symbols.  */
  fprintf (report, "bias 0x%lx\n", (unsigned long) im.bias);
  for (int i = 0; i < 2; i++)
    fprintf (report, "copy %d text 0x%lx-0x%lx delta 0x%lx\n", i,
	     (unsigned long) copies[i].text,
	     (unsigned long) copies[i].text_end,
	     (unsigned long) copies[i].delta);
  if (report != stdout)
    fclose (report);
  return atomic_load (&errors) ? 1 : 0;
}

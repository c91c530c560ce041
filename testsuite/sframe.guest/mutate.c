/* mutate.c -- register mutated copies of a real .sframe section with the
   guest kernel, and unwind through the ones it accepts.

   Usage: mutate ITERATIONS [SEED]

   The program copies its own loaded image (every PT_LOAD segment, at the
   same offsets from each other) into anonymous memory, so that the copy
   of its .sframe section describes the copy of its text, as for code
   generated at run time.  Each iteration restores the copied section,
   mutates it -- bit flips, a random byte, truncation, two FDEs swapped,
   absurd header counts and offsets -- and registers it with
   PR_ADD_SFRAME.  The kernel must either refuse it with a documented
   error or accept it; then the copy of `work' runs while perf events
   sample this thread with deferred call chains -- every 10 us of CPU
   time, and at a page fault that the copy takes three frames deep --
   so that the kernel unwinds through the mutated section.  Sometimes the section is mutated
   again after registration, which the kernel must notice (and drop the
   section) or tolerate.  Then the section is removed.

   Prints counts of each outcome.  Exits 1 on an undocumented error; the
   test suite also fails the run on any kernel splat.  */

#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../rtld/sframe-prctl.h"
#include "image-copy.h"
#include "perf-ring.h"

volatile unsigned long sink;

static uint64_t rng = 88172645463325252ULL;

static uint64_t
rnd (void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* Header fields, by offset.  */
#define H_NUM_FDES 8
#define H_NUM_FRES 12
#define H_FRE_LEN 16
#define H_FDES_OFF 20
#define H_FRES_OFF 24
#define H_SIZE 28

/* Mutate the section SEC of LEN bytes; returns the length to register.  */
static size_t
mutate (unsigned char *sec, size_t len)
{
  static const uint32_t absurd[] = { 0, 1, 0x7fffffff, 0x80000000,
				     0xffffffff, 0xfffffff0, 0x10000 };
  size_t n = len;
  int kind = rnd () % 8;

  switch (kind)
    {
    case 0:			/* a few bit flips anywhere */
    case 1:
      for (int i = 1 + rnd () % 4; i > 0; i--)
	sec[rnd () % len] ^= 1 << (rnd () % 8);
      break;
    case 2:			/* a random byte past the header */
      if (len > H_SIZE)
	sec[H_SIZE + rnd () % (len - H_SIZE)] = rnd ();
      break;
    case 3:			/* truncated */
      n = rnd () % len;
      break;
    case 4:			/* two FDEs swapped */
      {
	uint32_t nf, off;
	size_t fsz = sec[2] == 3 ? 16 : 20;
	memcpy (&nf, sec + H_NUM_FDES, 4);
	memcpy (&off, sec + H_FDES_OFF, 4);
	if (nf >= 2 && H_SIZE + off + nf * fsz <= len)
	  {
	    unsigned char tmp[20];
	    size_t a = H_SIZE + off + (rnd () % nf) * fsz;
	    size_t b = H_SIZE + off + (rnd () % nf) * fsz;
	    memcpy (tmp, sec + a, fsz);
	    memcpy (sec + a, sec + b, fsz);
	    memcpy (sec + b, tmp, fsz);
	  }
      }
      break;
    case 5:			/* an absurd count or offset in the header */
      {
	static const int fields[] = { H_NUM_FDES, H_NUM_FRES, H_FRE_LEN,
				      H_FDES_OFF, H_FRES_OFF };
	uint32_t v = absurd[rnd () % (sizeof absurd / sizeof absurd[0])];
	memcpy (sec + fields[rnd () % 5], &v, 4);
      }
      break;
    case 6:			/* a random FDE word */
      {
	uint32_t off, nf, v = rnd ();
	size_t fsz = sec[2] == 3 ? 16 : 20;
	memcpy (&nf, sec + H_NUM_FDES, 4);
	memcpy (&off, sec + H_FDES_OFF, 4);
	if (nf && H_SIZE + off + nf * fsz <= len)
	  memcpy (sec + H_SIZE + off + (rnd () % nf) * fsz
		  + 4 * (rnd () % (fsz / 4)), &v, 4);
      }
      break;
    default:			/* one byte of the header */
      sec[rnd () % H_SIZE] = rnd ();
      break;
    }
  return n;
}

/* A software event CONFIG sampled every PERIOD, with deferred user
   callchains, and its ring buffer.  */
static int
perf_open (int config, unsigned long period,
	   struct perf_event_mmap_page **meta)
{
  struct perf_event_attr attr;
  memset (&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = config;
  attr.sample_period = period;
  attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
  attr.exclude_kernel = 1;
  attr.defer_callchain = 1;
  attr.defer_output = 1;
  int fd = syscall (SYS_perf_event_open, &attr, 0, -1, -1, 0);
  if (fd < 0)
    {
      perror ("mutate: perf_event_open");
      exit (2);
    }
  /* Read after each iteration, so that each unwind is counted against
     the section registered at that moment.  */
  *meta = mmap (NULL, 9 * getpagesize (), PROT_READ | PROT_WRITE,
		MAP_SHARED, fd, 0);
  if (*meta == MAP_FAILED)
    {
      perror ("mutate: mmap of the ring buffer");
      exit (2);
    }
  return fd;
}

/* What the deferred user callchains of one iteration showed: how many
   had an address in the copied text [LO, HI), and how many two or more
   (unwound through at least one frame of the copy).  */
struct unwinds
{
  uintptr_t lo, hi;
  long in_copy, through_copy;
};

static void
count_unwinds (const struct perf_event_header *h, void *arg)
{
  struct unwinds *u = arg;
  if (h->type != PERF_RECORD_CALLCHAIN_DEFERRED)
    return;
  const uint64_t *p = (const uint64_t *) (h + 1);
  uint64_t nr = p[1];
  const uint64_t *ips = &p[2];
  int n = 0;
  for (uint64_t i = 0; i < nr && sizeof *h + 16 + (i + 1) * 8 <= h->size; i++)
    if (ips[i] >= u->lo && ips[i] < u->hi)
      n++;
  if (n)
    u->in_copy++;
  if (n >= 2)
    u->through_copy++;
}

/* Register the LEN bytes at SEC for [TEXT, TEXT_END), as ld.so does.  */
static int
add_sframe (const unsigned char *sec, size_t len, uintptr_t text,
	    uintptr_t text_end)
{
  struct sframe_setup s =
    {
      .sframe_start = (uintptr_t) sec,
      .sframe_size = len,
      .text_start = text,
      .text_size = text_end - text
    };

  return prctl (PR_ADD_SFRAME, &s, sizeof s, 0, 0);
}

static int
remove_sframe (const unsigned char *sec)
{
  struct sframe_setup s = { .sframe_start = (uintptr_t) sec };

  return prctl (PR_REMOVE_SFRAME, &s, sizeof s, 0, 0);
}

int
main (int argc, char **argv)
{
  struct image im;
  struct image_copy c;
  long iterations = argc > 1 ? atol (argv[1]) : 1000;
  long accepted = 0, rejected[256] = { 0 }, dropped = 0, undocumented = 0;
  long in_copy = 0, through_copy = 0, sections_sampled = 0;
  long sections_faulted = 0;
  size_t page = getpagesize ();

  if (argc > 2)
    rng ^= strtoull (argv[2], NULL, 0);
  if (image_find (&im))
    {
      fprintf (stderr, "mutate: built without .sframe?\n");
      return 2;
    }
  if (image_copy (&im, &c))
    {
      perror ("mutate: copy");
      return 2;
    }
  unsigned char *sec = c.sframe;
  size_t len = c.sframe_len;
  uintptr_t text = c.text, text_end = c.text_end;
  unsigned char *pristine = malloc (len);
  memcpy (pristine, sec, len);
  unsigned long (*copied_work) (unsigned long, volatile char *)
    = image_copy_fn (&c, work);
  volatile char *touch = mmap (NULL, page, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (touch == MAP_FAILED)
    {
      perror ("mutate: mmap");
      return 2;
    }

  /* The copy must be accepted as it is, or the test proves nothing.  */
  if (add_sframe (sec, len, text, text_end))
    {
      fprintf (stderr, "mutate: the unmodified copy is refused: %s\n",
	       strerror (errno));
      return 1;
    }
  remove_sframe (sec);

  /* Samples every 10 us of CPU time land anywhere in the copy, at
     every kind of instruction; the page fault that work_leaf takes on
     TOUCH is one unwind per iteration from a known place.  */
  struct perf_event_mmap_page *meta, *fault_meta;
  int fd = perf_open (PERF_COUNT_SW_CPU_CLOCK, 10000, &meta);
  int fault_fd = perf_open (PERF_COUNT_SW_PAGE_FAULTS, 1, &fault_meta);

  for (long it = 0; it < iterations; it++)
    {
      memcpy (sec, pristine, len);
      size_t n = mutate (sec, len);
      if (add_sframe (sec, n, text, text_end) != 0)
	{
	  int e = errno;
	  if (e != EBADMSG && e != EINVAL)
	    {
	      if (undocumented++ < 10)
		fprintf (stderr, "mutate: iteration %ld: error %s\n", it,
			 strerror (e));
	    }
	  rejected[e & 0xff]++;
	  continue;
	}
      accepted++;
      /* Sometimes change it behind the kernel's back.  */
      if (rnd () % 4 == 0)
	mutate (sec, n);
      madvise ((void *) touch, page, MADV_DONTNEED);
      sink += copied_work (10000 + rnd () % 10000, touch);
      /* The deferred unwind happens on the way back to user space. */
      syscall (SYS_getppid);
      struct unwinds u = { text, text_end, 0, 0 };
      perf_ring_drain (meta, count_unwinds, &u);
      in_copy += u.in_copy;
      through_copy += u.through_copy;
      sections_sampled += u.through_copy > 0;
      struct unwinds f = { text, text_end, 0, 0 };
      perf_ring_drain (fault_meta, count_unwinds, &f);
      sections_faulted += f.through_copy > 0;
      if (remove_sframe (sec) != 0)
	{
	  if (errno == ENOENT)
	    dropped++;
	  else if (undocumented++ < 10)
	    fprintf (stderr, "mutate: remove: %s\n", strerror (errno));
	}
    }
  close (fd);
  close (fault_fd);

  printf ("mutate: %ld registrations: %ld accepted (%ld dropped at unwind), "
	  "%ld EBADMSG, %ld EINVAL, %ld other; %ld unwinds in the copy, "
	  "%ld through it; accepted sections unwound through: %ld at the "
	  "page fault, %ld by sampling\n",
	  iterations, accepted, dropped, rejected[EBADMSG], rejected[EINVAL],
	  undocumented, in_copy, through_copy, sections_faulted,
	  sections_sampled);
  return undocumented ? 1 : 0;
}

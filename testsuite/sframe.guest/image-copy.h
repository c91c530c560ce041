/* image-copy.h -- copy a program's loaded image into anonymous memory.

   Every PT_LOAD segment is copied at the same offset from the others, so
   the copy of the .sframe section describes the copy of the text, and
   code that calls only within the image runs in the copy, as code
   generated at run time would.  The copied text is made executable; the
   copied section stays writable.  work is a function to run in a copy.
   Used by mutate.c and stress.c.  */

#ifndef IMAGE_COPY_H
#define IMAGE_COPY_H

#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Not in the <elf.h> of Debian 12's glibc 2.36.  */
#ifndef PT_GNU_SFRAME
# define PT_GNU_SFRAME 0x6474e554
#endif

struct image
{
  uintptr_t bias;		/* load bias: add to a symbol's value */
  uintptr_t lo, hi;		/* span of the PT_LOAD segments */
  int nseg;
  uintptr_t seg[16], seg_len[16];	/* the PT_LOAD segments' file bytes */
  uintptr_t text, text_end;	/* the executable segment */
  uintptr_t sframe, sframe_end;	/* PT_GNU_SFRAME */
};

/* A copy: add DELTA to an address in the image to get the copy's.  */
struct image_copy
{
  unsigned char *base;
  size_t span;
  uintptr_t delta;
  uintptr_t text, text_end;
  unsigned char *sframe;
  size_t sframe_len;
};

static int
image_find_cb (struct dl_phdr_info *info, size_t size, void *data)
{
  struct image *im = data;
  (void) size;

  im->bias = info->dlpi_addr;
  im->lo = UINTPTR_MAX;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
      uintptr_t start = info->dlpi_addr + ph->p_vaddr;

      if (ph->p_type == PT_LOAD)
	{
	  if (im->nseg < 16)
	    {
	      im->seg[im->nseg] = start;
	      im->seg_len[im->nseg++] = ph->p_filesz;
	    }
	  if (start < im->lo)
	    im->lo = start;
	  if (start + ph->p_memsz > im->hi)
	    im->hi = start + ph->p_memsz;
	  if (ph->p_flags & PF_X)
	    {
	      im->text = start;
	      im->text_end = start + ph->p_memsz;
	    }
	}
      else if (ph->p_type == PT_GNU_SFRAME)
	{
	  im->sframe = start;
	  im->sframe_end = start + ph->p_memsz;
	}
    }
  /* The first object is the executable: stop there.  */
  return 1;
}

/* Find the executable's image; 0 if it has text and .sframe.  */
static int
image_find (struct image *im)
{
  memset (im, 0, sizeof *im);
  dl_iterate_phdr (image_find_cb, im);
  return im->text && im->sframe ? 0 : -1;
}

/* Copy IM; 0 on success.  */
static int
image_copy (const struct image *im, struct image_copy *c)
{
  size_t page = getpagesize ();
  uintptr_t lo = im->lo & ~(page - 1);

  c->span = (im->hi - lo + page - 1) & ~(page - 1);
  c->base = mmap (NULL, c->span, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (c->base == MAP_FAILED)
    return -1;
  c->delta = (uintptr_t) c->base - lo;
  /* Segment by segment: there may be unmapped gaps between them.  */
  for (int i = 0; i < im->nseg; i++)
    memcpy ((void *) (im->seg[i] + c->delta), (void *) im->seg[i],
	    im->seg_len[i]);
  c->text = im->text + c->delta;
  c->text_end = im->text_end + c->delta;
  c->sframe = (unsigned char *) (im->sframe + c->delta);
  c->sframe_len = im->sframe_end - im->sframe;

  uintptr_t t0 = c->text & ~(page - 1);
  uintptr_t t1 = (c->text_end + page - 1) & ~(page - 1);
  return mprotect ((void *) t0, t1 - t0, PROT_READ | PROT_EXEC);
}

/* What runs in a copy: work -> work_mid -> work_leaf, no calls out of
   the image, so that the copy runs on its own.  If TOUCH is not NULL,
   work_leaf writes to it first: on a page that is not present, the
   fault is an event at a known place, three frames deep in the copy,
   where sampling lands wherever the time goes.  */
__attribute__ ((noipa)) static unsigned long
work_leaf (unsigned long n, volatile char *touch)
{
  unsigned long s = 0;
  if (touch)
    *touch = 1;
  for (unsigned long i = 0; i < n; i++)
    s += i * i;
  return s;
}

__attribute__ ((noipa)) static unsigned long
work_mid (unsigned long n, volatile char *touch)
{
  unsigned long r = work_leaf (n, touch);
  return r + work_leaf (n / 2, NULL) + 1;
}

__attribute__ ((noipa)) static unsigned long
work (unsigned long n, volatile char *touch)
{
  volatile char pad[64];
  pad[0] = (char) n;
  return work_mid (n + pad[0] % 2, touch) + 1;
}

/* The copy of FN, a function of the image.  */
#define image_copy_fn(c, fn) \
  ((__typeof__ (&(fn))) ((uintptr_t) (fn) + (c)->delta))

#endif

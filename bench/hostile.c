/* hostile.c -- the most work a process can make the kernel's unwinder do
   for one sample, for the bounded-walk benchmark.

   Usage: hostile ITERATIONS [MODE PERIOD]

   It maps a page of text holding one function of 4096 bytes and
   registers a .sframe section for it with the most FREs a function may
   have (1024, one every 4 bytes, each CFA = SP + 16), then spins in a
   loop near the function's end on a stack it made: 510 frames, each
   returning to another address near the end, so that every lookup
   scans most of the FREs and no rule the kernel keeps from one walk
   applies to the next frame.  With MODE it samples itself (sampler.h):
   scripts/bench-icount takes (T - T without MODE) / S as the cost of one
   such walk, which the kernel bounds by the user loads a walk may make
   (the unwind_user_walk tracepoint shows them).  */

#include <errno.h>
#include <stdint.h>
#include <sys/prctl.h>

#include "../rtld/sframe-prctl.h"
#include "sampler.h"

#define TEXT 4096
#define FRES 1024
#define DEPTH 510
/* The loop: dec %rdi; jnz .-3; jmp *%rcx (back to main).  */
#define LOOP (TEXT - 16)
static const unsigned char loop_code[] = {
  0x48, 0xff, 0xcf, 0x75, 0xfb, 0xff, 0xe1,
};

/* An SFrame V3 section for the function at TEXT, in SEC; its size.  */
static size_t
build_section (unsigned char *sec, const unsigned char *text)
{
  struct __attribute__ ((packed))
  {
    uint16_t magic;
    uint8_t version, flags, abi;
    int8_t fixed_fp, fixed_ra;
    uint8_t auxhdr_len;
    uint32_t num_fdes, num_fres, fre_len, fdes_off, fres_off;
  } hdr = {
    .magic = 0xdee2, .version = 3,
    .flags = 0x1 | 0x4,		/* FDEs sorted, PC-relative */
    .abi = 3,			/* x86-64, little endian */
    .fixed_ra = -8,
    .num_fdes = 1, .num_fres = FRES,
    .fre_len = 5 + 4 * FRES,
    .fres_off = 16,
  };
  struct
  {
    int64_t start_off;
    uint32_t size, fres_off;
  } fde = {
    .start_off = (intptr_t) text - (intptr_t) (sec + sizeof hdr),
    .size = TEXT,
  };
  /* FRE count, then ADDR2 FREs (type 1), PC type INC.  */
  unsigned char attr[5] = { FRES & 0xff, FRES >> 8, 1, 0, 0 };
  size_t off = 0;

  memcpy (sec + off, &hdr, sizeof hdr);
  off += sizeof hdr;
  memcpy (sec + off, &fde, sizeof fde);
  off += sizeof fde;
  memcpy (sec + off, attr, sizeof attr);
  off += sizeof attr;
  for (unsigned int i = 0; i < FRES; i++, off += 4)
    {
      uint16_t start = 4 * i;

      memcpy (sec + off, &start, 2);
      sec[off + 2] = 1 | 1 << 1;	/* CFA from SP, one 1-byte word */
      sec[off + 3] = 16;
    }
  return off;
}

int
main (int argc, char **argv)
{
  if (argc != 2 && argc != 4)
    {
      fprintf (stderr, "usage: hostile ITERATIONS [defer|fp|count PERIOD]\n");
      return 2;
    }
  unsigned long n = strtoul (argv[1], NULL, 0);
  size_t page = getpagesize ();
  unsigned char *text = mmap (NULL, TEXT, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  unsigned char *sec = mmap (NULL, 2 * page, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  static unsigned long stack[2 * DEPTH + 16];

  if (text == MAP_FAILED || sec == MAP_FAILED)
    {
      perror ("hostile: mmap");
      return 1;
    }
  memset (text, 0x90, TEXT);	/* nop */
  memcpy (text + LOOP, loop_code, sizeof loop_code);
  if (mprotect (text, TEXT, PROT_READ | PROT_EXEC) != 0)
    {
      perror ("hostile: mprotect");
      return 1;
    }
  struct sframe_setup setup =
    {
      .sframe_start = (uintptr_t) sec,
      .sframe_size = build_section (sec, text),
      .text_start = (uintptr_t) text,
      .text_size = TEXT
    };
  if (prctl (PR_ADD_SFRAME, &setup, sizeof setup, 0, 0) != 0)
    {
      perror ("hostile: PR_ADD_SFRAME");
      return 1;
    }

  /* Each frame: CFA = SP + 16, the return address at CFA - 8, into the
     function's last thousand bytes, each another; then 0, the end.  */
  for (unsigned int i = 0; i < DEPTH; i++)
    stack[2 * i + 1] = (unsigned long) text + TEXT - 1000 + i;

  if (sampler_start (argc == 4 ? argv[2] : NULL,
		     argc == 4 ? strtoul (argv[3], NULL, 0) : 0))
    return 1;
  __asm__ volatile ("mov %%rsp, %%r12\n\t"
		    "mov %[stack], %%rsp\n\t"
		    "lea 1f(%%rip), %%rcx\n\t"
		    "jmp *%[loop]\n"
		    "1:\tmov %%r12, %%rsp"
		    : "+D" (n)
		    : [stack] "r" (stack), [loop] "r" (text + LOOP)
		    : "rcx", "r12", "memory", "cc");
  return sampler_stop () ? 1 : 0;
}

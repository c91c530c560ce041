/* analyze.h -- what sframe-check finds in one ELF object.

   The kernel's verdict comes from the series' own kernel/unwind/sframe.c
   (fuzz/ksframe.c): the object's PT_LOAD segments are laid out in the
   shim's user memory and mapped as binfmt_elf and ld.so map them, and
   the section is offered to the kernel's prctl(PR_ADD_SFRAME) once per
   executable segment, as both of them do, with the whole section
   checked as a kernel with CONFIG_SFRAME_VALIDATION does.  A kernel
   without it reads the header at registration, and drops a section the
   first time its unwinder reads what this check refuses.  Everything
   else is read from the file by elfobj.c.  */

#ifndef ANALYZE_H
#define ANALYZE_H

#include <stdbool.h>
#include <stdint.h>

#include "elfobj.h"

struct finding
{
  char severity;		/* 'E', 'W' or 'I', as lintian has them.  */
  const char *tag;
  char *detail;			/* Or NULL.  */
};

/* What PR_ADD_SFRAME said for one executable segment: with the
   whole section checked, as a kernel with CONFIG_SFRAME_VALIDATION does
   and as the unwinder finds it when it reads it (ERROR), and as every
   kernel does at registration, reading the header (REGISTRATION).  */
struct range_verdict
{
  uint64_t text_start, text_end;	/* Link-time addresses.  */
  int error;			/* 0, or the negative errno.  */
  int registration;		/* 0, or the negative errno.  */
  const char *function;		/* Where sframe.c refused, or NULL.  */
  int line;
  long fde;			/* The FDE it was checking, or -1.  */
};

#define SFRAME_MAX_RANGES 32

struct sframe_report
{
  enum elfobj_status status;
  const char *why;		/* For a status other than ELFOBJ_OK.  */
  bool checked;			/* An object sframe-check looks into.  */
  bool section, segment;	/* .sframe, PT_GNU_SFRAME.  */
  int version;			/* From the preamble; 0 if unknown.  */
  unsigned int flags, abi;
  long num_fdes;		/* As the kernel reads it; -1 if it cannot.  */
  bool offered;			/* PT_GNU_SFRAME: binfmt_elf and ld.so
				   offer the section to the kernel.  */
  bool acceptable;		/* The kernel takes every range...  */
  bool accepted;		/* ...and it is offered.  */
  bool registered;		/* Some range is offered and taken.  */
  int nranges;
  struct range_verdict ranges[SFRAME_MAX_RANGES];
  uint64_t text_bytes;		/* Executable sections.  */
  uint64_t padding_bytes;	/* The alignment padding in them.  */
  int64_t covered_bytes;	/* By FDEs; -1 if the FDEs cannot be read.  */
  const char *symbols;		/* ".symtab", ".dynsym" or NULL.  */
  unsigned long functions;
  unsigned long functions_without_fde;	/* Of which... */
  unsigned long functions_without_cfi;	/* ...have no DWARF CFI either.  */
  unsigned long functions_partly_covered, functions_without_rule;
  unsigned long fdes_outside_text;
  struct finding *findings;
  unsigned long nfindings;
};

/* Check the object of SIZE bytes at DATA into *R.  */
void sframe_analyze (const void *data, size_t size, struct sframe_report *r);
void sframe_report_free (struct sframe_report *r);

/* The executable text but its alignment padding, and the bytes of it
   that the FDEs of the ranges the kernel accepted cover (0 if unknown):
   what the totals add up.  */
uint64_t sframe_text_bytes (const struct sframe_report *r);
uint64_t sframe_covered_bytes (const struct sframe_report *r);

/* Coverage of the executable text but its alignment padding, in
   percent, or -1 if unknown.  */
double sframe_coverage (const struct sframe_report *r);

/* Which sframe.c the verdicts come from: "sha256 " and the first 16
   hex digits of its SHA-256.  */
const char *sframe_kernel_source_id (void);

/* "EBADMSG" for -EBADMSG, and so on.  */
const char *sframe_errno_name (int err);

/* The check in kernel/unwind/sframe.c that produced an error at LINE,
   as its source reads, in BUF.  */
const char *sframe_kernel_check (int line, char *buf, size_t len);

/* Add a finding to R.  */
void sframe_report_add (struct sframe_report *r, char severity,
			const char *tag, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));

/* How ld.so links an object, for --deps: what its dynamic section
   says, the functions it imports (undefined) and exports (defined) in
   .dynsym -- symbol versions are not read -- and how many of its
   functions set up a frame pointer.  The strings are copies.  */
struct sframe_linkage
{
  bool dynamic;			/* PT_DYNAMIC: ld.so loads what it needs.  */
  char *interp, *soname, *rpath, *runpath;	/* Or NULL.  */
  char **needed;		/* DT_NEEDED, in order.  */
  unsigned int nneeded;
  bool nodeflib;		/* DF_1_NODEFLIB.  */
  bool et_exec;			/* ET_EXEC: loaded at a fixed address.  */
  bool pie;			/* DF_1_PIE: a position-independent
				   executable.  */
  char **imports;		/* Undefined STT_FUNC symbols, in order.  */
  unsigned long nimports;
  char **exports;		/* Defined functions, sorted, unique.  */
  unsigned long nexports;
  unsigned long functions;	/* Examined for a frame pointer...  */
  unsigned long fp_functions;	/* ...of which set one up.  */
};

/* sframe_analyze, and how ld.so links the object into *L, from the
   same reading of the file; *L is empty when the ELF header cannot be
   read (R->status ELFOBJ_NOT_ELF, or another status that sframe_analyze
   finds first).  Free *L with sframe_linkage_free.  */
void sframe_analyze_linkage (const void *data, size_t size,
			     struct sframe_report *r,
			     struct sframe_linkage *l);
void sframe_linkage_free (struct sframe_linkage *l);

/* Is L built with frame pointers?  A heuristic: at least half of its
   functions (of a size, in executable sections, the startup files'
   ones left out) start, after an optional endbr64, with push %rbp;
   mov %rsp,%rbp.  */
bool sframe_frame_pointers (const struct sframe_linkage *l);

/* An object laid out as binfmt_elf and ld.so map it, its .sframe
   registered with the shim's kernel for every executable segment, so
   that ksframe_find() looks its addresses up (user address = link-time
   address + the bias).  One at a time: the shim has one process.  NULL,
   with *WHY, if the kernel would not register it.  */
struct sframe_loaded;
struct sframe_loaded *sframe_load (const void *data, size_t size,
				   const char **why);
uint64_t sframe_loaded_bias (const struct sframe_loaded *l);
/* The FDEs' function starts (user addresses) and sizes; their number or
   -1.  The caller frees both arrays.  */
long sframe_loaded_fdes (const struct sframe_loaded *l, uint64_t **starts,
			 uint32_t **sizes);
void sframe_unload (struct sframe_loaded *l);

/* Helpers that sframe-check's files share.  Running out of memory
   aborts, here as everywhere in sframe-check.  */

/* A copy of S; NULL for NULL.  */
char *sframe_xstrdup (const char *s);

/* V, an array of N elements of SIZE bytes that only this function
   grows, with room for one more: the room doubles, so that adding N
   elements one by one costs O(N).  */
void *sframe_grow (void *v, size_t n, size_t size);

/* Add a copy of NAME to the *N names at *V.  */
void sframe_push_name (char ***v, unsigned long *n, const char *name);

/* strcmp on two elements of an array of strings, for qsort and
   bsearch.  */
int sframe_name_cmp (const void *a, const void *b);

#endif /* analyze.h */

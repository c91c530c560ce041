/* ksframe.h -- what user-space tools ask of the kernel's SFrame decoder.

   fuzz/ksframe.c builds the series' kernel/unwind/sframe.c on the shim
   (kshim.h) and adds these few readers of its internal functions, so
   that a tool sees a section exactly as the kernel does.  Addresses are
   in the shim's user memory; errors are negative errnos as the kernel
   returns them.  One process, one mm: the calls are not reentrant.  */

#ifndef KSFRAME_H
#define KSFRAME_H

/* A section's header, as sframe_check_header() decodes and checks it. */
struct ksframe_header {
	unsigned int version;
	unsigned int flags;
	unsigned int num_fdes;
	unsigned int num_fres;
	unsigned long fres_end;	/* where the last sub-section ends */
};

/* One function, as sframe_read_fde_index() decodes its FDE. */
struct ksframe_fde {
	unsigned long func_start;
	unsigned int func_size;
};

#include <stdbool.h>

/* A mapping of the process, as a VMA has it. */
struct ksframe_vma {
	unsigned long start, end;
	bool read, exec;
	const void *file;	/* Any pointer identifies a file; NULL: anonymous. */
};

/* Where the kernel's code refused something (see kshim.h). */
struct ksframe_where {
	const char *function;	/* NULL if it cannot be told */
	int line;		/* in kernel/unwind/sframe.c */
	long fde;		/* the FDE the validator was at, or -1 */
};

/* The most VMAs a process of the shim has. */
#define KSFRAME_MAX_VMAS	256

/*
 * Start a process whose user memory is the @len bytes at @mem, at user
 * address @start, mapped as @vmas (sorted, not overlapping), with an
 * empty registry.  -E2BIG if there are more than KSFRAME_MAX_VMAS.
 */
int ksframe_begin(unsigned long start, unsigned char *mem, unsigned long len,
		   const struct ksframe_vma *vmas, int nvmas);
/* Forget the process, its registrations and its mappings. */
void ksframe_end(void);

/* sframe_add_section(), and where it refused. */
int ksframe_add(unsigned long sframe_start, unsigned long sframe_end,
		unsigned long text_start, unsigned long text_end,
		struct ksframe_where *where);

/* sframe_find(): 0 if the kernel has rules for @ip. */
int ksframe_find(unsigned long ip);

/* The lookups of one stack walk of @n frames at @ips, as the unwinder
   makes them with the task's rules (struct sframe_rules), which persist
   from one call to the next.  Returns how many had no rules or, if
   @check, rules other than a lookup of their own finds; -ENOMEM.  */
long ksframe_find_rules(const unsigned long *ips, unsigned long n,
			bool check);

/* The set of the task's rules @ip goes to, and how many one set holds.  */
int ksframe_rules_set(unsigned long ip);
int ksframe_rules_ways(void);

/* copy_from_user() from the process's memory: 0, or how much was left. */
unsigned long ksframe_copy(void *to, unsigned long from, unsigned long n);

/*
 * How many user access windows and user loads the decoder has made
 * since the process began (ksframe_begin()).
 */
void ksframe_user_accesses(unsigned long *windows, unsigned long *loads);

int ksframe_read_header(unsigned long sframe_start, unsigned long sframe_end,
			struct ksframe_header *hdr);
int ksframe_read_fde(unsigned long sframe_start, unsigned long sframe_end,
		     unsigned int i, struct ksframe_fde *fde);

#endif /* KSFRAME_H */

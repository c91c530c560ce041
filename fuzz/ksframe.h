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

/* prctl(PR_ADD_SFRAME) of the section at [@sframe_start, @sframe_end) for
   the text at [@text_start, @text_end), as ld.so makes it (struct
   sframe_setup), and where it refused.  An end below its start is a
   range past the end of the address space: -EINVAL.  */
int ksframe_add(unsigned long sframe_start, unsigned long sframe_end,
		unsigned long text_start, unsigned long text_end,
		struct ksframe_where *where);
/* prctl(PR_REMOVE_SFRAME) of the section at @sframe_start.  */
int ksframe_remove(unsigned long sframe_start);

/* A lookup in the section registered for @ip, as a walk makes one for
   an address it has no rule kept for: 0 if the kernel has rules for @ip.  */
int ksframe_find(unsigned long ip);
/* The same, and the user loads the kernel counted for it.  */
int ksframe_find_loads(unsigned long ip, unsigned int *loads);
/* The same, and where it failed: -EOPNOTSUPP if the function is well
   formed but uses what the kernel does not follow.  */
int ksframe_find_where(unsigned long ip, struct ksframe_where *where);

/* The lookups of one stack walk of @n frames at @ips, as the unwinder
   makes them with the rules it keeps (struct sframe_rules), which
   persist from one call to the next.  Returns how many had no rules or,
   if @check, rules other than a lookup in their section finds.  */
long ksframe_find_rules(const unsigned long *ips, unsigned long n,
			bool check);

/* The set of the kept rules @ip goes to, and how many one set holds.  */
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

#ifdef KSHIM_H
/* For the fuzz target, which builds on the shim and has its types.  */

/* The most loads one lookup may make, the FREs' scan included.  */
unsigned int ksframe_lookup_max_loads(void);

/*
 * A lookup of @ip in the section at [@sframe_start, @sframe_end) for the
 * text at [@text_start, @text_end), as the unwinder makes it in a
 * section whose registration read its header alone: nothing else of it
 * was checked.  The loads it made in *@loads.
 */
int ksframe_lookup_unchecked(unsigned long sframe_start,
			     unsigned long sframe_end, unsigned long text_start,
			     unsigned long text_end, unsigned long ip,
			     struct unwind_user_frame *frame,
			     unsigned int *loads);

/* A walk's lookup of @ip in what is registered, the kept rules first. */
int ksframe_walk_find(unsigned long ip, struct unwind_user_frame *frame);
#endif

#endif /* KSFRAME_H */

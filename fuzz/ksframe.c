/* ksframe.c -- the series' kernel/unwind/sframe.c, built for user space
   on the shim, with readers of its internal functions (ksframe.h).

   Built with -I for the kernel tree, so that the code compiled is always
   the series' current one, never a copy.  */

#include "kshim.h"

#include <kernel/unwind/sframe.c>

#include "ksframe.h"

static struct mm_struct ksframe_mm;
static struct task_struct ksframe_task = { .mm = &ksframe_mm, .comm = "check" };
static struct vm_area_struct ksframe_vmas[KSFRAME_MAX_VMAS];

/*
 * The kernel makes its slab caches at boot (core_initcall); every user of
 * the shim, fuzzers included, gets them before main().
 */
__attribute__((constructor)) static void ksframe_init(void)
{
	sframe_cache_init();
}

int ksframe_begin(unsigned long start, unsigned char *mem, unsigned long len,
		  const struct ksframe_vma *vmas, int nvmas)
{
	if (nvmas > KSFRAME_MAX_VMAS)
		return -E2BIG;
	for (int i = 0; i < nvmas; i++) {
		ksframe_vmas[i].vm_start = vmas[i].start;
		ksframe_vmas[i].vm_end = vmas[i].end;
		ksframe_vmas[i].vm_flags = (vmas[i].read ? VM_READ : 0) |
					   (vmas[i].exec ? VM_EXEC : 0);
		ksframe_vmas[i].vm_file = (struct file *)vmas[i].file;
	}
	shim_vmas = ksframe_vmas;
	shim_nvmas = nvmas;
	shim_user_start = start;
	shim_user_end = start + len;
	shim_user_mem = mem;
	shim_current = &ksframe_task;
	shim_user_windows = shim_user_loads = 0;
	sframe_init_mm(&ksframe_mm);
	return 0;
}

void ksframe_end(void)
{
	sframe_free_mm(&ksframe_mm);
	shim_nvmas = 0;
	shim_user_start = shim_user_end = 0;
	shim_user_mem = NULL;
}

/* Did @func refuse a section while the validator was going through its FDEs? */
static bool ksframe_in_fdes(const char *func)
{
	return func && strcmp(func, "sframe_prctl") &&
	       strcmp(func, "sframe_add_section") &&
	       strcmp(func, "sframe_read_header") &&
	       strcmp(func, "sframe_check_header");
}

/* The first site that produced @err since shim_error_reset(). */
static void ksframe_site(int err, struct ksframe_where *where)
{
	where->function = NULL;
	where->line = 0;
	where->fde = -1;
	for (int i = 0; err && i < shim_nerror_sites; i++) {
		if (shim_error_sites[i].err != err)
			continue;
		where->function = shim_error_sites[i].func;
		where->line = shim_error_sites[i].line;
		/* The validator counts FDEs; the checks before it count none. */
		if (shim_resched_count && ksframe_in_fdes(where->function))
			where->fde = (long)shim_resched_count - 1;
		break;
	}
}

/* The prctl @option of @setup, which the caller has on its stack. */
static int ksframe_prctl(int option, const struct sframe_setup *setup)
{
	memcpy(shim_args, setup, sizeof(*setup));
	return sframe_prctl(option, SHIM_ARGS_START, sizeof(*setup), 0, 0);
}

int ksframe_add(unsigned long sframe_start, unsigned long sframe_end,
		unsigned long text_start, unsigned long text_end,
		struct ksframe_where *where)
{
	struct sframe_setup setup = {
		.sframe_start	= sframe_start,
		.sframe_size	= sframe_end - sframe_start,
		.text_start	= text_start,
		.text_size	= text_end - text_start,
	};
	int ret;

	shim_error_reset();
	ret = ksframe_prctl(PR_ADD_SFRAME, &setup);
	/* The registration path turns its checks' EINVAL into EBADMSG. */
	ksframe_site(ret == -EBADMSG ? SHIM_EINVAL : -ret, where);
	return ret;
}

int ksframe_remove(unsigned long sframe_start)
{
	struct sframe_setup setup = { .sframe_start = sframe_start };

	return ksframe_prctl(PR_REMOVE_SFRAME, &setup);
}

/*
 * A lookup of @ip in the section registered for it, as a walk makes one
 * when it has no rule kept for @ip, and the user loads it counted.
 */
int ksframe_find_loads(unsigned long ip, unsigned int *loads)
{
	struct sframe_section *entry = mtree_load(&current->mm->sframe_mt, ip);
	struct unwind_user_frame frame;

	*loads = 0;
	if (!entry || entry->dead)
		return -ENOENT;
	return sframe_lookup_user(entry, ip, loads, UINT_MAX, &frame);
}

int ksframe_lookup_unchecked(unsigned long sframe_start,
			     unsigned long sframe_end, unsigned long text_start,
			     unsigned long text_end, unsigned long ip,
			     struct unwind_user_frame *frame,
			     unsigned int *loads)
{
	struct sframe_section sec = {
		.sframe_start = sframe_start,
		.sframe_end = sframe_end,
		.text_start = text_start,
		.text_end = text_end,
	};
	u32 num_fres;
	int ret;

	*loads = 0;
	if (sframe_start >= sframe_end || text_start >= text_end)
		return -EINVAL;
	ret = sframe_read_header(&sec, &num_fres);
	if (ret)
		return ret;
	return sframe_lookup_user(&sec, ip, loads, UINT_MAX, frame);
}

unsigned int ksframe_lookup_max_loads(void)
{
	return SFRAME_LOOKUP_FIXED_LOADS + 2 * SFRAME_MAX_FDE_FRES;
}

int ksframe_walk_find(unsigned long ip, struct unwind_user_frame *frame)
{
	struct sframe_walk walk;
	unsigned int loads = 0;

	sframe_walk_init(&walk, current->mm);
	return sframe_walk_find(&walk, ip, &loads, UINT_MAX, frame);
}

int ksframe_find(unsigned long ip)
{
	unsigned int loads;

	return ksframe_find_loads(ip, &loads);
}

int ksframe_find_where(unsigned long ip, struct ksframe_where *where)
{
	unsigned int loads;
	int ret;

	shim_error_reset();
	ret = ksframe_find_loads(ip, &loads);
	ksframe_site(-ret, where);
	return ret;
}

static bool ksframe_rule_eq(const struct unwind_user_rule *a,
			    const struct unwind_user_rule *b)
{
	return a->base == b->base && a->regnum == b->regnum &&
	       a->deref == b->deref && a->off == b->off;
}

/* Field by field: a struct copy need not keep the padding. */
static bool ksframe_frame_eq(const struct unwind_user_frame *a,
			     const struct unwind_user_frame *b)
{
	return ksframe_rule_eq(&a->cfa, &b->cfa) &&
	       ksframe_rule_eq(&a->ra, &b->ra) &&
	       ksframe_rule_eq(&a->fp, &b->fp) &&
	       a->outermost == b->outermost && a->sigframe == b->sigframe;
}

int ksframe_rules_set(unsigned long ip)
{
	return hash_long(ip, SFRAME_RULES_BITS);
}

int ksframe_rules_ways(void)
{
	return SFRAME_RULES_WAYS;
}

long ksframe_find_rules(const unsigned long *ips, unsigned long n,
			bool check)
{
	struct unwind_user_frame frame, looked_up;
	struct sframe_section *entry;
	struct sframe_walk walk;
	unsigned int loads = 0;
	long bad = 0;

	sframe_walk_init(&walk, current->mm);
	for (unsigned long i = 0; i < n; i++) {
		if (sframe_walk_find(&walk, ips[i], &loads, UINT_MAX, &frame)) {
			bad++;
			continue;
		}
		if (!check)
			continue;
		entry = mtree_load(&current->mm->sframe_mt, ips[i]);
		loads = 0;
		if (!entry || sframe_lookup_user(entry, ips[i], &loads, UINT_MAX,
						 &looked_up) ||
		    !ksframe_frame_eq(&frame, &looked_up))
			bad++;
	}
	return bad;
}

int ksframe_read_header(unsigned long sframe_start, unsigned long sframe_end,
			struct ksframe_header *hdr)
{
	struct sframe_section sec = {
		.sframe_start = sframe_start,
		.sframe_end = sframe_end,
	};
	u32 num_fres;
	int ret;

	if (sframe_start >= sframe_end)
		return -EINVAL;
	ret = sframe_read_header(&sec, &num_fres);
	if (ret)
		return ret;
	hdr->version = sec.version;
	hdr->flags = sec.flags;
	hdr->num_fdes = sec.num_fdes;
	hdr->num_fres = num_fres;
	hdr->fres_end = sec.fres_end;
	return 0;
}

int ksframe_read_fde(unsigned long sframe_start, unsigned long sframe_end,
		     unsigned int i, struct ksframe_fde *out)
{
	struct sframe_section sec = {
		.sframe_start = sframe_start,
		.sframe_end = sframe_end,
	};
	struct sframe_fde fde;
	u32 num_fres, fres_off;
	int ret;

	ret = sframe_read_header(&sec, &num_fres);
	if (ret)
		return ret;
	if (i >= sec.num_fdes)
		return -ENOENT;
	ret = sframe_read_fde_index(&sec, __sframe_fde_addr(&sec, i), &fde,
				    &fres_off);
	if (ret)
		return ret;
	out->func_start = fde.func_start;
	out->func_size = fde.func_size;
	return 0;
}

void ksframe_user_accesses(unsigned long *windows, unsigned long *loads)
{
	*windows = shim_user_windows;
	*loads = shim_user_loads;
}

unsigned long ksframe_copy(void *to, unsigned long from, unsigned long n)
{
	return copy_from_user(to, (const void __user *)from, n);
}

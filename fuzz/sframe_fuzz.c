/* sframe_fuzz.c -- libFuzzer target for the kernel's SFrame decoder.

   The decoder is the series' kernel/unwind/sframe.c itself, built in
   user space on top of kshim.h.  An input is

     s32  text_off   where the text starts, relative to the section
     u32  text_len   length of the text
     ...             the .sframe section

   (sframe_seed makes inputs from ELF files).  The target looks up
   addresses all over the text as the unwinder does in a section whose
   registration read only its header, as the kernel's does by default;
   then it registers the section, through prctl(PR_ADD_SFRAME) as ld.so
   does, with the check of the whole section
   (CONFIG_SFRAME_VALIDATION, which the shim has) and, if that succeeds,
   looks them up again through what is registered.  It aborts, so that
   the fuzzer reports a crash, when

   - registration fails with an error the interface does not document;
   - a lookup makes more loads than a lookup may;
   - a lookup fails with anything but "no rules here", a fault or, where
     nothing but the header was checked, "malformed";
   - a lookup in a section that the whole check accepted, and that
     nobody changed since, finds it malformed, or finds other rules than
     the unchecked lookup did: the check and the lookup disagree;
   - a lookup gives rules the unwinder must not get: an offset base for
     the CFA, or a register base that is not a real register.

   AddressSanitizer and UndefinedBehaviorSanitizer catch the rest.  */

#include "kshim.h"

#include <linux/sframe.h>

#include "ksframe.h"

/* Where the fake user memory lives. */
#define USER_BASE	0x10000000UL
#define TEXT_MAX	(1UL << 24)

/* All of it, readable and executable, from no file. */
static struct vm_area_struct fuzz_vma = { 0, ~0UL, VM_READ | VM_EXEC, NULL };

static void check_frame(const struct unwind_user_frame *frame);

static void check_rule(const struct unwind_user_rule *r, bool cfa)
{
	switch (r->base) {
	case UNWIND_USER_BASE_NONE:
		if (cfa)
			abort ();
		break;
	case UNWIND_USER_BASE_CFA:
		if (cfa)
			abort ();
		break;
	case UNWIND_USER_BASE_SP:
	case UNWIND_USER_BASE_FP:
		break;
	case UNWIND_USER_BASE_REG:
		/* x86-64 DWARF numbers 0-16; SP and FP have bases of their own. */
		if (r->regnum > 16 || r->regnum == 6 || r->regnum == 7)
			abort ();
		break;
	default:
		abort ();
	}
}

/* Rules the unwinder may be given. */
static void check_frame(const struct unwind_user_frame *frame)
{
	if (frame->outermost || frame->sigframe)
		return;
	check_rule(&frame->cfa, true);
	check_rule(&frame->ra, false);
	check_rule(&frame->fp, false);
	if (frame->ra.base == UNWIND_USER_BASE_NONE)
		abort ();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mm_struct mm;
	struct task_struct task = { .mm = &mm, .comm = "fuzz" };
	static struct unwind_user_frame frames[4097];
	static int res[4097];
	unsigned long sec, text, text_end, lo, hi, ip, step, nips;
	struct ksframe_where where;
	s32 text_off;
	u32 text_len;
	int ret;

	if (size < 8 || size - 8 > TEXT_MAX)
		return 0;
	memcpy(&text_off, data, 4);
	memcpy(&text_len, data + 4, 4);
	data += 8;
	size -= 8;
	if (!text_len || text_len > TEXT_MAX)
		return 0;

	/* User memory spans the section and the text around it. */
	sec = USER_BASE + (TEXT_MAX << 1);
	text = sec + text_off;
	text_end = text + text_len;
	lo = text < sec ? text : sec;
	hi = text_end > sec + size ? text_end : sec + size;
	if (hi - lo > 4 * TEXT_MAX)
		return 0;
	shim_user_mem = calloc(1, hi - lo);
	if (!shim_user_mem)
		return 0;
	shim_user_start = lo;
	shim_user_end = hi;
	memcpy(shim_user_mem + (sec - lo), data, size);

	shim_current = &task;
	shim_vmas = &fuzz_vma;
	shim_nvmas = 1;
	shim_dropped = 0;
	sframe_init_mm(&mm);

	/* At most about 4096 lookups, over the whole text. */
	step = text_len / 4096 + 1;
	nips = 0;
	for (ip = text; ip < text_end; ip += step, nips++) {
		unsigned int loads;

		res[nips] = ksframe_lookup_unchecked(sec, sec + size, text,
						     text_end, ip, &frames[nips],
						     &loads);
		if (loads > ksframe_lookup_max_loads())
			abort ();
		if (res[nips] && res[nips] != -ENOENT &&
		    res[nips] != -EFAULT && res[nips] != -EINVAL &&
		    res[nips] != -EOPNOTSUPP)
			abort ();
		if (!res[nips])
			check_frame(&frames[nips]);
	}

	ret = ksframe_add(sec, sec + size, text, text_end, &where);
	if (ret && ret != -EINVAL && ret != -EBADMSG && ret != -EFAULT)
		abort ();

	if (!ret) {
		unsigned long i = 0;

		for (ip = text; ip < text_end; ip += step, i++) {
			struct unwind_user_frame frame;

			ret = ksframe_walk_find(ip, &frame);
			if (shim_dropped)
				abort ();
			/*
			 * A checked section may still have functions the
			 * kernel does not follow: the walk goes without them.
			 */
			if (ret == -ENOENT || ret == -EFAULT) {
				if (res[i] != ret &&
				    !(ret == -ENOENT && res[i] == -EOPNOTSUPP))
					abort ();
				continue;
			}
			if (ret || res[i])
				abort ();
			check_frame(&frame);
			if (memcmp(&frame.cfa, &frames[i].cfa, sizeof(frame.cfa)) ||
			    memcmp(&frame.ra, &frames[i].ra, sizeof(frame.ra)) ||
			    memcmp(&frame.fp, &frames[i].fp, sizeof(frame.fp)) ||
			    frame.outermost != frames[i].outermost ||
			    frame.sigframe != frames[i].sigframe)
				abort ();
		}
		if (ksframe_remove(sec))
			abort ();
	}

	sframe_free_mm(&mm);
	free(shim_user_mem);
	return 0;
}

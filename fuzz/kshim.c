/* kshim.c -- the parts of kshim.h that are not inline: the shim's state,
   a maple tree as a sorted array and the VMA list.  See kshim.h.  */

#include "kshim.h"

int shim_dropped;
unsigned long shim_user_start, shim_user_end;
unsigned char *shim_user_mem;
struct task_struct *shim_current;
struct vm_area_struct *shim_vmas;
int shim_nvmas;
struct shim_error_site shim_error_sites[SHIM_MAX_SITES];
int shim_nerror_sites;
unsigned long shim_resched_count;
unsigned long shim_user_windows, shim_user_loads;
unsigned char shim_args[SHIM_ARGS_SIZE];

void shim_error_reset(void)
{
	shim_nerror_sites = 0;
	shim_resched_count = 0;
}

/* The next VMA that overlaps [vmi->addr, end), in address order. */
struct vm_area_struct *shim_vma_next(struct shim_vmi *vmi, unsigned long end)
{
	for (; vmi->i < shim_nvmas; vmi->i++) {
		struct vm_area_struct *vma = &shim_vmas[vmi->i];

		if (vma->vm_start >= end)
			return NULL;
		if (vma->vm_end > vmi->addr) {
			vmi->i++;
			return vma;
		}
	}
	return NULL;
}

struct vm_area_struct *vma_lookup(struct mm_struct *mm, unsigned long addr)
{
	(void) mm;
	for (int i = 0; i < shim_nvmas; i++)
		if (shim_vmas[i].vm_start <= addr && addr < shim_vmas[i].vm_end)
			return &shim_vmas[i];
	return NULL;
}

/* Is [addr, addr + n) mapped without a hole?  n is at least 1 here. */
bool shim_user_mapped(unsigned long addr, unsigned long n)
{
	unsigned long end = addr + n;

	for (int i = 0; i < shim_nvmas && addr < end; i++) {
		if (shim_vmas[i].vm_end <= addr)
			continue;
		if (shim_vmas[i].vm_start > addr)
			return false;
		addr = shim_vmas[i].vm_end;
	}
	return addr >= end;
}

void mt_init_flags(struct maple_tree *mt, unsigned int flags)
{
	(void) flags;
	mt->n = 0;
}

int mtree_insert_range(struct maple_tree *mt, unsigned long first,
		       unsigned long last, void *entry, gfp_t gfp)
{
	int i, j;

	(void) gfp;
	if (first > last)
		return -SHIM_EINVAL;
	for (i = 0; i < mt->n; i++)
		if (mt->e[i].first <= last && first <= mt->e[i].last)
			return -EEXIST;
	if (mt->n == SHIM_MT_MAX)
		return -ENOMEM;
	for (i = 0; i < mt->n && mt->e[i].first < first; i++)
		;
	for (j = mt->n; j > i; j--)
		mt->e[j] = mt->e[j - 1];
	mt->e[i].first = first;
	mt->e[i].last = last;
	mt->e[i].entry = entry;
	mt->n++;
	return 0;
}

/* Only what sframe.c does: store a range, or replace one exactly. */
int mtree_store_range(struct maple_tree *mt, unsigned long first,
		      unsigned long last, void *entry, gfp_t gfp)
{
	for (int i = 0; i < mt->n; i++)
		if (mt->e[i].first == first && mt->e[i].last == last) {
			mt->e[i].entry = entry;
			return 0;
		}
	return mtree_insert_range(mt, first, last, entry, gfp);
}

void *mtree_load(struct maple_tree *mt, unsigned long index)
{
	for (int i = 0; i < mt->n; i++)
		if (mt->e[i].first <= index && index <= mt->e[i].last)
			return mt->e[i].entry;
	return NULL;
}

void *mtree_erase(struct maple_tree *mt, unsigned long index)
{
	for (int i = 0; i < mt->n; i++)
		if (mt->e[i].first <= index && index <= mt->e[i].last) {
			void *entry = mt->e[i].entry;

			memmove(&mt->e[i], &mt->e[i + 1],
				(mt->n - i - 1) * sizeof(mt->e[0]));
			mt->n--;
			return entry;
		}
	return NULL;
}

void *mt_find(struct maple_tree *mt, unsigned long *index, unsigned long max)
{
	for (int i = 0; i < mt->n; i++)
		if (mt->e[i].last >= *index && mt->e[i].first <= max) {
			*index = mt->e[i].last + 1;
			return mt->e[i].entry;
		}
	return NULL;
}

void *mas_walk(struct ma_state *mas)
{
	struct maple_tree *mt = mas->tree;
	unsigned long index = mas->index;

	mas->index = 0;
	mas->last = ULONG_MAX;
	for (int i = 0; i < mt->n; i++) {
		if (mt->e[i].first <= index && index <= mt->e[i].last) {
			mas->index = mt->e[i].first;
			mas->last = mt->e[i].last;
			return mt->e[i].entry;
		}
		if (mt->e[i].last < index)
			mas->index = mt->e[i].last + 1;
		else if (mas->last == ULONG_MAX)
			mas->last = mt->e[i].first - 1;
	}
	return NULL;
}

void mtree_destroy(struct maple_tree *mt)
{
	mt->n = 0;
}

/* kshim.h -- just enough of the kernel's API to build the SFrame decoder
   (kernel/unwind/sframe.c of the series) in user space, for the fuzz
   target and for sframe-check.

   User memory is one buffer at a fake address (shim_user_*) and the
   mappings in it are an array of VMAs (shim_vmas) that the user of the
   shim sets up: the fuzz target maps the whole buffer readable and
   executable from no file, so that what is fuzzed is the decoder and its
   bounds checks; sframe-check maps an object's PT_LOAD segments as the
   kernel and ld.so would.  A user access faults unless it lies in the
   buffer and in mapped VMAs, as an access to an unmapped address would.
   The maple tree is a small sorted array and locks do nothing.

   So that sframe-check can say which of the kernel's checks refused a
   section, EINVAL, EFAULT and EOPNOTSUPP evaluate to their values and
   record the function and line of sframe.c where they were produced; and
   cond_resched(), which the validator calls once per FDE, counts FDEs.  */

#ifndef KSHIM_H
#define KSHIM_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef uint32_t __u32;
typedef uint64_t __u64;
typedef unsigned long vm_flags_t;
typedef unsigned int gfp_t;

#define __user
#define __packed		__attribute__((packed))
#undef __always_inline
#define __always_inline		inline __attribute__((always_inline))
#define __init
#define BIT(n)			(1UL << (n))
#define U8_MAX			0xff
#define U16_MAX			0xffff
#define READ_ONCE(x)		(x)
#define WRITE_ONCE(x, val)	((x) = (val))
#define xchg(p, v)		__atomic_exchange_n((p), (v), __ATOMIC_SEQ_CST)
#define __read_mostly
#define __ro_after_init
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
/* The kernel's multiplicative hash (include/linux/hash.h, 64-bit).  */
#define hash_long(val, bits)						\
	((unsigned int)(((u64)(val) * 0x61C8864680B583EBull) >> (64 - (bits))))
#define ERR_PTR(e)		((void *)(long)(e))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define PAGE_SIZE		4096UL
#define BUILD_BUG_ON(c)		_Static_assert(!(c), #c)
#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define GFP_KERNEL_ACCOUNT	0
#define GFP_KERNEL		0
#define late_initcall(f)

/*
 * Where sframe.c produced errors (see the top of the file): every
 * evaluation of EINVAL, EFAULT or EOPNOTSUPP since shim_error_reset(),
 * in order, up to SHIM_MAX_SITES.  A comparison such as `ret == -EINVAL'
 * evaluates one too, so the reader picks the first site of the errno
 * returned.
 */
#define SHIM_MAX_SITES	16
struct shim_error_site {
	int err;
	const char *func;
	int line;
};
extern struct shim_error_site shim_error_sites[SHIM_MAX_SITES];
extern int shim_nerror_sites;
extern unsigned long shim_resched_count;
static inline int shim_error_site(int err, const char *func, int line)
{
	if (shim_nerror_sites < SHIM_MAX_SITES) {
		shim_error_sites[shim_nerror_sites].err = err;
		shim_error_sites[shim_nerror_sites].func = func;
		shim_error_sites[shim_nerror_sites].line = line;
		shim_nerror_sites++;
	}
	return err;
}
void shim_error_reset(void);
/* The values, for the shim's own code, which must record no site. */
#define SHIM_EINVAL	22
#define SHIM_EFAULT	14
#define SHIM_EOPNOTSUPP	95
_Static_assert(SHIM_EINVAL == EINVAL && SHIM_EFAULT == EFAULT &&
	       SHIM_EOPNOTSUPP == EOPNOTSUPP, "errno values");
#undef EINVAL
#define EINVAL	shim_error_site(SHIM_EINVAL, __func__, __LINE__)
#undef EFAULT
#define EFAULT	shim_error_site(SHIM_EFAULT, __func__, __LINE__)
#undef EOPNOTSUPP
#define EOPNOTSUPP	shim_error_site(SHIM_EOPNOTSUPP, __func__, __LINE__)
#define cond_resched()		((void)shim_resched_count++)
/* The options sframe.c and sframe.h ask about, as the fuzz target has them. */
#define IS_ENABLED(option)		__shim_##option
#define __shim_CONFIG_KUNIT		0
#define fatal_signal_pending(t)	0
static inline bool WARN_ON_ONCE(bool c) { return c; }

/* Only the decoder's own thread runs. */
typedef struct { long long counter; } atomic64_t;
static inline long long atomic64_inc_return(atomic64_t *v)
{
	return ++v->counter;
}

/* The decoder found a registered section malformed and dropped it. */
extern int shim_dropped;
#define pr_warn_ratelimited(...)	(shim_dropped++)

/* One thread, one CPU: its cache of rules is the only one. */
#define __percpu
#define alloc_percpu_gfp(type, gfp)	((type *)calloc(1, sizeof(type)))
#define get_cpu_ptr(p)			(p)
#define put_cpu_ptr(p)			do { } while (0)
#define DEFINE_MUTEX(m)			int m
#define guard(type)			(void)

/* What the unwinder reads of an image the kernel holds, unaligned. */
#define get_unaligned(p)						\
({									\
	__typeof__(*(p)) __u;						\
	memcpy(&__u, (p), sizeof(__u));					\
	__u;								\
})

/* User memory. */
extern unsigned long shim_user_start, shim_user_end;
extern unsigned char *shim_user_mem;

bool shim_user_mapped(unsigned long addr, unsigned long n);
static inline bool shim_user_ok(unsigned long addr, unsigned long n)
{
	return addr >= shim_user_start && addr < shim_user_end &&
	       n <= shim_user_end - addr && shim_user_mapped(addr, n);
}

/*
 * What the decoder asks of user memory, counted: user access windows
 * (each copy_from_user() is one, as it opens and closes its own) and
 * loads (each copy_from_user() or unsafe_get_user()).  Deterministic,
 * where time on these machines is not.
 */
extern unsigned long shim_user_windows, shim_user_loads;

/*
 * The caller's stack, where it puts what a system call's arguments point
 * to: a page of its own, always mapped, above any image of the shim.
 */
#define SHIM_ARGS_START		0x7ffffff00000UL
#define SHIM_ARGS_SIZE		4096UL
extern unsigned char shim_args[SHIM_ARGS_SIZE];

static inline unsigned long shim_copy(void *to, const void *from,
				      unsigned long n)
{
	unsigned long addr = (unsigned long)from;

	shim_user_loads++;
	if (addr >= SHIM_ARGS_START && n <= SHIM_ARGS_SIZE &&
	    addr - SHIM_ARGS_START <= SHIM_ARGS_SIZE - n) {
		memcpy(to, shim_args + (addr - SHIM_ARGS_START), n);
		return 0;
	}
	if (!shim_user_ok(addr, n))
		return n;
	memcpy(to, shim_user_mem + (addr - shim_user_start), n);
	return 0;
}

static inline unsigned long copy_from_user(void *to, const void *from,
					   unsigned long n)
{
	shim_user_windows++;
	return shim_copy(to, from, n);
}

/* As the kernel's: the bytes past what it knows must be 0. */
static inline int copy_struct_from_user(void *dst, size_t ksize,
					const void __user *src, size_t usize)
{
	size_t size = usize < ksize ? usize : ksize;

	for (size_t i = ksize; i < usize; i++) {
		unsigned char c;

		if (shim_copy(&c, (const char *)src + i, 1))
			return -SHIM_EFAULT;
		if (c)
			return -E2BIG;
	}
	memset((char *)dst + size, 0, ksize - size);
	if (copy_from_user(dst, src, size))
		return -SHIM_EFAULT;
	return 0;
}

/* Like the kernel's: only the range's plausibility is checked here. */
static inline bool user_read_access_begin(const void *ptr, unsigned long n)
{
	shim_user_windows++;
	return (unsigned long)ptr + n >= (unsigned long)ptr;
}

static inline void user_read_access_end(void) { }

#define unsafe_get_user(x, ptr, label)					\
do {									\
	__typeof__(*(ptr)) __v;						\
	if (shim_copy(&__v, (ptr), sizeof(__v)))			\
		goto label;						\
	(x) = __v;							\
} while (0)

/* A maple tree, as a sorted array of ranges. */
#define MT_FLAGS_USE_RCU	1
#define SHIM_MT_MAX		64

struct maple_tree {
	int n;
	struct {
		unsigned long first, last;
		void *entry;
	} e[SHIM_MT_MAX];
};

void mt_init_flags(struct maple_tree *mt, unsigned int flags);
#define mt_init(mt)		mt_init_flags(mt, 0)
int mtree_store_range(struct maple_tree *mt, unsigned long first,
		      unsigned long last, void *entry, gfp_t gfp);
int mtree_insert_range(struct maple_tree *mt, unsigned long first,
		       unsigned long last, void *entry, gfp_t gfp);
void *mtree_load(struct maple_tree *mt, unsigned long index);
void *mtree_erase(struct maple_tree *mt, unsigned long index);
void *mt_find(struct maple_tree *mt, unsigned long *index, unsigned long max);
void mtree_destroy(struct maple_tree *mt);

/* A walk to one index: its entry's range, or the gap's around it. */
struct ma_state {
	struct maple_tree *tree;
	unsigned long index, last;
};
#define MA_STATE(name, mt, first, end)					\
	struct ma_state name = { (mt), (first), (end) }
void *mas_walk(struct ma_state *mas);

#define mt_for_each(tree, entry, index, max)				\
	for (entry = mt_find(tree, &(index), max); entry;		\
	     entry = mt_find(tree, &(index), max))

struct rcu_head {
	void *next, *func;
};

/* Processes, address spaces and mappings. */
struct mm_struct {
	struct maple_tree sframe_mt;
	struct maple_tree sframe_addr_mt;
	unsigned int sframe_count;
	bool sframe_reap;
};

struct task_struct {
	struct mm_struct *mm;
	char comm[16];
};

extern struct task_struct *shim_current;
#define current			shim_current
#define task_pid_nr(t)		1

struct file;
struct vm_area_struct;
struct vm_operations_struct {
	const char *(*name)(struct vm_area_struct *vma);
};

struct vm_area_struct {
	unsigned long vm_start, vm_end;
	vm_flags_t vm_flags;
	struct file *vm_file;
	struct mm_struct *vm_mm;
	const struct vm_operations_struct *vm_ops;
};

#define VM_READ			0x1UL
#define VM_EXEC			0x4UL
#define VM_WIPEONFORK		0x02000000UL

/* The mappings, sorted by address and not overlapping. */
extern struct vm_area_struct *shim_vmas;
extern int shim_nvmas;

struct shim_vmi {
	int i;
	unsigned long addr;
};

struct vm_area_struct *shim_vma_next(struct shim_vmi *vmi, unsigned long end);
#define VMA_ITERATOR(name, mm, start)	struct shim_vmi name = { 0, (start) }
#define for_each_vma_range(vmi, vma, end)				\
	while (((vma) = shim_vma_next(&(vmi), (end))))
struct vm_area_struct *vma_lookup(struct mm_struct *mm, unsigned long addr);
#define file_inode(f)			((void *)(f))

#define mmget_not_zero(mm)		1
#define mmput(mm)			do { } while (0)
#define in_compat_syscall()		false

#define mmap_write_lock_killable(mm)	0
#define mmap_read_lock_killable(mm)	0
#define mmap_write_unlock(mm)		do { } while (0)
#define mmap_read_lock(mm)		do { } while (0)
#define mmap_read_unlock(mm)		do { } while (0)
#define mmap_assert_locked(mm)		do { } while (0)
#define mmap_assert_write_locked(mm)	do { } while (0)
/* As without CONFIG_PER_VMA_LOCK: no VMA is locked on its own. */
#define lock_vma_under_rcu(mm, addr)	((struct vm_area_struct *)NULL)
#define vma_end_read(vma)		do { } while (0)
#define rcu_read_lock()			do { } while (0)
#define rcu_read_unlock()		do { } while (0)

/* Memory: every cache is malloc, and a cache is the size of its objects.  */
struct kmem_cache;
#define SLAB_ACCOUNT			0
#define SLAB_NO_MERGE			0
#define SLAB_PANIC			0
#define KMEM_CACHE(s, flags)		((struct kmem_cache *)sizeof(struct s))
#define kmem_cache_zalloc(c, gfp)	calloc(1, (size_t)(c))
#define kmem_cache_alloc(c, gfp)	malloc((size_t)(c))
#define kmem_cache_free(c, p)		free(p)
#define kfree_rcu(p, field)		free(p)
#define core_initcall(f)

/* /proc output, unused by the fuzz target. */
struct seq_file {
	void *private;
};
struct seq_operations {
	void *(*start)(struct seq_file *m, loff_t *pos);
	void (*stop)(struct seq_file *m, void *v);
	void *(*next)(struct seq_file *m, void *v, loff_t *pos);
	int (*show)(struct seq_file *m, void *v);
};
static inline void seq_printf(struct seq_file *m, const char *fmt, ...) {}
static inline void seq_puts(struct seq_file *m, const char *s) {}
static inline void seq_putc(struct seq_file *m, char c) {}
static inline void seq_file_path(struct seq_file *m, struct file *f,
				 const char *esc) {}

#define static_assert(e, ...)		_Static_assert(e, #e)

#endif /* KSHIM_H */

/* analyze.c -- what sframe-check finds in one ELF object.  */

#define _GNU_SOURCE
#include "analyze.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksframe.h"
#include "ksframe-source.h"	/* Generated from the series' sframe.c.  */

#define PAGE_SIZE 4096UL
#define PAGE_DOWN(a) ((a) & ~(PAGE_SIZE - 1))
#define PAGE_UP(a) PAGE_DOWN ((a) + PAGE_SIZE - 1)

/* Where a shared object is laid out in the shim's user memory: any
   page-aligned address does, as the kernel's checks are relative.  */
#define DYN_BIAS 0x7f0000000000UL

/* The largest image laid out: bigger ones are not checked.  */
#define IMAGE_MAX (1UL << 30)

#define SFRAME_MAGIC 0xdee2
#define SFRAME_HEADER_SIZE 28

char *
sframe_xstrdup (const char *s)
{
  char *c;

  if (s == NULL)
    return NULL;
  c = strdup (s);
  if (c == NULL)
    abort ();
  return c;
}

void *
sframe_grow (void *v, size_t n, size_t size)
{
  /* The room is N rounded up to a power of two: full when N is one.  */
  if ((n & (n - 1)) == 0)
    {
      v = realloc (v, (n ? 2 * n : 1) * size);
      if (v == NULL)
	abort ();
    }
  return v;
}

void
sframe_push_name (char ***v, unsigned long *n, const char *name)
{
  *v = sframe_grow (*v, *n, sizeof **v);
  (*v)[(*n)++] = sframe_xstrdup (name);
}

int
sframe_name_cmp (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

void
sframe_report_add (struct sframe_report *r, char severity, const char *tag,
		   const char *fmt, ...)
{
  struct finding *f;
  va_list ap;

  r->findings = sframe_grow (r->findings, r->nfindings, sizeof *f);
  f = &r->findings[r->nfindings++];
  f->severity = severity;
  f->tag = tag;
  f->detail = NULL;
  if (fmt != NULL)
    {
      va_start (ap, fmt);
      if (vasprintf (&f->detail, fmt, ap) < 0)
	abort ();
      va_end (ap);
    }
}

void
sframe_report_free (struct sframe_report *r)
{
  for (unsigned long i = 0; i < r->nfindings; i++)
    free (r->findings[i].detail);
  free (r->findings);
  r->findings = NULL;
  r->nfindings = 0;
}

uint64_t
sframe_text_bytes (const struct sframe_report *r)
{
  return r->text_bytes > r->padding_bytes ? r->text_bytes - r->padding_bytes
	 : 0;
}

uint64_t
sframe_covered_bytes (const struct sframe_report *r)
{
  return r->covered_bytes > 0 ? r->covered_bytes : 0;
}

double
sframe_coverage (const struct sframe_report *r)
{
  if (r->covered_bytes < 0 || r->text_bytes <= r->padding_bytes)
    return -1;
  return 100.0 * r->covered_bytes / (r->text_bytes - r->padding_bytes);
}

const char *
sframe_errno_name (int err)
{
  switch (-err)
    {
    case 0: return "0";
    case EINVAL: return "EINVAL";
    case EBADMSG: return "EBADMSG";
    case EFAULT: return "EFAULT";
    case EEXIST: return "EEXIST";
    case ENOSPC: return "ENOSPC";
    case ENOMEM: return "ENOMEM";
    case EINTR: return "EINTR";
    case ENOENT: return "ENOENT";
    default: return "an undocumented error";
    }
}

const char *
sframe_kernel_source_id (void)
{
  return KSFRAME_SOURCE_ID;
}

/* Copy the source line N (from 1) of sframe.c, without the leading and
   trailing blanks, after whatever BUF holds.  */
static void
append_line (int n, char *buf, size_t len)
{
  const char *s = ksframe_source[n - 1];
  size_t used = strlen (buf), l;

  while (*s == ' ' || *s == '\t')
    s++;
  l = strlen (s);
  while (l > 0 && (s[l - 1] == ' ' || s[l - 1] == '\t'))
    l--;
  if (used > 0 && used + 1 < len)
    buf[used++] = ' ';
  if (used + l >= len)
    l = len - used - 1;
  memcpy (buf + used, s, l);
  buf[used + l] = 0;
}

static bool
starts_with (const char *s, const char *prefix)
{
  while (*s == ' ' || *s == '\t')
    s++;
  return strncmp (s, prefix, strlen (prefix)) == 0;
}

static bool
ends_with (const char *s, char c)
{
  size_t l = strlen (s);

  while (l > 0 && (s[l - 1] == ' ' || s[l - 1] == '\t'))
    l--;
  return l > 0 && s[l - 1] == c;
}

/* The kernel's code says what it refuses in the condition of the `if'
   before the `return', or in the `switch' whose `default' it is, or, at
   a label, that a user access faulted: quote that.  */
const char *
sframe_kernel_check (int line, char *buf, size_t len)
{
  int first;

  buf[0] = 0;
  if (line < 2 || line > KSFRAME_SOURCE_LINES)
    return buf;
  if (!starts_with (ksframe_source[line - 1], "return")
      && !starts_with (ksframe_source[line - 1], "goto"))
    {
      append_line (line, buf, len);
      return buf;
    }
  if (ends_with (ksframe_source[line - 2], ':'))
    {
      if (!starts_with (ksframe_source[line - 2], "default"))
	{
	  snprintf (buf, len, "a user access faulted");
	  return buf;
	}
      for (first = line - 2; first > 0 && line - first < 40; first--)
	if (starts_with (ksframe_source[first - 1], "switch ("))
	  {
	    char *brace;

	    append_line (first, buf, len);
	    brace = strrchr (buf, '{');
	    if (brace != NULL)
	      *brace = 0;
	    for (size_t l = strlen (buf); l > 0 && buf[l - 1] == ' '; l--)
	      buf[l - 1] = 0;
	    strncat (buf, ": no case for the value", len - strlen (buf) - 1);
	    return buf;
	  }
      return buf;
    }
  for (first = line - 1; first > 0 && line - first < 6; first--)
    if (starts_with (ksframe_source[first - 1], "if (")
	|| starts_with (ksframe_source[first - 1], "} else if ("))
      {
	char *open, *end;

	for (int i = first; i < line; i++)
	  append_line (i, buf, len);
	/* From inside the `if (' to its closing parenthesis.  */
	open = strstr (buf, "if (") + 4;
	memmove (buf, open, strlen (open) + 1);
	end = buf + strlen (buf);
	while (end > buf && end[-1] != ')')
	  end--;
	if (end > buf)
	  end[-1] = 0;
	return buf;
      }
  append_line (line, buf, len);
  return buf;
}

/* A function symbol, with the address ranges the FDEs cover.  */
struct func
{
  uint64_t addr, size;
  const char *name;
  bool global;
};

struct funcs
{
  const struct elfobj *o;
  struct func *v;
  unsigned long n;
  const char *table;		/* Where they come from.  */
};

static bool
exec_section (const struct elfobj *o, unsigned int i)
{
  return i < o->shnum && (o->sh[i].sh_flags & SHF_EXECINSTR)
	 && (o->sh[i].sh_flags & SHF_ALLOC) && o->sh[i].sh_type != SHT_NOBITS;
}

static void
collect_func (const Elf64_Sym *sym, const char *name, void *arg)
{
  struct funcs *fs = arg;
  struct func *f;
  int type = ELF64_ST_TYPE (sym->st_info);

  if ((type != STT_FUNC && type != STT_GNU_IFUNC)
      || !exec_section (fs->o, sym->st_shndx) || name[0] == 0)
    return;
  fs->v = sframe_grow (fs->v, fs->n, sizeof *f);
  f = &fs->v[fs->n++];
  f->addr = sym->st_value;
  f->size = sym->st_size;
  f->name = name;
  f->global = ELF64_ST_BIND (sym->st_info) != STB_LOCAL;
}

static int
func_cmp (const void *a, const void *b)
{
  const struct func *x = a, *y = b;

  if (x->addr != y->addr)
    return x->addr < y->addr ? -1 : 1;
  /* Of aliases, the global name first, then the longest body.  */
  if (x->global != y->global)
    return x->global ? -1 : 1;
  if (x->size != y->size)
    return x->size > y->size ? -1 : 1;
  return strcmp (x->name, y->name);
}

/* An address range [start, end).  */
struct span
{
  uint64_t start, end;
};

static int
span_cmp (const void *a, const void *b)
{
  const struct span *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->end < y->end ? -1 : x->end > y->end;
}

/* How many bytes of [START, END) the sorted, disjoint spans cover.  */
static uint64_t
covered (const struct span *s, unsigned long n, uint64_t start, uint64_t end)
{
  unsigned long lo = 0, hi = n;
  uint64_t total = 0;

  /* The first span that ends after START.  */
  while (lo < hi)
    {
      unsigned long mid = lo + (hi - lo) / 2;

      if (s[mid].end <= start)
	lo = mid + 1;
      else
	hi = mid;
    }
  for (; lo < n && s[lo].start < end; lo++)
    {
      uint64_t a = s[lo].start > start ? s[lo].start : start;
      uint64_t b = s[lo].end < end ? s[lo].end : end;

      if (b > a)
	total += b - a;
    }
  return total;
}

/* The object laid out as the kernel and ld.so map it.  */
struct image
{
  uint64_t bias;
  uint64_t start;		/* User address of MEM.  */
  unsigned char *mem;
  size_t len;
  struct ksframe_vma vmas[KSFRAME_MAX_VMAS];
  int nvmas;
};

/* Lay out O's PT_LOAD segments as binfmt_elf and ld.so map them: the
   file's pages that hold each one's file part, then anonymous pages to
   its end, the part of the last file page past p_filesz zeroed when
   there are such pages (bss).  A later segment maps over the pages of
   an earlier one that it shares.  Only the file parts have memory
   behind them in the shim: the kernel refuses a section or text in
   anonymous memory before it reads anything.  Returns a reason if O
   cannot be laid out, and sets *CORRUPT if O could not be loaded at
   all.  */
static const char *
layout (const struct elfobj *o, struct image *im, bool *corrupt)
{
  uint64_t lo = UINT64_MAX, hi = 0;
  static const char file_tag = 0;

  memset (im, 0, sizeof *im);
  *corrupt = true;
  for (unsigned int i = 0; i < o->phnum; i++)
    {
      const Elf64_Phdr *p = &o->ph[i];

      if (p->p_type != PT_LOAD || p->p_memsz == 0)
	continue;
      if (p->p_filesz > p->p_memsz)
	return "a segment larger in the file than in memory";
      if (p->p_memsz > UINT64_MAX - PAGE_SIZE
	  || p->p_vaddr > UINT64_MAX - PAGE_SIZE - p->p_memsz)
	return "a segment wraps around the address space";
      if (p->p_offset > o->size || p->p_filesz > o->size - p->p_offset)
	return "a segment beyond the end of the file";
      /* Both loaders refuse such an object.  */
      if ((p->p_vaddr - p->p_offset) % PAGE_SIZE != 0)
	return "a segment whose address and file offset are not congruent";
      if (PAGE_DOWN (p->p_vaddr) < lo)
	lo = PAGE_DOWN (p->p_vaddr);
      if (PAGE_UP (p->p_vaddr + p->p_filesz) > hi)
	hi = PAGE_UP (p->p_vaddr + p->p_filesz);
    }
  *corrupt = false;
  if (hi == 0)
    return "no loadable segment with file contents";
  if (hi - lo > IMAGE_MAX)
    return "an image larger than 1 GiB";

  im->bias = o->eh.e_type == ET_DYN ? DYN_BIAS : 0;
  if (lo + im->bias < lo || hi + im->bias < hi)
    return "a segment beyond the user address space";
  im->start = im->bias + lo;
  im->len = hi - lo;

  for (unsigned int i = 0; i < o->phnum; i++)
    {
      const Elf64_Phdr *p = &o->ph[i];
      uint64_t start = im->bias + PAGE_DOWN (p->p_vaddr);
      uint64_t file_end = im->bias + PAGE_UP (p->p_vaddr + p->p_filesz);
      uint64_t end = im->bias + PAGE_UP (p->p_vaddr + p->p_memsz);
      struct ksframe_vma *prev;

      if (p->p_type != PT_LOAD || p->p_memsz == 0)
	continue;
      if (im->nvmas > 0)
	{
	  prev = &im->vmas[im->nvmas - 1];
	  if (start < prev->start)
	    return "PT_LOAD segments out of order";
	  if (start < prev->end)
	    {
	      prev->end = start;
	      if (prev->end == prev->start)
		im->nvmas--;
	    }
	}
      if (im->nvmas + 2 > KSFRAME_MAX_VMAS)
	return "too many segments";
      if (p->p_filesz > 0)
	im->vmas[im->nvmas++] = (struct ksframe_vma) {
	  start, file_end, p->p_flags & PF_R, p->p_flags & PF_X, &file_tag };
      if (end > file_end)
	im->vmas[im->nvmas++] = (struct ksframe_vma) {
	  p->p_filesz > 0 ? file_end : start, end,
	  p->p_flags & PF_R, p->p_flags & PF_X, NULL };
    }

  im->mem = calloc (1, im->len);
  if (im->mem == NULL)
    return "out of memory";
  for (unsigned int i = 0; i < o->phnum; i++)
    {
      const Elf64_Phdr *p = &o->ph[i];
      uint64_t off = PAGE_DOWN (p->p_offset), len;
      unsigned char *to;

      if (p->p_type != PT_LOAD || p->p_memsz == 0 || p->p_filesz == 0)
	continue;
      /* Checked above: in the file, congruent, inside [lo, hi).  */
      len = PAGE_UP (p->p_offset + p->p_filesz) - off;
      to = im->mem + (im->bias + PAGE_DOWN (p->p_vaddr) - im->start);
      if (len > o->size - off)
	len = o->size - off;
      memcpy (to, o->data + off, len);
      if (p->p_memsz > p->p_filesz)
	{
	  uint64_t z = p->p_offset + p->p_filesz - off;

	  if (z < len)
	    memset (to + z, 0, len - z);
	}
    }
  return NULL;
}

/* Every start of an SFrame preamble after the first section's end, at
   the 8-byte alignment gas gives the section: a linker that does not
   merge .sframe input sections puts them one after the other.  */
static unsigned long
count_concatenated (const unsigned char *sec, uint64_t size)
{
  uint64_t end, off;
  unsigned long n = 0;

  if (size < SFRAME_HEADER_SIZE)
    return 0;
  /* Where the first section's header says it ends.  */
  {
    uint32_t fre_len, fres_off;

    memcpy (&fre_len, sec + 16, 4);
    memcpy (&fres_off, sec + 24, 4);
    end = SFRAME_HEADER_SIZE + sec[7] + (uint64_t) fres_off + fre_len;
  }
  for (off = (end + 7) & ~7UL; off + SFRAME_HEADER_SIZE <= size; off += 8)
    {
      uint16_t magic;

      memcpy (&magic, sec + off, 2);
      if (magic == SFRAME_MAGIC && sec[off + 2] >= 1 && sec[off + 2] <= 3)
	n++;
    }
  return n;
}

/* The FDEs of the section at [START, END) in the shim's memory, as the
   kernel decodes them, as link-time spans; -1 if it cannot read them.
   The header's count is not trusted for the allocation: a section may
   claim more FDEs than are mapped.  */
static long
read_fdes (struct sframe_report *r, uint64_t start, uint64_t end,
	   uint64_t bias, struct span **spans)
{
  struct ksframe_header hdr;
  struct span *s = NULL;
  size_t cap = 0;
  uint64_t prev = 0;
  bool unsorted = false;

  *spans = NULL;
  if (ksframe_read_header (start, end, &hdr) != 0)
    return -1;
  for (unsigned int i = 0; i < hdr.num_fdes; i++)
    {
      struct ksframe_fde fde;

      if (ksframe_read_fde (start, end, i, &fde) != 0)
	{
	  free (s);
	  return -1;
	}
      if (i == cap)
	{
	  cap = cap ? 2 * cap : 64;
	  s = realloc (s, cap * sizeof *s);
	  if (s == NULL)
	    abort ();
	}
      s[i].start = fde.func_start - bias;
      s[i].end = s[i].start + fde.func_size;
      /* Unless the kernel said so already: outside the ranges.  */
      if (i > 0 && s[i].start < prev && !unsorted && r->acceptable)
	{
	  sframe_report_add (r, 'E', "sframe-fdes-unsorted",
			     "fde %u (0x%llx) starts before fde %u (0x%llx)",
			     i, (unsigned long long) s[i].start, i - 1,
			     (unsigned long long) prev);
	  unsorted = true;
	}
      prev = s[i].start;
    }
  *spans = s;
  return hdr.num_fdes;
}

/* Does any executable segment's file part hold [START, END)?  */
static bool
in_text_segment (const struct elfobj *o, uint64_t start, uint64_t end)
{
  for (unsigned int i = 0; i < o->phnum; i++)
    {
      const Elf64_Phdr *p = &o->ph[i];

      if (p->p_type == PT_LOAD && (p->p_flags & PF_X)
	  && start >= p->p_vaddr && end <= p->p_vaddr + p->p_filesz)
	return true;
    }
  return false;
}

/* The size of a pointer in DWARF encoding ENC, or 0 if not supported.  */
static unsigned int
enc_size (unsigned char enc)
{
  switch (enc & 0x0f)
    {
    case 0x03: case 0x0b: return 4;	/* udata4, sdata4 */
    case 0x00: case 0x04: case 0x0c: return 8;	/* absptr, udata8, sdata8 */
    default: return 0;
    }
}

static int64_t
enc_read (const unsigned char *p, unsigned char enc)
{
  if (enc_size (enc) == 4)
    {
      uint32_t u;

      memcpy (&u, p, 4);
      return (enc & 0x0f) == 0x0b ? (int64_t) (int32_t) u : (int64_t) u;
    }
  else
    {
      int64_t v;

      memcpy (&v, p, 8);
      return v;
    }
}

/* The range of the .eh_frame FDE at link-time address FDE, from its CIE's
   pointer encoding; false if it cannot be read.  */
static bool
fde_range (const struct elfobj *o, uint64_t fde, struct span *range)
{
  const unsigned char *f = elfobj_at_vaddr (o, fde, 8), *c;
  uint32_t len, cie_off, clen;
  uint64_t cie, p, end;
  unsigned char enc = 0, version;
  unsigned int size;
  const char *aug;
  size_t auglen;

  if (f == NULL)
    return false;
  memcpy (&len, f, 4);
  memcpy (&cie_off, f + 4, 4);
  if (len < 4 || len == 0xffffffff || cie_off == 0
      || (f = elfobj_at_vaddr (o, fde, 4 + (uint64_t) len)) == NULL)
    return false;
  cie = fde + 4 - cie_off;
  c = elfobj_at_vaddr (o, cie, 8);
  if (c == NULL)
    return false;
  memcpy (&clen, c, 4);
  if (clen < 5 || clen == 0xffffffff
      || (c = elfobj_at_vaddr (o, cie, 4 + (uint64_t) clen)) == NULL)
    return false;

  /* Offsets into the CIE's 4 + CLEN bytes, checked before each read.  */
  end = 4 + (uint64_t) clen;
  version = c[8];
  aug = (const char *) c + 9;
  auglen = strnlen (aug, end - 9);
  if (auglen == end - 9)
    return false;
  p = 9 + auglen + 1;
  for (int field = 0; field < 3; field++)
    {
      /* Code and data alignment (LEB128), the return address column.  */
      if (field == 2 && version == 1)
	{
	  p++;
	  continue;
	}
      while (p < end && (c[p] & 0x80))
	p++;
      p++;
    }
  if (p > end)
    return false;
  if (aug[0] == 'z')
    {
      while (p < end && (c[p] & 0x80))
	p++;
      p++;
      for (const char *a = aug + 1; *a; a++)
	{
	  if (p >= end)
	    return false;
	  if (*a == 'R')
	    enc = c[p++];
	  else if (*a == 'L')
	    p++;
	  else if (*a == 'P')
	    {
	      unsigned int psize = enc_size (c[p]);

	      if (psize == 0)
		return false;
	      p += 1 + psize;
	    }
	  else if (*a != 'S' && *a != 'B')
	    return false;
	}
    }
  size = enc_size (enc);
  if (size == 0 || (enc & 0x70) > 0x10 || 8 + 2 * size > 4 + (uint64_t) len)
    return false;
  range->start = enc_read (f + 8, enc) + ((enc & 0x70) == 0x10 ? fde + 8 : 0);
  range->end = range->start + enc_read (f + 8 + size, enc & 0x0f);
  return true;
}

/* The ranges that DWARF CFI describes, from .eh_frame_hdr's search table
   (which every linker writes sorted, in the encoding checked here) and
   the FDEs it points to, sorted by start; NULL and 0 if there is none.
   A function without an SFrame FDE but with CFI had its CFI skipped by
   gas, or was assembled without --gsframe; one with neither is assembly
   without CFI, or C built without unwind tables.  */
static struct span *
cfi_ranges (const struct elfobj *o, unsigned long *n)
{
  const Elf64_Phdr *ph = elfobj_find_segment (o, PT_GNU_EH_FRAME);
  const unsigned char *hdr;
  uint64_t vaddr, size;
  uint32_t count;
  struct span *v;
  unsigned long k = 0;

  *n = 0;
  if (ph == NULL)
    return NULL;
  vaddr = ph->p_vaddr;
  size = ph->p_filesz;
  hdr = elfobj_at_vaddr (o, vaddr, size);
  if (hdr == NULL || size < 12)
    return NULL;
  /* version 1; eh_frame_ptr pcrel|sdata4; fde_count udata4; table
     datarel|sdata4 (relative to the table's section).  */
  if (hdr[0] != 1 || hdr[1] != 0x1b || hdr[2] != 0x03 || hdr[3] != 0x3b)
    return NULL;
  memcpy (&count, hdr + 8, 4);
  if (count > (size - 12) / 8)
    return NULL;
  v = malloc (((size_t) count + 1) * sizeof *v);
  if (v == NULL)
    abort ();
  for (uint32_t i = 0; i < count; i++)
    {
      int32_t loc, fde;

      memcpy (&loc, hdr + 12 + 8 * (uint64_t) i, 4);
      memcpy (&fde, hdr + 16 + 8 * (uint64_t) i, 4);
      if (!fde_range (o, vaddr + (int64_t) fde, &v[k]))
	{
	  /* At least where it starts.  */
	  v[k].start = vaddr + (int64_t) loc;
	  v[k].end = v[k].start + 1;
	}
      k++;
    }
  qsort (v, k, sizeof *v, span_cmp);
  *n = k;
  return v;
}

/* Merge the sorted spans S[0..N) in place; return how many are left.  */
static unsigned long
merge_spans (struct span *s, unsigned long n)
{
  unsigned long nm = 0;

  for (unsigned long i = 0; i < n; i++)
    {
      if (s[i].end <= s[i].start)
	continue;
      if (nm > 0 && s[i].start <= s[nm - 1].end)
	{
	  if (s[i].end > s[nm - 1].end)
	    s[nm - 1].end = s[i].end;
	}
      else
	s[nm++] = s[i];
    }
  return nm;
}

/* The bytes of the executable sections that are alignment padding: a
   gap of less than 64 bytes before code that an FDE (in the NM merged
   spans M) or a function symbol (in FS) describes, which ends where
   aligning the gap's start to that code's alignment ends.  Without
   this, no object could be 100% covered.  */
static uint64_t
padding (const struct elfobj *o, const struct span *m, unsigned long nm,
	 const struct funcs *fs)
{
  struct span *known;
  unsigned long n = 0;
  uint64_t total = 0;

  known = malloc ((nm + fs->n + 1) * sizeof *known);
  if (known == NULL)
    abort ();
  for (unsigned long i = 0; i < nm; i++)
    known[n++] = m[i];
  for (unsigned long i = 0; i < fs->n; i++)
    known[n++] = (struct span) { fs->v[i].addr,
				 fs->v[i].addr + (fs->v[i].size ?: 1) };
  qsort (known, n, sizeof *known, span_cmp);
  n = merge_spans (known, n);

  for (unsigned int i = 1; i < o->shnum; i++)
    {
      uint64_t start = o->sh[i].sh_addr, end = start + o->sh[i].sh_size;
      uint64_t prev = start;

      if (!exec_section (o, i))
	continue;
      for (unsigned long k = 0; k < n; k++)
	{
	  uint64_t b = known[k].start, align;

	  if (known[k].end <= start || b >= end)
	    continue;
	  if (b > prev && b - prev < 64)
	    {
	      align = b & -b;
	      if (align > 64 || align == 0)
		align = 64;
	      if (((prev + align - 1) & ~(align - 1)) == b)
		total += b - prev;
	    }
	  if (known[k].end > prev)
	    prev = known[k].end;
	}
    }
  free (known);
  return total;
}

/* The function symbols of O, sorted, in FS.  */
static void
collect_functions (const struct elfobj *o, struct funcs *fs)
{
  int symtab = elfobj_find_section (o, NULL, SHT_SYMTAB);

  if (symtab < 0)
    symtab = elfobj_find_section (o, NULL, SHT_DYNSYM);
  if (symtab >= 0)
    elfobj_symbols (o, symtab, collect_func, fs);
  fs->table = symtab < 0 ? NULL : o->sh[symtab].sh_type == SHT_SYMTAB
	      ? ".symtab" : ".dynsym";
  if (fs->n > 0)
    qsort (fs->v, fs->n, sizeof *fs->v, func_cmp);
}

/* How many functions FS holds, aliases counted once.  */
static unsigned long
count_functions (const struct funcs *fs)
{
  unsigned long n = 0;

  for (unsigned long i = 0; i < fs->n; i++)
    if (i == 0 || fs->v[i].addr != fs->v[i - 1].addr)
      n++;
  return n;
}

/* Does a text range that the kernel accepted hold [START, END)?  */
static bool
in_accepted_range (const struct sframe_report *r, uint64_t start,
		   uint64_t end)
{
  if (!r->offered)
    return false;
  for (int i = 0; i < r->nranges; i++)
    if (r->ranges[i].error == 0 && start >= r->ranges[i].text_start
	&& end <= r->ranges[i].text_end)
      return true;
  return false;
}

/* The sorted union of the NFDES spans FDES, those in text ranges the
   kernel accepted only when ACCEPTED; its length in *N.  */
static struct span *
union_of (const struct sframe_report *r, const struct span *fdes, long nfdes,
	  bool accepted, unsigned long *n)
{
  struct span *m = malloc ((nfdes + 1) * sizeof *m);
  long k = 0;

  if (m == NULL)
    abort ();
  for (long i = 0; i < nfdes; i++)
    if (!accepted || in_accepted_range (r, fdes[i].start, fdes[i].end))
      m[k++] = fdes[i];
  qsort (m, k, sizeof *m, span_cmp);
  *n = merge_spans (m, k);
  return m;
}

/* Coverage of the executable sections and of the function symbols by
   the FDES that the kernel uses (those of the text ranges it accepted),
   and the kernel's lookup at each function's entry.  The functions of a
   refused range count as without FDE, but get no tag each: the refusal
   is the finding.  */
static void
check_coverage (const struct elfobj *o, const struct funcs *fs,
		struct sframe_report *r, const struct span *fdes, long nfdes,
		uint64_t bias)
{
  struct span *all, *m, *cfi;
  unsigned long nall, nm, ncfi;

  for (long i = 0; i < nfdes; i++)
    if (!in_text_segment (o, fdes[i].start, fdes[i].end))
      {
	r->fdes_outside_text++;
	sframe_report_add (r, 'W', "sframe-fde-outside-text",
			   "fde %ld (0x%llx-0x%llx)", i,
			   (unsigned long long) fdes[i].start,
			   (unsigned long long) fdes[i].end);
      }

  all = union_of (r, fdes, nfdes, false, &nall);
  m = union_of (r, fdes, nfdes, true, &nm);
  r->symbols = fs->table;

  /* Padding is found from every FDE: it is not code of a refused range.  */
  r->covered_bytes = 0;
  r->padding_bytes = padding (o, all, nall, fs);
  cfi = cfi_ranges (o, &ncfi);
  ncfi = merge_spans (cfi, ncfi);
  for (unsigned int i = 1; i < o->shnum; i++)
    if (exec_section (o, i))
      r->covered_bytes += covered (m, nm, o->sh[i].sh_addr,
				   o->sh[i].sh_addr + o->sh[i].sh_size);

  for (unsigned long i = 0; i < fs->n; i++)
    {
      const struct func *f = &fs->v[i];
      uint64_t size = f->size ? f->size : 1, got;
      struct ksframe_where where;
      int err;

      /* An alias of the function before.  */
      if (i > 0 && f->addr == fs->v[i - 1].addr)
	continue;
      r->functions++;
      got = covered (m, nm, f->addr, f->addr + size);
      if (covered (m, nm, f->addr, f->addr + 1) == 0)
	{
	  r->functions_without_fde++;
	  if (covered (all, nall, f->addr, f->addr + 1) != 0)
	    ;
	  else if (cfi != NULL
		   && covered (cfi, ncfi, f->addr, f->addr + 1) == 0)
	    {
	      r->functions_without_cfi++;
	      sframe_report_add (r, 'W', "sframe-function-without-cfi", "%s",
				 f->name);
	    }
	  else
	    sframe_report_add (r, 'W', "sframe-function-without-fde", "%s",
			       f->name);
	}
      else if (got < size)
	{
	  r->functions_partly_covered++;
	  sframe_report_add (r, 'W', "sframe-function-partly-covered",
			     "%s (%llu of %llu bytes)", f->name,
			     (unsigned long long) got,
			     (unsigned long long) size);
	}
      else if ((err = ksframe_find_where (bias + f->addr, &where)) != 0)
	{
	  r->functions_without_rule++;
	  /* Well formed, but the kernel does not follow it (too many
	     FREs, an FDE type or a FLEX register it does not know): the
	     section stays registered and this function's frames go to
	     frame pointers.  */
	  if (err == -EOPNOTSUPP && where.function != NULL)
	    {
	      char check[512];

	      sframe_kernel_check (where.line, check, sizeof check);
	      sframe_report_add (r, 'W', "sframe-function-not-unwound",
				 "%s EOPNOTSUPP: %s: %s (sframe.c:%d)",
				 f->name, where.function, check, where.line);
	    }
	  else
	    /* Covered, registered, and yet no rules at the entry.  */
	    sframe_report_add (r, 'W', "sframe-function-without-rule", "%s",
			       f->name);
	}
    }
  free (cfi);
  free (all);
  free (m);
}

/* Offer the section at [SF_START, SF_END) (link-time) to the kernel for
   each executable segment, as binfmt_elf and ld.so do.  */
static void
kernel_verdict (const struct elfobj *o, struct sframe_report *r,
		const struct image *im, uint64_t sf_start, uint64_t sf_end)
{
  r->accepted = true;
  for (unsigned int i = 0; i < o->phnum; i++)
    {
      const Elf64_Phdr *p = &o->ph[i];
      struct range_verdict *v;
      struct ksframe_where where;

      if (p->p_type != PT_LOAD || !(p->p_flags & PF_X) || p->p_filesz == 0)
	continue;
      v = &r->ranges[r->nranges++];
      v->text_start = p->p_vaddr;
      v->text_end = p->p_vaddr + p->p_filesz;
      v->error = ksframe_add (im->bias + sf_start, im->bias + sf_end,
			      im->bias + v->text_start,
			      im->bias + v->text_end, &where);
      v->function = where.function;
      v->line = where.line;
      v->fde = where.fde;
      /* What the check of the whole section refuses past the header, a
	 registration reading the header takes.  */
      v->registration = v->error;
      if (v->error == -EBADMSG)
	{
	  struct ksframe_header hdr;

	  if (ksframe_read_header (im->bias + sf_start, im->bias + sf_end,
				   &hdr) == 0)
	    v->registration = 0;
	}
      if (v->error == 0)
	{
	  r->registered = true;
	  continue;
	}
      r->accepted = false;
      {
	char check[512], fde[32] = "";
	const char *tag = v->registration
			  ? "sframe-rejected-by-kernel"
			  : "sframe-dropped-by-kernel";

	if (v->function == NULL)
	  {
	    /* Refused by the registry, not by a check of the section.  */
	    sframe_report_add (r, 'E', tag,
			       "%s text 0x%llx-0x%llx: %s",
			       sframe_errno_name (v->error),
			       (unsigned long long) v->text_start,
			       (unsigned long long) v->text_end,
			       v->error == -EEXIST
			       ? "the text range overlaps another one of the "
				 "object's"
			       : "the registry refused it");
	    continue;
	  }
	sframe_kernel_check (v->line, check, sizeof check);
	if (v->fde >= 0)
	  snprintf (fde, sizeof fde, "fde %ld ", v->fde);
	sframe_report_add (r, 'E', tag,
			   "%s text 0x%llx-0x%llx: %s%s: %s (sframe.c:%d)",
			   sframe_errno_name (v->error),
			   (unsigned long long) v->text_start,
			   (unsigned long long) v->text_end, fde,
			   v->function, check, v->line);
      }
    }
  if (r->nranges == 0)
    r->accepted = false;
}

static void read_linkage (const struct elfobj *o, const struct funcs *fs,
			  struct sframe_linkage *l);

void
sframe_analyze (const void *data, size_t size, struct sframe_report *r)
{
  sframe_analyze_linkage (data, size, r, NULL);
}

void
sframe_analyze_linkage (const void *data, size_t size,
			struct sframe_report *r, struct sframe_linkage *l)
{
  struct elfobj o;
  struct funcs fs = { &o, NULL, 0, NULL };
  const Elf64_Phdr *seg;
  uint64_t sf_addr, sf_size;
  int sec;
  struct image im;
  struct span *fdes = NULL;
  const char *why;
  bool has_text = false, corrupt;

  memset (r, 0, sizeof *r);
  if (l != NULL)
    memset (l, 0, sizeof *l);
  r->num_fdes = -1;
  r->covered_bytes = -1;
  r->status = elfobj_open (&o, data, size, &r->why);
  if (r->status == ELFOBJ_UNSUPPORTED)
    sframe_report_add (r, 'I', "sframe-not-checked", "%s", r->why);
  if (r->status != ELFOBJ_OK)
    return;
  if (o.eh.e_type != ET_EXEC && o.eh.e_type != ET_DYN)
    {
      sframe_report_add (r, 'I', "sframe-not-checked",
			 "not an executable or shared object");
      goto out;
    }
  /* Only of what ld.so loads (elfobj_open took the machine's).  */
  collect_functions (&o, &fs);
  if (l != NULL)
    read_linkage (&o, &fs, l);
  for (unsigned int i = 1; i < o.shnum; i++)
    if (exec_section (&o, i))
      r->text_bytes += o.sh[i].sh_size;
  for (unsigned int i = 0; i < o.phnum; i++)
    if (o.ph[i].p_type == PT_LOAD && (o.ph[i].p_flags & PF_X)
	&& o.ph[i].p_filesz > 0)
      has_text = true;
  if (!has_text)
    {
      /* Separate debug files, data-only objects: nothing runs there.  */
      sframe_report_add (r, 'I', "sframe-not-checked", "no executable code");
      goto out;
    }
  r->checked = true;

  sec = elfobj_find_section (&o, ".sframe", SHT_GNU_SFRAME);
  seg = elfobj_find_segment (&o, PT_GNU_SFRAME);
  r->section = sec >= 0;
  r->segment = seg != NULL;
  if (!r->section && !r->segment)
    {
      /* No rules anywhere: counted, but not one tag per function.  */
      sframe_report_add (r, 'W', "sframe-missing", NULL);
      r->covered_bytes = 0;
      r->functions = r->functions_without_fde = count_functions (&fs);
      r->symbols = fs.table;
      goto out;
    }
  if (r->section && !(o.sh[sec].sh_flags & SHF_ALLOC))
    {
      sframe_report_add (r, 'E', "sframe-not-allocated", NULL);
      goto out;
    }
  /* GNU ld sizes PT_GNU_SFRAME before it merges the input sections, so
     the segment often ends in padding past the section: harmless, as
     the kernel reads only what the header describes.  */
  if (r->section && r->segment
      && (seg->p_vaddr != o.sh[sec].sh_addr
	  || seg->p_filesz != o.sh[sec].sh_size))
    {
      bool padded = seg->p_vaddr == o.sh[sec].sh_addr
		    && seg->p_filesz > o.sh[sec].sh_size;

      sframe_report_add (r, padded ? 'I' : 'E',
			 padded ? "sframe-segment-larger-than-section"
				: "sframe-segment-mismatch",
			 "PT_GNU_SFRAME 0x%llx+0x%llx, .sframe 0x%llx+0x%llx",
			 (unsigned long long) seg->p_vaddr,
			 (unsigned long long) seg->p_filesz,
			 (unsigned long long) o.sh[sec].sh_addr,
			 (unsigned long long) o.sh[sec].sh_size);
    }
  if (!r->segment)
    sframe_report_add (r, 'E', "sframe-without-segment",
		       "no PT_GNU_SFRAME: neither the kernel nor ld.so "
		       "registers .sframe");
  if (r->segment)
    {
      sf_addr = seg->p_vaddr;
      sf_size = seg->p_filesz;
    }
  else
    {
      sf_addr = o.sh[sec].sh_addr;
      sf_size = o.sh[sec].sh_type == SHT_NOBITS ? 0 : o.sh[sec].sh_size;
    }
  if (sf_size == 0)
    {
      sframe_report_add (r, 'E', "sframe-empty", NULL);
      goto out;
    }

  {
    int ntext = 0;

    for (unsigned int i = 0; i < o.phnum; i++)
      if (o.ph[i].p_type == PT_LOAD && (o.ph[i].p_flags & PF_X)
	  && o.ph[i].p_filesz != 0)
	ntext++;
    if (ntext > SFRAME_MAX_RANGES)
      {
	r->checked = false;
	sframe_report_add (r, 'W', "sframe-check-skipped",
			   "more than %d executable segments",
			   SFRAME_MAX_RANGES);
	goto out;
      }
  }
  why = layout (&o, &im, &corrupt);
  if (why == NULL && ksframe_begin (im.start, im.mem, im.len, im.vmas,
				    im.nvmas) != 0)
    why = "too many mappings";
  if (why != NULL)
    {
      free (im.mem);
      r->checked = false;
      if (corrupt)
	{
	  r->status = ELFOBJ_CORRUPT;
	  r->why = why;
	}
      else
	/* A limit of this tool, not a verdict: not counted.  */
	sframe_report_add (r, 'W', "sframe-check-skipped", "%s", why);
      goto out;
    }

  /* The preamble, as the kernel sees it in memory, read here only to
     name what the kernel refuses.  */
  if (im.bias + sf_addr >= im.start
      && im.bias + sf_addr - im.start <= im.len
      && sf_size <= im.len - (im.bias + sf_addr - im.start)
      && sf_size >= 4)
    {
      const unsigned char *raw = im.mem + (im.bias + sf_addr - im.start);
      uint16_t magic;

      memcpy (&magic, raw, 2);
      if (magic != SFRAME_MAGIC)
	sframe_report_add (r, 'E', "sframe-bad-magic", "0x%04x", magic);
      else
	{
	  r->version = raw[2];
	  r->flags = raw[3];
	  if (sf_size > 4)
	    r->abi = raw[4];
	  if (r->version == 1)
	    sframe_report_add (r, 'E', "sframe-version-obsolete",
			       "SFrame V1 (binutils 2.40 and older); rebuild "
			       "with binutils 2.41 or later");
	  else if (r->version != 2 && r->version != 3)
	    sframe_report_add (r, 'E', "sframe-version-unknown", "%d",
			       r->version);
	  else if (sf_size >= SFRAME_HEADER_SIZE)
	    {
	      unsigned long n = count_concatenated (raw, sf_size);
	      uint32_t num_fdes;

	      memcpy (&num_fdes, raw + 8, 4);
	      if (num_fdes == 0)
		sframe_report_add (r, 'E', "sframe-empty", "no FDE");
	      if (n > 0)
		sframe_report_add (r, 'E', "sframe-concatenated-sections",
				   "%lu SFrame sections one after the other: "
				   "the linker did not merge .sframe (lld and "
				   "mold do not); link with GNU ld 2.41 or "
				   "later", n + 1);
	    }
	}
    }

  kernel_verdict (&o, r, &im, sf_addr, sf_addr + sf_size);
  /* Without PT_GNU_SFRAME nobody offers the section: the verdict above
     says what a registration would get, but nothing is registered.  */
  r->offered = r->segment;
  r->acceptable = r->accepted;
  if (!r->offered)
    r->accepted = r->registered = false;
  r->num_fdes = read_fdes (r, im.bias + sf_addr, im.bias + sf_addr + sf_size,
			   im.bias, &fdes);
  if (r->num_fdes >= 0)
    check_coverage (&o, &fs, r, fdes, r->num_fdes, im.bias);
  else
    {
      /* The kernel cannot even read the FDEs: nothing is covered.  */
      r->covered_bytes = 0;
      r->functions = r->functions_without_fde = count_functions (&fs);
      r->symbols = fs.table;
    }
  ksframe_end ();
  free (fdes);
  free (im.mem);

 out:
  free (fs.v);
  elfobj_close (&o);
}

/* An object laid out and registered as binfmt_elf and ld.so would, for
   tools that then look addresses up with ksframe_find().  */
struct sframe_loaded
{
  struct elfobj o;
  struct image im;
  uint64_t sf_start, sf_end;	/* User addresses of the section.  */
};

struct sframe_loaded *
sframe_load (const void *data, size_t size, const char **why)
{
  struct sframe_loaded *l = calloc (1, sizeof *l);
  const Elf64_Phdr *seg;
  bool corrupt;
  int ranges = 0;

  if (l == NULL)
    abort ();
  if (elfobj_open (&l->o, data, size, why) != ELFOBJ_OK)
    {
      free (l);
      return NULL;
    }
  seg = elfobj_find_segment (&l->o, PT_GNU_SFRAME);
  *why = seg == NULL ? "no PT_GNU_SFRAME" : layout (&l->o, &l->im, &corrupt);
  if (*why == NULL && ksframe_begin (l->im.start, l->im.mem, l->im.len,
				     l->im.vmas, l->im.nvmas) != 0)
    *why = "too many mappings";
  if (*why != NULL)
    {
      free (l->im.mem);
      elfobj_close (&l->o);
      free (l);
      return NULL;
    }
  l->sf_start = l->im.bias + seg->p_vaddr;
  l->sf_end = l->sf_start + seg->p_filesz;
  for (unsigned int i = 0; i < l->o.phnum; i++)
    {
      const Elf64_Phdr *p = &l->o.ph[i];
      struct ksframe_where where;

      if (p->p_type != PT_LOAD || !(p->p_flags & PF_X) || p->p_filesz == 0)
	continue;
      if (ksframe_add (l->sf_start, l->sf_end, l->im.bias + p->p_vaddr,
		       l->im.bias + p->p_vaddr + p->p_filesz, &where) != 0)
	{
	  *why = "the kernel refuses its .sframe";
	  sframe_unload (l);
	  return NULL;
	}
      ranges++;
    }
  if (ranges == 0)
    {
      *why = "no executable segment";
      sframe_unload (l);
      return NULL;
    }
  return l;
}

uint64_t
sframe_loaded_bias (const struct sframe_loaded *l)
{
  return l->im.bias;
}

long
sframe_loaded_fdes (const struct sframe_loaded *l, uint64_t **starts,
		    uint32_t **sizes)
{
  struct ksframe_header hdr;

  *starts = NULL;
  *sizes = NULL;
  if (ksframe_read_header (l->sf_start, l->sf_end, &hdr) != 0)
    return -1;
  *starts = malloc (((size_t) hdr.num_fdes + 1) * sizeof **starts);
  *sizes = malloc (((size_t) hdr.num_fdes + 1) * sizeof **sizes);
  if (*starts == NULL || *sizes == NULL)
    abort ();
  for (unsigned int i = 0; i < hdr.num_fdes; i++)
    {
      struct ksframe_fde fde;

      if (ksframe_read_fde (l->sf_start, l->sf_end, i, &fde) != 0)
	return -1;
      (*starts)[i] = fde.func_start;
      (*sizes)[i] = fde.func_size;
    }
  return hdr.num_fdes;
}

void
sframe_unload (struct sframe_loaded *l)
{
  ksframe_end ();
  free (l->im.mem);
  elfobj_close (&l->o);
  free (l);
}

/* --deps: how ld.so links an object.  */

/* A symbol of .dynsym: an undefined function is what the object
   imports, a defined one of global or weak binding what it offers to
   the others (ld.so binds to neither local nor hidden symbols).  An
   undefined symbol without a type (__gmon_start__, _ITM_*) is a weak
   reference to data or to nothing, not a call.  */
static void
collect_linkage_sym (const Elf64_Sym *sym, const char *name, void *arg)
{
  struct sframe_linkage *l = arg;
  int type = ELF64_ST_TYPE (sym->st_info);
  int bind = ELF64_ST_BIND (sym->st_info);
  int vis = ELF64_ST_VISIBILITY (sym->st_other);

  if (name[0] == 0 || (type != STT_FUNC && type != STT_GNU_IFUNC))
    return;
  if (sym->st_shndx == SHN_UNDEF)
    sframe_push_name (&l->imports, &l->nimports, name);
  else if ((bind == STB_GLOBAL || bind == STB_WEAK || bind == STB_GNU_UNIQUE)
	   && (vis == STV_DEFAULT || vis == STV_PROTECTED))
    sframe_push_name (&l->exports, &l->nexports, name);
}

/* The functions of GCC's crtbeginS.o and glibc's crti.o and Scrt1.o,
   which every object linked with the default startup files has, built
   without frame pointers whatever the object is built with: counted,
   they would outweigh a small library's own functions.  */
static const char *const startup_functions[] = {
  "deregister_tm_clones", "register_tm_clones", "__do_global_dtors_aux",
  "frame_dummy", "_init", "_fini", "_start",
};

static bool
startup_function (const char *name)
{
  for (size_t i = 0; i < sizeof startup_functions / sizeof *startup_functions;
       i++)
    if (strcmp (name, startup_functions[i]) == 0)
      return true;
  return false;
}

/* Does the code at P, LEN bytes, set up a frame pointer first: an
   optional endbr64, then push %rbp and mov %rsp,%rbp (as GCC and Clang
   write it, 48 89 e5, or the other encoding, 48 8b ec)?  */
static bool
sets_frame_pointer (const unsigned char *p, uint64_t len)
{
  static const unsigned char endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };

  if (len >= 4 && memcmp (p, endbr64, 4) == 0)
    {
      p += 4;
      len -= 4;
    }
  return len >= 4 && p[0] == 0x55 && p[1] == 0x48
	 && ((p[2] == 0x89 && p[3] == 0xe5) || (p[2] == 0x8b && p[3] == 0xec));
}

/* Read O's linkage, whose functions are FS, into *L.  */
static void
read_linkage (const struct elfobj *o, const struct funcs *fs,
	      struct sframe_linkage *l)
{
  struct elfobj_dynamic d;
  int dynsym;

  l->dynamic = elfobj_dynamic (o, &d);
  l->interp = sframe_xstrdup (d.interp);
  l->soname = sframe_xstrdup (d.soname);
  l->rpath = sframe_xstrdup (d.rpath);
  l->runpath = sframe_xstrdup (d.runpath);
  l->nodeflib = (d.flags_1 & DF_1_NODEFLIB) != 0;
  l->pie = (d.flags_1 & DF_1_PIE) != 0;
  l->et_exec = o->eh.e_type == ET_EXEC;
  l->needed = malloc ((d.nneeded + 1) * sizeof *l->needed);
  if (l->needed == NULL)
    abort ();
  for (unsigned int i = 0; i < d.nneeded; i++)
    l->needed[l->nneeded++] = sframe_xstrdup (d.needed[i]);
  elfobj_dynamic_free (&d);

  dynsym = elfobj_find_section (o, NULL, SHT_DYNSYM);
  if (dynsym >= 0)
    elfobj_symbols (o, dynsym, collect_linkage_sym, l);
  if (l->nexports > 0)
    {
      unsigned long k = 1;

      qsort (l->exports, l->nexports, sizeof *l->exports, sframe_name_cmp);
      /* foo@VER_1 and foo@@VER_2 are one name here.  */
      for (unsigned long i = 1; i < l->nexports; i++)
	if (strcmp (l->exports[i], l->exports[k - 1]) != 0)
	  l->exports[k++] = l->exports[i];
	else
	  free (l->exports[i]);
      l->nexports = k;
    }

  for (unsigned long i = 0; i < fs->n; i++)
    {
      const struct func *f = &fs->v[i];
      uint64_t len = f->size < 8 ? f->size : 8;
      const unsigned char *code;

      /* Aliases once; sizeless symbols are labels, not functions.  */
      if ((i > 0 && f->addr == fs->v[i - 1].addr) || f->size == 0
	  || startup_function (f->name))
	continue;
      code = elfobj_at_vaddr (o, f->addr, len);
      if (code == NULL)
	continue;
      l->functions++;
      if (sets_frame_pointer (code, len))
	l->fp_functions++;
    }
}

void
sframe_linkage_free (struct sframe_linkage *l)
{
  free (l->interp);
  free (l->soname);
  free (l->rpath);
  free (l->runpath);
  for (unsigned int i = 0; i < l->nneeded; i++)
    free (l->needed[i]);
  free (l->needed);
  for (unsigned long i = 0; i < l->nimports; i++)
    free (l->imports[i]);
  free (l->imports);
  for (unsigned long i = 0; i < l->nexports; i++)
    free (l->exports[i]);
  free (l->exports);
  memset (l, 0, sizeof *l);
}

bool
sframe_frame_pointers (const struct sframe_linkage *l)
{
  return l->functions > 0 && 2 * l->fp_functions >= l->functions;
}

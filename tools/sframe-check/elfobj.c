/* elfobj.c -- a bounds-checked reader of ELF objects in memory.  */

#include "elfobj.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Is [OFF, OFF + LEN) inside the file?  */
static bool
in_file (const struct elfobj *o, uint64_t off, uint64_t len)
{
  return off <= o->size && len <= o->size - off;
}

enum elfobj_status
elfobj_open (struct elfobj *o, const void *data, size_t size,
	     const char **why)
{
  memset (o, 0, sizeof *o);
  o->data = data;
  o->size = size;

  if (size < SELFMAG || memcmp (data, ELFMAG, SELFMAG) != 0)
    {
      *why = "not an ELF object";
      return ELFOBJ_NOT_ELF;
    }
  if (size < EI_NIDENT)
    {
      *why = "truncated ELF header";
      return ELFOBJ_CORRUPT;
    }
  if (o->data[EI_CLASS] != ELFCLASS64)
    {
      *why = "not a 64-bit object";
      return ELFOBJ_UNSUPPORTED;
    }
  if (o->data[EI_DATA] != ELFDATA2LSB)
    {
      *why = "not a little-endian object";
      return ELFOBJ_UNSUPPORTED;
    }
  if (size < sizeof o->eh)
    {
      *why = "truncated ELF header";
      return ELFOBJ_CORRUPT;
    }
  memcpy (&o->eh, data, sizeof o->eh);
  if (o->eh.e_machine != EM_X86_64)
    {
      *why = "not an x86-64 object";
      return ELFOBJ_UNSUPPORTED;
    }

  if (o->eh.e_phnum != 0)
    {
      if (o->eh.e_phentsize != sizeof (Elf64_Phdr)
	  || !in_file (o, o->eh.e_phoff,
		       (uint64_t) o->eh.e_phnum * sizeof (Elf64_Phdr)))
	{
	  *why = "program headers beyond the end of the file";
	  return ELFOBJ_CORRUPT;
	}
      o->phnum = o->eh.e_phnum;
      o->ph = malloc (o->phnum * sizeof (Elf64_Phdr));
      if (o->ph == NULL)
	{
	  *why = "out of memory";
	  return ELFOBJ_CORRUPT;
	}
      memcpy (o->ph, o->data + o->eh.e_phoff,
	      o->phnum * sizeof (Elf64_Phdr));
      for (unsigned int i = 0; i < o->phnum; i++)
	if ((o->ph[i].p_type == PT_LOAD || o->ph[i].p_type == PT_GNU_SFRAME)
	    && (!in_file (o, o->ph[i].p_offset, o->ph[i].p_filesz)
		|| o->ph[i].p_filesz > o->ph[i].p_memsz))
	  {
	    *why = "a segment beyond the end of the file";
	    elfobj_close (o);
	    return ELFOBJ_CORRUPT;
	  }
    }

  /* Extended section numbering (e_shnum 0) is for relocatable objects
     with 65280 sections or more; such objects are not checked.  */
  if (o->eh.e_shnum != 0 && o->eh.e_shoff != 0)
    {
      if (o->eh.e_shentsize != sizeof (Elf64_Shdr)
	  || !in_file (o, o->eh.e_shoff,
		       (uint64_t) o->eh.e_shnum * sizeof (Elf64_Shdr)))
	{
	  *why = "section headers beyond the end of the file";
	  elfobj_close (o);
	  return ELFOBJ_CORRUPT;
	}
      o->shnum = o->eh.e_shnum;
      o->sh = malloc (o->shnum * sizeof (Elf64_Shdr));
      if (o->sh == NULL)
	{
	  *why = "out of memory";
	  elfobj_close (o);
	  return ELFOBJ_CORRUPT;
	}
      memcpy (o->sh, o->data + o->eh.e_shoff,
	      o->shnum * sizeof (Elf64_Shdr));
      for (unsigned int i = 0; i < o->shnum; i++)
	if (o->sh[i].sh_type != SHT_NOBITS && o->sh[i].sh_type != SHT_NULL
	    && !in_file (o, o->sh[i].sh_offset, o->sh[i].sh_size))
	  {
	    *why = "a section beyond the end of the file";
	    elfobj_close (o);
	    return ELFOBJ_CORRUPT;
	  }
      if (o->eh.e_shstrndx < o->shnum
	  && o->sh[o->eh.e_shstrndx].sh_type == SHT_STRTAB)
	{
	  o->shstr = (const char *) o->data + o->sh[o->eh.e_shstrndx].sh_offset;
	  o->shstr_size = o->sh[o->eh.e_shstrndx].sh_size;
	}
    }
  return ELFOBJ_OK;
}

void
elfobj_close (struct elfobj *o)
{
  free (o->ph);
  free (o->sh);
  o->ph = NULL;
  o->sh = NULL;
  o->phnum = o->shnum = 0;
}

/* The NUL-terminated string at OFF in a table of SIZE bytes at TAB.  */
static const char *
table_string (const char *tab, size_t size, uint64_t off)
{
  if (tab == NULL || off >= size || memchr (tab + off, 0, size - off) == NULL)
    return "";
  return tab + off;
}

const char *
elfobj_section_name (const struct elfobj *o, unsigned int i)
{
  if (i >= o->shnum)
    return "";
  return table_string (o->shstr, o->shstr_size, o->sh[i].sh_name);
}

int
elfobj_find_section (const struct elfobj *o, const char *name,
		     unsigned int type)
{
  for (unsigned int i = 1; i < o->shnum; i++)
    if ((name != NULL && strcmp (elfobj_section_name (o, i), name) == 0)
	|| (type != 0 && o->sh[i].sh_type == type))
      return i;
  return -1;
}

const Elf64_Phdr *
elfobj_find_segment (const struct elfobj *o, unsigned int type)
{
  for (unsigned int i = 0; i < o->phnum; i++)
    if (o->ph[i].p_type == type)
      return &o->ph[i];
  return NULL;
}

void
elfobj_symbols (const struct elfobj *o, unsigned int i,
		void (*fn) (const Elf64_Sym *, const char *, void *),
		void *arg)
{
  const Elf64_Shdr *s, *str;
  const char *strtab = NULL;
  size_t strsize = 0;

  if (i >= o->shnum)
    return;
  s = &o->sh[i];
  if (s->sh_entsize != sizeof (Elf64_Sym))
    return;
  if (s->sh_link < o->shnum && o->sh[s->sh_link].sh_type == SHT_STRTAB)
    {
      str = &o->sh[s->sh_link];
      strtab = (const char *) o->data + str->sh_offset;
      strsize = str->sh_size;
    }
  for (uint64_t n = 0; n < s->sh_size / sizeof (Elf64_Sym); n++)
    {
      Elf64_Sym sym;

      memcpy (&sym, o->data + s->sh_offset + n * sizeof sym, sizeof sym);
      fn (&sym, table_string (strtab, strsize, sym.st_name), arg);
    }
}

const unsigned char *
elfobj_at_vaddr (const struct elfobj *o, uint64_t vaddr, uint64_t len)
{
  for (unsigned int i = 0; i < o->phnum; i++)
    {
      const Elf64_Phdr *p = &o->ph[i];

      if (p->p_type == PT_LOAD && vaddr >= p->p_vaddr
	  && vaddr - p->p_vaddr <= p->p_filesz
	  && len <= p->p_filesz - (vaddr - p->p_vaddr)
	  && in_file (o, p->p_offset, p->p_filesz))
	return o->data + p->p_offset + (vaddr - p->p_vaddr);
    }
  return NULL;
}

bool
elfobj_dynamic (const struct elfobj *o, struct elfobj_dynamic *d)
{
  const Elf64_Phdr *dyn = elfobj_find_segment (o, PT_DYNAMIC);
  const Elf64_Phdr *interp = elfobj_find_segment (o, PT_INTERP);
  const char *str = NULL;
  uint64_t strtab = 0, strsz = 0, n, count = 0;

  memset (d, 0, sizeof *d);
  if (interp != NULL && interp->p_filesz > 0
      && in_file (o, interp->p_offset, interp->p_filesz)
      && memchr (o->data + interp->p_offset, 0, interp->p_filesz) != NULL)
    d->interp = (const char *) o->data + interp->p_offset;
  if (dyn == NULL || !in_file (o, dyn->p_offset, dyn->p_filesz))
    return false;

  /* ld.so reads the entries up to DT_NULL; the strings are where
     DT_STRTAB says they are mapped, DT_STRSZ long.  */
  n = dyn->p_filesz / sizeof (Elf64_Dyn);
  for (uint64_t i = 0; i < n; i++)
    {
      Elf64_Dyn e;

      memcpy (&e, o->data + dyn->p_offset + i * sizeof e, sizeof e);
      if (e.d_tag == DT_NULL)
	{
	  n = i;
	  break;
	}
      if (e.d_tag == DT_STRTAB)
	strtab = e.d_un.d_ptr;
      else if (e.d_tag == DT_STRSZ)
	strsz = e.d_un.d_val;
      else if (e.d_tag == DT_FLAGS_1)
	d->flags_1 = e.d_un.d_val;
      else if (e.d_tag == DT_NEEDED)
	count++;
    }
  if (strsz > 0)
    str = (const char *) elfobj_at_vaddr (o, strtab, strsz);
  d->needed = malloc ((count + 1) * sizeof *d->needed);
  if (d->needed == NULL)
    abort ();
  for (uint64_t i = 0; i < n && str != NULL; i++)
    {
      Elf64_Dyn e;
      const char *s;

      memcpy (&e, o->data + dyn->p_offset + i * sizeof e, sizeof e);
      if (e.d_tag != DT_NEEDED && e.d_tag != DT_SONAME
	  && e.d_tag != DT_RPATH && e.d_tag != DT_RUNPATH)
	continue;
      s = table_string (str, strsz, e.d_un.d_val);
      /* An entry whose string is outside the table names nothing ld.so
	 could open.  */
      if (e.d_un.d_val >= strsz || *s == 0)
	continue;
      if (e.d_tag == DT_NEEDED)
	d->needed[d->nneeded++] = s;
      else if (e.d_tag == DT_SONAME)
	d->soname = s;
      else if (e.d_tag == DT_RPATH)
	d->rpath = s;
      else
	d->runpath = s;
    }
  /* elf/get-dynamic-info.h: "If both RUNPATH and RPATH are given, the
     latter is ignored."  */
  if (d->runpath != NULL)
    d->rpath = NULL;
  return true;
}

void
elfobj_dynamic_free (struct elfobj_dynamic *d)
{
  free (d->needed);
  d->needed = NULL;
  d->nneeded = 0;
}

enum elfobj_map_status
elfobj_map (const char *path, struct elfobj_file *f, int *err)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  void *data;

  memset (f, 0, sizeof *f);
  *err = 0;
  if (fd < 0)
    {
      *err = errno;
      return ELFOBJ_CANNOT_OPEN;
    }
  if (fstat (fd, &st) != 0)
    {
      *err = errno;
      close (fd);
      return ELFOBJ_CANNOT_READ;
    }
  f->dev = st.st_dev;
  f->ino = st.st_ino;
  f->mode = st.st_mode;
  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      return S_ISDIR (st.st_mode) ? ELFOBJ_DIRECTORY : ELFOBJ_NOT_REGULAR;
    }
  if (st.st_size == 0)
    {
      close (fd);
      f->data = "";
      return ELFOBJ_MAPPED;
    }
  data = mmap (NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  *err = errno;
  close (fd);
  if (data == MAP_FAILED)
    return ELFOBJ_CANNOT_READ;
  *err = 0;
  f->data = data;
  f->size = st.st_size;
  return ELFOBJ_MAPPED;
}

void
elfobj_unmap (struct elfobj_file *f)
{
  if (f->size > 0)
    munmap ((void *) f->data, f->size);
  memset (f, 0, sizeof *f);
}

bool
elfobj_is_directory (const char *path)
{
  struct stat st;

  return stat (path, &st) == 0 && S_ISDIR (st.st_mode);
}

/* elfobj.h -- a bounds-checked reader of ELF objects in memory, for
   sframe-check.  It reads untrusted files: every offset, size and index
   is checked against the file before use (fuzz/object_fuzz.c fuzzes it
   with the rest of the checker).  */

#ifndef ELFOBJ_H
#define ELFOBJ_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Debian 12's <elf.h> predates SFrame.  */
#ifndef PT_GNU_SFRAME
# define PT_GNU_SFRAME 0x6474e554
#endif
#ifndef SHT_GNU_SFRAME
# define SHT_GNU_SFRAME 0x6ffffff4
#endif

enum elfobj_status
{
  ELFOBJ_OK,
  ELFOBJ_NOT_ELF,		/* No ELF magic: not an object at all.  */
  ELFOBJ_CORRUPT,		/* ELF, but truncated or inconsistent.  */
  ELFOBJ_UNSUPPORTED,		/* ELF the kernel series does not unwind.  */
};

struct elfobj
{
  const unsigned char *data;
  size_t size;
  Elf64_Ehdr eh;
  Elf64_Phdr *ph;		/* Copies: the file need not be aligned.  */
  unsigned int phnum;
  Elf64_Shdr *sh;
  unsigned int shnum;
  const char *shstr;		/* Section names, or NULL.  */
  size_t shstr_size;
};

/* Read the object of SIZE bytes at DATA.  On failure *WHY says why in
   a few words (a static string).  */
enum elfobj_status elfobj_open (struct elfobj *, const void *data,
				size_t size, const char **why);
void elfobj_close (struct elfobj *);

/* The name of section I, or "" if it has none that can be read.  */
const char *elfobj_section_name (const struct elfobj *, unsigned int i);

/* The first section called NAME (unless NULL) or, when TYPE is not 0,
   of type TYPE; -1 if there is none.  */
int elfobj_find_section (const struct elfobj *, const char *name,
			 unsigned int type);

/* The first program header of type TYPE, or NULL.  */
const Elf64_Phdr *elfobj_find_segment (const struct elfobj *,
				       unsigned int type);

/* Call FN for each symbol of the symbol table in section I (SHT_SYMTAB
   or SHT_DYNSYM) with its name ("" if unreadable).  */
void elfobj_symbols (const struct elfobj *, unsigned int i,
		     void (*fn) (const Elf64_Sym *, const char *, void *),
		     void *arg);

/* The LEN bytes at link-time address VADDR, from the file part of the
   PT_LOAD segment that holds them all, or NULL.  */
const unsigned char *elfobj_at_vaddr (const struct elfobj *, uint64_t vaddr,
				      uint64_t len);

/* What ld.so reads of an object to load its dependencies: the dynamic
   section (PT_DYNAMIC), its strings found at DT_STRTAB's address as
   ld.so finds them, and the program interpreter (PT_INTERP).  The
   strings point into the file, NUL-terminated inside it; NULL when
   absent or unreadable.  */
struct elfobj_dynamic
{
  const char *interp;		/* PT_INTERP.  */
  const char *soname;		/* DT_SONAME.  */
  const char *rpath;		/* DT_RPATH, unless there is a DT_RUNPATH.  */
  const char *runpath;		/* DT_RUNPATH.  */
  const char **needed;		/* DT_NEEDED, in order (malloc'd).  */
  unsigned int nneeded;
  uint64_t flags_1;		/* DT_FLAGS_1.  */
};

/* Read O's dynamic section into *D; false if O has none (a static
   program, which loads nothing).  Free with elfobj_dynamic_free.  */
bool elfobj_dynamic (const struct elfobj *, struct elfobj_dynamic *d);
void elfobj_dynamic_free (struct elfobj_dynamic *d);

/* A file mapped read-only, as sframe-check and its --deps read files.
   (Not struct stat: <sys/stat.h> with _GNU_SOURCE pulls in kernel
   headers that the fuzzer's kernel shim stands in for.)  */
struct elfobj_file
{
  const void *data;		/* "" for an empty file.  */
  size_t size;
  dev_t dev;
  ino_t ino;
  mode_t mode;
};

enum elfobj_map_status
{
  ELFOBJ_MAPPED,
  ELFOBJ_CANNOT_OPEN,		/* With the errno value of open.  */
  ELFOBJ_DIRECTORY,		/* Opened, but a directory.  */
  ELFOBJ_NOT_REGULAR,		/* Opened, but a device, a FIFO...  */
  ELFOBJ_CANNOT_READ,		/* With the errno value of fstat or mmap.  */
};

/* Map the regular file PATH into *F; anything but ELFOBJ_MAPPED sets
   *ERR (0 when the file is not a regular one).  Opened without
   blocking, so that a FIFO does not stop the run.  Unmap with
   elfobj_unmap.  */
enum elfobj_map_status elfobj_map (const char *path, struct elfobj_file *f,
				   int *err);
void elfobj_unmap (struct elfobj_file *f);

/* Is PATH a directory (stat(2), which follows symbolic links)?  */
bool elfobj_is_directory (const char *path);

#endif /* elfobj.h */

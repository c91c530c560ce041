/* sframe-audit.so -- register the .sframe of every object the dynamic
   loader maps, for systems that keep an unpatched glibc.

   Usage: LD_AUDIT=/path/to/sframe-audit.so program...
	  SFRAME_AUDIT_TRACE=1 also lists each object, its ranges and the
	  kernel's answers on standard error.

   la_objopen registers an object's .sframe (rtld/dl-sframe.h) and
   la_objclose removes it.  Limits, compared with the patched glibc:
   - glibc calls la_objopen after it has mapped an object and before its
     constructors run, so those are covered; but objects loaded before
     the audit module itself (none but ld.so and the executable, which
     the kernel registers) would be missed;
   - the audit interface gives no program headers, so they are read from
     the ELF header at the object's load address, which is where the
     first segment of every shared object starts; a program run as
     `ld.so PROGRAM' is found only if it is position-independent;
   - objects of audit namespaces (other audit modules and what they
     load) are not reported to audit modules, so they stay unregistered;
   - LD_AUDIT is ignored for set-user-ID programs unless the module is
     in a system directory and set-user-ID itself;
   - at exit glibc calls la_objclose for every object still loaded, so
     the module removes every registration then (one prctl each), where
     the patched ld.so leaves them to the kernel's teardown.  */

#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

static bool trace;

static long
audit_prctl (long option, unsigned long a, unsigned long b, unsigned long c,
	     unsigned long d)
{
  int saved = errno;
  long ret = syscall (SYS_prctl, option, a, b, c, d);
  if (ret < 0)
    ret = -errno;
  errno = saved;
  return ret;
}

static void __attribute__ ((format (printf, 1, 2)))
audit_trace (const char *format, ...)
{
  va_list ap;

  if (!trace)
    return;
  va_start (ap, format);
  vfprintf (stderr, format, ap);
  va_end (ap);
}

#define SFRAME_PRCTL(option, a, b, c, d) \
  audit_prctl ((option), (a), (b), (c), (d))
#define SFRAME_TRACE(...) audit_trace (__VA_ARGS__)
#include "dl-sframe.h"

/* What la_objclose needs: the cookie of a registered object points to
   one of these.  They are also kept on a list, because glibc calls
   la_objclose for objects it never passed to la_objopen -- ld.so's own
   link map in a dlmopen namespace -- and their cookie then still holds
   the default, the link map's address.  The loader calls both hooks
   with its lock held.  */
struct object
{
  struct object *next;
  ElfW(Addr) sframe;
  char name[];
};

static struct object *objects;

unsigned int
la_version (unsigned int version)
{
  const char *t = getenv ("SFRAME_AUDIT_TRACE");

  trace = t != NULL && *t != '\0' && strcmp (t, "0") != 0;
  return version < LAV_CURRENT ? version : LAV_CURRENT;
}

/* Copy LEN bytes at ADDR in this process to DST, without faulting if
   they are not mapped.  Kernels built without cross-memory attach lack
   process_vm_readv; there, check with mincore that the pages are mapped
   (the object's first segment is always readable).  */
static bool
read_memory (void *dst, ElfW(Addr) addr, size_t len)
{
  struct iovec local = { dst, len };
  struct iovec remote = { (void *) addr, len };
  int saved = errno;
  ssize_t n = process_vm_readv (getpid (), &local, 1, &remote, 1, 0);

  if (n < 0 && errno == ENOSYS)
    {
      size_t page = getpagesize ();
      ElfW(Addr) start = addr & ~(page - 1);
      unsigned char vec[16];

      n = -1;
      if (addr + len - start <= sizeof vec * page
	  && mincore ((void *) start, addr + len - start, vec) == 0)
	{
	  memcpy (dst, (const void *) addr, len);
	  n = len;
	}
    }
  errno = saved;
  return n == (ssize_t) len;
}

#define MAX_PHNUM 64

/* Copy the program headers of MAP to PHDR and return their number, or 0.
   The audit interface does not give them, and dl_iterate_phdr in the
   audit module's namespace does not see the application's objects, so
   read the ELF header at the object's load address, where the first
   segment of a shared object starts, and check that the program headers
   found there describe MAP's dynamic section.  */
static size_t
find_phdrs (struct link_map *map, ElfW(Phdr) *phdr)
{
  ElfW(Ehdr) eh;

  if (!read_memory (&eh, map->l_addr, sizeof eh)
      || memcmp (eh.e_ident, ELFMAG, SELFMAG) != 0
      || eh.e_ident[EI_CLASS] != (__ELF_NATIVE_CLASS == 64
				  ? ELFCLASS64 : ELFCLASS32)
      || eh.e_phentsize != sizeof (ElfW(Phdr))
      || eh.e_phnum == 0 || eh.e_phnum > MAX_PHNUM
      || !read_memory (phdr, map->l_addr + eh.e_phoff,
		       eh.e_phnum * sizeof (ElfW(Phdr))))
    return 0;
  for (size_t i = 0; i < eh.e_phnum; i++)
    if (phdr[i].p_type == PT_DYNAMIC
	&& map->l_addr + phdr[i].p_vaddr == (ElfW(Addr)) map->l_ld)
      return eh.e_phnum;
  return 0;
}

unsigned int
la_objopen (struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
  const char *name = map->l_name[0] != '\0' ? map->l_name : "(main program)";
  ElfW(Phdr) phdr[MAX_PHNUM];
  struct object *obj;
  ElfW(Addr) sframe;
  size_t phnum;
  (void) lmid;

  *cookie = 0;
  /* The kernel registered the executable and its interpreter at exec;
     with `ld.so PROGRAM', AT_BASE is 0 and PROGRAM is ours.  */
  if ((map->l_name[0] == '\0' && lmid == LM_ID_BASE
       && getauxval (AT_BASE) != 0)
      || (getauxval (AT_BASE) != 0 && map->l_addr == getauxval (AT_BASE)))
    {
      audit_trace ("sframe: %s: registered by the kernel\n", name);
      return 0;
    }

  phnum = map->l_ld != NULL ? find_phdrs (map, phdr) : 0;
  if (phnum == 0)
    {
      audit_trace ("sframe: %s: program headers not found\n", name);
      return 0;
    }

  sframe = sframe_register (name, map->l_addr, phdr, phnum);
  if (sframe == 0)
    return 0;
  obj = malloc (sizeof *obj + strlen (name) + 1);
  if (obj == NULL)
    {
      /* Nothing could remove it later: do not leave it registered.  */
      sframe_unregister (name, sframe);
      return 0;
    }
  obj->sframe = sframe;
  strcpy (obj->name, name);
  obj->next = objects;
  objects = obj;
  *cookie = (uintptr_t) obj;
  return 0;
}

unsigned int
la_objclose (uintptr_t *cookie)
{
  struct object *obj = (struct object *) *cookie;

  for (struct object **p = &objects; *p != NULL; p = &(*p)->next)
    if (*p == obj)
      {
	*p = obj->next;
	sframe_unregister (obj->name, obj->sframe);
	free (obj);
	*cookie = 0;
	break;
      }
  return 0;
}

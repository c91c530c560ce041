/* sframe-audit.so -- register the .sframe of every object the dynamic
   loader maps, for systems that keep an unpatched glibc.

   Usage: LD_AUDIT=/path/to/sframe-audit.so program...
	  SFRAME_AUDIT_TRACE=1 also lists each object, its ranges and the
	  kernel's answers on standard error.

   la_objopen registers an object's .sframe (rtld/dl-sframe.h) and
   la_objclose removes it.  Limits, compared with the patched glibc:
   - glibc calls la_objopen after it has mapped an object and before its
     constructors run, so those are covered, and for the objects loaded
     before the audit module itself once it is loaded; the kernel
     registers the program it ran and ld.so, and the vDSO is its own;
   - the program headers come from dlinfo (RTLD_DI_PHDR), so glibc 2.36
     or later is needed;
   - objects of audit namespaces (other audit modules and what they
     load) are not reported to audit modules, so they stay unregistered,
     and the module's own namespace is one of the 16 that dlmopen has;
   - static programs (and what they dlopen) are not audited;
   - LD_AUDIT is ignored for set-user-ID programs unless the module is
     in a system directory and set-user-ID itself, and
     SFRAME_AUDIT_TRACE is then ignored too;
   - at exit glibc calls la_objclose for every object still loaded; the
     module removes nothing then, as the patched ld.so does not: the
     kernel drops the registrations with the process, and removing them
     would cut the stacks of threads still running.  It knows exit has
     begun when an object loaded at start-up is closed, which only
     _dl_fini does, first in the program's namespace; objects of other
     dlmopen namespaces, which _dl_fini closes before, are still
     removed.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
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

/* Not in the <elf.h> of glibc 2.36, which the module supports.  */
#ifndef PT_GNU_SFRAME
# define PT_GNU_SFRAME 0x6474e554
#endif

#define SFRAME_PRCTL(option, a, b, c, d) \
  audit_prctl ((option), (a), (b), (c), (d))
#define SFRAME_TRACE(...) audit_trace (__VA_ARGS__)
#include "dl-sframe.h"

/* What la_objclose needs: the cookie of a registered object points to
   one of these.  They are also kept on a list, because glibc before
   2.41 calls la_objclose for an object it never passed to la_objopen
   -- ld.so's own link map in a dlmopen namespace (glibc bug 31985) --
   whose cookie then still holds the default, the link map's address.

   glibc calls la_objopen, and la_objclose from dlclose, with its
   dl_load_lock held, which also orders the calls into dl-sframe.h.  But
   it calls la_objclose from _dl_fini at exit without that lock (2.36 to
   2.43 at least), while other threads may still be in dlopen or
   dlclose.  So LOCK, the module's own, protects the list.  It is held
   only to link or unlink a node, never across a system call or malloc:
   a fork in another thread leaves it held in the child, where nothing
   (no pthread_atfork of this namespace's libc) would release it.  */
struct object
{
  struct object *next;
  ElfW(Addr) sframe;
  bool initial;			/* Loaded at start-up.  */
  char name[];
};

static struct object *objects;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Objects of the program's namespace loaded at start-up, before the
   first la_activity (LA_ACT_CONSISTENT), are never dlclose'd: only
   _dl_fini closes them, so la_objclose of one means that exit has
   begun, after which la_objclose removes nothing.  The program's own
   constructors run last, and a library's constructor may exit: any of
   them will do.  Their cookie is their node, marked initial, or
   &INITIAL if they were not registered.  STARTED is set before there
   are threads; EXITING is read without LOCK.  */
static struct object initial;
static bool started;
static int exiting;

/* What the kernel registered at exec, found in la_version: the program
   it ran, by its program headers, unless that was ld.so itself (`ld.so
   PROGRAM', where AT_BASE is 0 and ld.so maps PROGRAM as any other
   object, then points AT_PHDR at it); ld.so, by its load address, as
   interpreter or as the program; and the vDSO, which is the kernel's
   own.  */
static ElfW(Addr) exec_phdr, ldso_phdr, vdso_phdr;

/* Where the program headers of the object mapped from its first page
   at BASE are, or 0 for no object.  */
static ElfW(Addr)
phdr_at (ElfW(Addr) base)
{
  return base != 0 ? base + ((const ElfW(Ehdr) *) base)->e_phoff : 0;
}

/* Return why the object with program headers PHDR is left to the
   kernel, or NULL if it is not.  */
static const char *
kernel_object (const ElfW(Phdr) *phdr)
{
  ElfW(Addr) p = (ElfW(Addr)) phdr;

  if (p == exec_phdr || p == ldso_phdr)
    return "registered by the kernel";
  if (p == vdso_phdr)
    return "the vDSO, the kernel's";
  return NULL;
}

unsigned int
la_version (unsigned int version)
{
  /* Not in a set-user-ID process, whose layout it would show.  */
  const char *t = secure_getenv ("SFRAME_AUDIT_TRACE");

  trace = t != NULL && *t != '\0' && strcmp (t, "0") != 0;
  if (getauxval (AT_BASE) != 0)
    exec_phdr = getauxval (AT_PHDR);
  ldso_phdr = phdr_at (_r_debug.r_ldbase);
  vdso_phdr = phdr_at (getauxval (AT_SYSINFO_EHDR));
  return version < LAV_CURRENT ? version : LAV_CURRENT;
}

unsigned int
la_objopen (struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
  const char *name = map->l_name[0] != '\0' ? map->l_name : "(main program)";
  const ElfW(Phdr) *phdr;
  struct object *obj;
  const char *why;
  ElfW(Addr) sframe;
  int phnum;

  *cookie = 0;
  if (lmid == LM_ID_BASE && !started)
    *cookie = (uintptr_t) &initial;
  /* Where the object's first segment starts is not in the public link
     map, so its program headers cannot be found from l_addr.  A link
     map is what glibc's dlopen returns as a handle.  */
  phnum = dlinfo (map, RTLD_DI_PHDR, &phdr);
  if (phnum < 0)
    {
      audit_trace ("sframe: %s: no program headers: %s\n", name, dlerror ());
      return 0;
    }
  if (phnum == 0)
    {
      /* ld.so's stand-in in a dlmopen namespace, since glibc 2.41.  */
      audit_trace ("sframe: %s: no program headers\n", name);
      return 0;
    }
  why = kernel_object (phdr);
  if (why != NULL)
    {
      audit_trace ("sframe: %s: %s\n", name, why);
      return 0;
    }

  sframe = sframe_register (name, map->l_addr, phdr, (size_t) phnum);
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
  obj->initial = *cookie == (uintptr_t) &initial;
  strcpy (obj->name, name);
  pthread_mutex_lock (&lock);
  obj->next = objects;
  objects = obj;
  pthread_mutex_unlock (&lock);
  *cookie = (uintptr_t) obj;
  return 0;
}

void
la_activity (uintptr_t *cookie, unsigned int flag)
{
  (void) cookie;
  /* The first, for the program's namespace once its start-up objects
     are loaded.  */
  if (flag == LA_ACT_CONSISTENT)
    started = true;
}

unsigned int
la_objclose (uintptr_t *cookie)
{
  struct object *obj = (struct object *) *cookie;

  bool found = false;

  /* At exit the kernel drops every registration with the process.  */
  if (obj == &initial)
    __atomic_store_n (&exiting, 1, __ATOMIC_RELAXED);
  if (__atomic_load_n (&exiting, __ATOMIC_RELAXED))
    return 0;
  /* OBJ is only compared until it is found on the list: glibc before
     2.41 may pass a cookie la_objopen never set (see above).  */
  pthread_mutex_lock (&lock);
  for (struct object **p = &objects; *p != NULL; p = &(*p)->next)
    if (*p == obj)
      {
	if (obj->initial)
	  __atomic_store_n (&exiting, 1, __ATOMIC_RELAXED);
	else
	  {
	    *p = obj->next;
	    found = true;
	  }
	break;
      }
  pthread_mutex_unlock (&lock);
  if (found)
    {
      sframe_unregister (obj->name, obj->sframe);
      free (obj);
      *cookie = 0;
    }
  return 0;
}

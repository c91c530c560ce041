/* Register the .sframe sections of loaded objects with the kernel.
   Copyright (C) 2026 Free Software Foundation, Inc.

   This file is free software; you can redistribute it and/or modify it
   under the terms of the GNU Lesser General Public License as published
   by the Free Software Foundation; either version 2.1 of the License, or
   (at your option) any later version.

   This file is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   Lesser General Public License for more details.

   You should have received a copy of the GNU Lesser General Public
   License along with this file; if not, see
   <https://www.gnu.org/licenses/>.  */

/* The loader logic of sframe-rtld, written once.  It is included by the
   LD_AUDIT module (rtld/sframe-audit.c) and, as
   sysdeps/unix/sysv/linux/dl-sframe.h, by the glibc series
   (glibc-patches/), where it has glibc's own header comment and the
   same code from its include guard on (sframe.host/glibc.exp checks).

   The kernel registers the executable and the dynamic loader at exec
   (PR_ADD_SFRAME and its probe are documented in
   doc/PR_ADD_SFRAME.2const of sframe-rtld).  Everything else is
   registered here: each executable PT_LOAD segment of an object with a
   PT_GNU_SFRAME segment is registered with the object's .sframe, load
   bias applied, when the object has been mapped and before its
   constructors run; the section is removed before the object is
   unmapped.

   Four functions below are the only code that knows how the kernel is
   called: sframe_kernel_add, sframe_kernel_remove, sframe_kernel_probe
   and sframe_kernel_refusal.  They make the prctl calls PR_ADD_SFRAME
   and PR_REMOVE_SFRAME with a struct sframe_setup and its size, the
   shape of the sframe_register and sframe_unregister system calls
   proposed upstream; should Linux adopt those, these four functions
   change, and nothing else.

   The includer defines, before including this file:

     SFRAME_PRCTL (OPTION, A, B, C, D)
	make the prctl system call (its arguments unsigned long); 0 on
	success or a negative errno, without touching errno if it can
	help it;
     SFRAME_TRACE (FORMAT, ...)
	report what happened, when the user asked (a printf-style
	function limited to %s, %d and %lx, or nothing).

   and calls these functions one at a time.  ld.so does with
   GL(dl_load_lock) held, or before there are threads; that lock is
   what protects sframe_supported.  The audit module holds a lock of
   its own: glibc calls la_objclose from _dl_fini at exit without
   GL(dl_load_lock), while other threads may be in dlopen.  ld.so makes
   no call at exit.

   Registration is best effort: a refusal is traced and otherwise
   ignored; it never fails the load.  */

#ifndef DL_SFRAME_H
#define DL_SFRAME_H

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdbool.h>
#include <stddef.h>

#include "sframe-prctl.h"

/* Whether the kernel takes registrations: unknown until the first
   object with .sframe is seen, then probed once per process.  No means
   that this process makes no further calls: the kernel lacks the
   interface, or a sandbox refuses it, or the loader was told not to
   register (sframe_disable).  */
enum sframe_support
{
  sframe_support_unknown,
  sframe_support_yes,
  sframe_support_no
};

static enum sframe_support sframe_supported = sframe_support_unknown;

/* Make no calls in this process from now on; REASON says why.  */
static void
sframe_disable (const char *reason)
{
  if (sframe_supported != sframe_support_no)
    SFRAME_TRACE ("sframe: not registering: %s\n", reason);
  sframe_supported = sframe_support_no;
}

/* The kernel interface.  */

/* Register SETUP: 0, or a negative errno for sframe_kernel_refusal.  */
static int
sframe_kernel_add (const struct sframe_setup *setup)
{
  return SFRAME_PRCTL (PR_ADD_SFRAME, (unsigned long) setup, sizeof *setup,
		       0, 0);
}

/* Remove the section registered at SFRAME: 0 or a negative errno.  */
static int
sframe_kernel_remove (ElfW(Addr) sframe)
{
  struct sframe_setup setup = { .sframe_start = sframe };

  return SFRAME_PRCTL (PR_REMOVE_SFRAME, (unsigned long) &setup,
		       sizeof setup, 0, 0);
}

/* Ask whether the kernel takes registrations, changing nothing: removing
   the section at address 0, which is never registered, answers ENOENT
   on a kernel that supports PR_ADD_SFRAME, and EINVAL on any other (the
   option, the structure or its size unknown).  Returns 0 if it does,
   otherwise the negative errno.  */
static int
sframe_kernel_probe (void)
{
  int ret = sframe_kernel_remove (0);
  return ret == -ENOENT ? 0 : ret;
}

/* What a failed call, with the negative errno ERR, means.  */
enum sframe_refusal
{
  /* This object's section or text: the next object may do better.  */
  sframe_refused_object,
  /* The kernel lacks the interface, or does not take this structure or
     its flags: no call of this process can succeed.  */
  sframe_refused_unsupported,
  /* Something else, a sandbox, refuses the call: no call of this
     process can succeed either.  */
  sframe_refused_process
};

static enum sframe_refusal
sframe_kernel_refusal (int err)
{
  switch (-err)
    {
    case EBADMSG:		/* The section's header.  */
    case EFAULT:		/* How the object is mapped.  */
    case EEXIST:		/* Another registration of the same text.  */
    case ENOSPC:		/* The process's limit, until a removal.  */
    case ENOMEM:
    case EINTR:
      return sframe_refused_object;
    case EINVAL:
      return sframe_refused_unsupported;
    default:
      /* EPERM, EACCES, ENOSYS: how a seccomp filter refuses a system
	 call (SECCOMP_RET_ERRNO); the kernel itself never answers so to
	 these options.  Anything else is no answer it documents.  */
      return sframe_refused_process;
    }
}

/* Probe the kernel once per process.  */
static bool
sframe_kernel_supported (void)
{
  if (sframe_supported == sframe_support_unknown)
    {
      int ret = sframe_kernel_probe ();
      sframe_supported = (ret == 0
			  ? sframe_support_yes : sframe_support_no);
      SFRAME_TRACE ("sframe: %s (probe: %d)\n",
		    ret == 0 ? "kernel supports PR_ADD_SFRAME"
		    : (sframe_kernel_refusal (ret)
		       == sframe_refused_unsupported)
		    ? "kernel does not support PR_ADD_SFRAME"
		    : "PR_ADD_SFRAME is refused", ret);
    }
  return sframe_supported == sframe_support_yes;
}

/* The .sframe segment of an object, or NULL.  */
static const ElfW(Phdr) *
sframe_find_segment (const ElfW(Phdr) *phdr, size_t phnum)
{
  for (size_t i = 0; i < phnum; i++)
    if (phdr[i].p_type == PT_GNU_SFRAME)
      return &phdr[i];
  return NULL;
}

/* Does the segment SF lie inside the part of a PT_LOAD segment that is
   mapped from the file?  The kernel accepts a section only there: past
   p_filesz the loader maps anonymous zero pages.  */
static bool
sframe_in_file (const ElfW(Phdr) *sf, const ElfW(Phdr) *phdr, size_t phnum)
{
  for (size_t i = 0; i < phnum; i++)
    if (phdr[i].p_type == PT_LOAD
	&& sf->p_vaddr >= phdr[i].p_vaddr
	&& sf->p_vaddr - phdr[i].p_vaddr <= phdr[i].p_filesz
	&& sf->p_memsz <= phdr[i].p_filesz - (sf->p_vaddr - phdr[i].p_vaddr))
      return true;
  return false;
}

/* Register the .sframe of the object NAME loaded at BIAS, whose program
   headers are PHDR[PHNUM], for each of its executable segments.
   Returns the address of the section as registered (the key to remove
   it with), or 0 if nothing was registered.  */
static ElfW(Addr)
sframe_register (const char *name, ElfW(Addr) bias,
		 const ElfW(Phdr) *phdr, size_t phnum)
{
  const ElfW(Phdr) *sf;
  ElfW(Addr) start;
  bool any = false;

  /* Turned off, or found unsupported: not even a look.  */
  if (sframe_supported == sframe_support_no)
    return 0;
  sf = sframe_find_segment (phdr, phnum);
  if (sf == NULL || sf->p_memsz == 0)
    {
      SFRAME_TRACE ("sframe: %s: no .sframe\n", name);
      return 0;
    }
  start = bias + sf->p_vaddr;
  if (!sframe_in_file (sf, phdr, phnum))
    {
      SFRAME_TRACE ("sframe: %s: .sframe 0x%lx-0x%lx is not in the file"
		    " part of a segment: not registered\n", name,
		    (unsigned long) start,
		    (unsigned long) (start + sf->p_memsz));
      return 0;
    }
  if (!sframe_kernel_supported ())
    return 0;

  for (size_t i = 0; i < phnum; i++)
    if (phdr[i].p_type == PT_LOAD && (phdr[i].p_flags & PF_X)
	&& phdr[i].p_filesz != 0)
      {
	/* Only the part mapped from the file: the kernel wants the text
	   and its section from one file, and a segment's tail past
	   p_filesz is anonymous.  Code is never there.  */
	struct sframe_setup setup =
	  {
	    .sframe_start = start,
	    .sframe_size = sf->p_memsz,
	    .text_start = bias + phdr[i].p_vaddr,
	    .text_size = phdr[i].p_filesz
	  };
	int ret = sframe_kernel_add (&setup);

	SFRAME_TRACE ("sframe: add %s: .sframe 0x%lx-0x%lx text 0x%lx-0x%lx:"
		      " %d\n", name, (unsigned long) start,
		      (unsigned long) (start + setup.sframe_size),
		      (unsigned long) setup.text_start,
		      (unsigned long) (setup.text_start + setup.text_size),
		      ret);
	if (ret == 0)
	  any = true;
	else
	  {
	    enum sframe_refusal why = sframe_kernel_refusal (ret);
	    if (why != sframe_refused_object)
	      {
		/* No further call, not even to remove what an earlier
		   segment of this object added: the kernel drops that
		   when the text is unmapped.  */
		sframe_disable (why == sframe_refused_unsupported
				? "the kernel does not take the call"
				: "the system call is refused");
		return 0;
	      }
	  }
      }
  return any ? start : 0;
}

/* Remove the section registered at SFRAME (a value sframe_register
   returned) of the object NAME, before the object is unmapped.  */
static void
sframe_unregister (const char *name, ElfW(Addr) sframe)
{
  if (sframe == 0 || sframe_supported != sframe_support_yes)
    return;
  int ret = sframe_kernel_remove (sframe);
  SFRAME_TRACE ("sframe: remove %s: .sframe 0x%lx: %d\n", name,
		(unsigned long) sframe, ret);
}

#endif /* dl-sframe.h */

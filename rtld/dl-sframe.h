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
   (glibc-patches/); the two copies are kept identical.

   The kernel registers the executable and the dynamic loader at exec
   (PR_ADD_SFRAME and its probe are documented in
   doc/PR_ADD_SFRAME.2const of sframe-rtld).  Everything else is
   registered here: each executable PT_LOAD segment of an object with a
   PT_GNU_SFRAME segment is registered with the object's .sframe, load
   bias applied, when the object has been mapped and before its
   constructors run; the section is removed before the object is
   unmapped.

   The includer defines, before including this file:

     SFRAME_PRCTL (OPTION, A, B, C, D)
	make the prctl system call; 0 on success or a negative errno,
	without touching errno if it can help it;
     SFRAME_TRACE (FORMAT, ...)
	report what happened, when the user asked (a printf-style
	function limited to %s, %d and %lx, or nothing).

   and calls these functions one at a time.  ld.so does with
   GL(dl_load_lock) held, or before there are threads; that lock is
   what protects sframe_supported.  So does the audit module: glibc
   calls la_objopen and la_objclose with that lock held, except for the
   la_objclose calls of _dl_fini at exit, which come from one thread.

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

/* Is ERR (a negative errno) how a sandbox refuses a system call?  A
   seccomp filter that allow-lists prctl options answers with one of
   these (SECCOMP_RET_ERRNO); the kernel itself never does for these
   options.  */
static bool
sframe_refused_by_sandbox (int err)
{
  return err == -EPERM || err == -EACCES || err == -ENOSYS;
}

/* Probe the kernel once: removing address 0 answers ENOENT on a kernel
   that supports PR_ADD_SFRAME and EINVAL on any other, and changes
   nothing either way.  Anything else (a sandbox) is no support too.  */
static bool
sframe_kernel_supported (void)
{
  if (sframe_supported == sframe_support_unknown)
    {
      int ret = SFRAME_PRCTL (PR_REMOVE_SFRAME, 0, 0, 0, 0);
      sframe_supported = (ret == -ENOENT
			  ? sframe_support_yes : sframe_support_no);
      SFRAME_TRACE ("sframe: %s (probe: %d)\n",
		    ret == -ENOENT ? "kernel supports PR_ADD_SFRAME"
		    : ret == -EINVAL ? "kernel does not support PR_ADD_SFRAME"
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
  const ElfW(Phdr) *sf = sframe_find_segment (phdr, phnum);
  ElfW(Addr) start, end;
  bool any = false;

  if (sf == NULL || sf->p_memsz == 0)
    {
      SFRAME_TRACE ("sframe: %s: no .sframe\n", name);
      return 0;
    }
  start = bias + sf->p_vaddr;
  end = start + sf->p_memsz;
  if (!sframe_in_file (sf, phdr, phnum))
    {
      SFRAME_TRACE ("sframe: %s: .sframe 0x%lx-0x%lx is not in the file"
		    " part of a segment: not registered\n", name,
		    (unsigned long) start, (unsigned long) end);
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
	ElfW(Addr) text = bias + phdr[i].p_vaddr;
	ElfW(Addr) text_end = text + phdr[i].p_filesz;
	int ret = SFRAME_PRCTL (PR_ADD_SFRAME, start, end, text, text_end);

	SFRAME_TRACE ("sframe: add %s: .sframe 0x%lx-0x%lx text 0x%lx-0x%lx:"
		      " %d\n", name, (unsigned long) start,
		      (unsigned long) end, (unsigned long) text,
		      (unsigned long) text_end, ret);
	if (ret == 0)
	  any = true;
	else if (sframe_refused_by_sandbox (ret))
	  {
	    /* No further call, not even to remove what an earlier
	       segment of this object added: the kernel drops that when
	       the text is unmapped.  */
	    sframe_disable ("the system call is refused");
	    return 0;
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
  int ret = SFRAME_PRCTL (PR_REMOVE_SFRAME, sframe, 0, 0, 0);
  SFRAME_TRACE ("sframe: remove %s: .sframe 0x%lx: %d\n", name,
		(unsigned long) sframe, ret);
}

#endif /* dl-sframe.h */

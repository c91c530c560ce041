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
   object with .sframe is seen, then probed once per process.  */
enum sframe_support
{
  sframe_support_unknown,
  sframe_support_yes,
  sframe_support_no
};

static enum sframe_support sframe_support = sframe_support_unknown;

/* Probe the kernel once: removing address 0 answers ENOENT on a kernel
   that supports PR_ADD_SFRAME and EINVAL on any other, and changes
   nothing either way.  */
static bool
sframe_kernel_supported (void)
{
  if (sframe_support == sframe_support_unknown)
    {
      int ret = SFRAME_PRCTL (PR_REMOVE_SFRAME, 0, 0, 0, 0);
      sframe_support = (ret == -ENOENT
			? sframe_support_yes : sframe_support_no);
      SFRAME_TRACE ("sframe: kernel %s PR_ADD_SFRAME (probe: %d)\n",
		    sframe_support == sframe_support_yes
		    ? "supports" : "does not support", ret);
    }
  return sframe_support == sframe_support_yes;
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
  if (!sframe_kernel_supported ())
    return 0;

  start = bias + sf->p_vaddr;
  end = start + sf->p_memsz;
  for (size_t i = 0; i < phnum; i++)
    if (phdr[i].p_type == PT_LOAD && (phdr[i].p_flags & PF_X)
	&& phdr[i].p_memsz != 0)
      {
	ElfW(Addr) text = bias + phdr[i].p_vaddr;
	int ret = SFRAME_PRCTL (PR_ADD_SFRAME, start, end, text,
				text + phdr[i].p_memsz);

	SFRAME_TRACE ("sframe: add %s: .sframe 0x%lx-0x%lx text 0x%lx-0x%lx:"
		      " %d\n", name, (unsigned long) start,
		      (unsigned long) end, (unsigned long) text,
		      (unsigned long) (text + phdr[i].p_memsz), ret);
	if (ret == 0)
	  any = true;
      }
  return any ? start : 0;
}

/* Remove the section registered at SFRAME (a value sframe_register
   returned) of the object NAME, before the object is unmapped.  */
static void
sframe_unregister (const char *name, ElfW(Addr) sframe)
{
  if (sframe == 0 || sframe_support != sframe_support_yes)
    return;
  int ret = SFRAME_PRCTL (PR_REMOVE_SFRAME, sframe, 0, 0, 0);
  SFRAME_TRACE ("sframe: remove %s: .sframe 0x%lx: %d\n", name,
		(unsigned long) sframe, ret);
}

#endif /* dl-sframe.h */

/* ldso-lib.c -- a library whose code ld.so runs on the program's behalf
   (ldso.exp): a constructor, which _dl_init runs when ldso-main dlopens
   the library, and the resolver of the IFUNC ldso_lazy, which _dl_fixup
   runs when ldso-main first calls ldso_lazy through its PLT with lazy
   binding.  Each spins in leaf for a second when ldso-main asks for it.

   leaf is static, so that calling it takes no PLT entry of its own.  */

#include <stdlib.h>

#include "spin.h"

volatile unsigned long sink;

static __attribute__ ((noipa)) unsigned long
leaf (unsigned long seed)
{
  return spin (1.0, seed, &sink);
}

__attribute__ ((noipa, constructor)) void
ldso_ctor (void)
{
  if (getenv ("LDSO_SPIN_IN") && getenv ("LDSO_SPIN_IN")[0] == 'c')
    sink += leaf (1);
}

static unsigned long
lazy_impl (unsigned long x)
{
  return x + 1;
}

__attribute__ ((noipa)) void *
ldso_lazy_resolver (void)
{
  if (getenv ("LDSO_SPIN_IN") && getenv ("LDSO_SPIN_IN")[0] == 'l')
    sink += leaf (2);
  return lazy_impl;
}

unsigned long ldso_lazy (unsigned long)
  __attribute__ ((ifunc ("ldso_lazy_resolver")));

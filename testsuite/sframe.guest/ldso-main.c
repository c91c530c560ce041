/* ldso-main.c -- run code of ldso-lib.so from inside ld.so (ldso.exp).

   Usage: ldso-main ctor LIBRARY | lazy

   ctor  dlopen LIBRARY (ldso-lib.c built once more, as a library the
         program is not linked with), whose constructor spins: the chain
         is leaf <- ldso_ctor <- ld.so's _dl_init and the rest of dlopen
         <- main;
   lazy  call ldso_lazy, which the program is linked against with lazy
         binding: its IFUNC resolver spins when _dl_fixup resolves the
         first call, and the chain is leaf <- ldso_lazy_resolver <-
         _dl_fixup <- _dl_runtime_resolve_* <- main (ldso.exp says why
         the kernel gets no further than the trampoline).

   The program is linked with ldso-lib.so, whose constructor runs at
   start-up without spinning.  The environment variable LDSO_SPIN_IN
   (set by main) tells the library where to spin.  */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned long ldso_lazy (unsigned long);

int
main (int argc, char **argv)
{
  if (argc < 2 || (strcmp (argv[1], "ctor") == 0) != (argc == 3))
    {
      fprintf (stderr, "usage: ldso-main ctor LIBRARY | lazy\n");
      return 2;
    }
  if (strcmp (argv[1], "ctor") == 0)
    {
      setenv ("LDSO_SPIN_IN", "ctor", 1);
      void *h = dlopen (argv[2], RTLD_NOW);
      if (h == NULL)
	{
	  fprintf (stderr, "ldso-main: %s\n", dlerror ());
	  return 1;
	}
      /* Work after the call, so that it is not a tail call.  */
      printf ("loaded %p\n", h);
    }
  else if (strcmp (argv[1], "lazy") == 0)
    {
      setenv ("LDSO_SPIN_IN", "lazy", 1);
      printf ("%lu\n", ldso_lazy (41));
    }
  else
    {
      fprintf (stderr, "ldso-main: unknown mode %s\n", argv[1]);
      return 2;
    }
  return 0;
}

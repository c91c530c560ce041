/* verdict-load.c -- dlopen each library named and close it again, so
   that the patched ld.so offers its .sframe to the kernel; run with
   LD_DEBUG=sframe, whose trace gives the kernel's answer for each.

   Usage: verdict-load LIBRARY...

   Prints "loaded: LIBRARY" for each one dlopen accepts; a bad .sframe
   must never stop a library from loading.  */

#include <dlfcn.h>
#include <stdio.h>

int
main (int argc, char **argv)
{
  int status = 0;

  for (int i = 1; i < argc; i++)
    {
      void *h = dlopen (argv[i], RTLD_NOW | RTLD_LOCAL);

      if (h == NULL)
	{
	  printf ("failed: %s: %s\n", argv[i], dlerror ());
	  status = 1;
	  continue;
	}
      printf ("loaded: %s\n", argv[i]);
      fflush (stdout);
      dlclose (h);
    }
  return status;
}

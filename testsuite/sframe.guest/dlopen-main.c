/* dlopen-main.c -- call through dlopen'ed plugins built without frame
   pointers.

   Usage: PLUGIN_B=plugin-b.so dlopen-main plugin-a.so SECONDS

   main dlopens plugin-a, whose constructor dlopens plugin-b, and calls
   main -> plugin_a -> plugin_b, which spins for SECONDS.  Then it closes
   plugin-a (whose destructor closes plugin-b).  Before and after, it
   prints how many lines of /proc/self/sframe_maps name a plugin (-1:
   the file could not be read):

     registered while loaded: N
     registered after dlclose: M  */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sframe-maps.h"

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: dlopen-main PLUGIN-A SECONDS\n");
      return 2;
    }
  void *a = dlopen (argv[1], RTLD_NOW | RTLD_LOCAL);
  if (a == NULL)
    {
      fprintf (stderr, "dlopen-main: %s\n", dlerror ());
      return 2;
    }
  unsigned long (*plugin_a) (double)
    = (unsigned long (*) (double)) dlsym (a, "plugin_a");
  unsigned long r = plugin_a (atof (argv[2]));
  printf ("registered while loaded: %d\n", sframe_maps_count (NULL, "plugin-"));
  dlclose (a);
  printf ("registered after dlclose: %d\n", sframe_maps_count (NULL, "plugin-"));
  return r == 0;
}

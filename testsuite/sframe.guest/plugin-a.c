/* plugin-a.c -- a plugin that, when loaded, loads plugin-b (nested
   dlopen from a constructor) and calls into it.  See dlopen-main.c.  */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long (*plugin_b_fn) (double);
static void *plugin_b_handle;
volatile unsigned long plugin_a_sink;

__attribute__ ((constructor)) static void
load_b (void)
{
  const char *path = getenv ("PLUGIN_B");
  plugin_b_handle = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (plugin_b_handle == NULL)
    {
      fprintf (stderr, "plugin-a: %s\n", dlerror ());
      exit (2);
    }
  plugin_b_fn = (unsigned long (*) (double)) dlsym (plugin_b_handle,
						    "plugin_b");
}

__attribute__ ((destructor)) static void
unload_b (void)
{
  dlclose (plugin_b_handle);
}

__attribute__ ((noipa)) unsigned long
plugin_a (double seconds)
{
  unsigned long r = plugin_b_fn (seconds);
  plugin_a_sink += r;
  return r + 1;
}

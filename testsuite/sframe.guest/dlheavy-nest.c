/* dlheavy-nest.c -- a plugin whose constructor dlopens another
   (dlheavy-child.so, from its own directory) and whose step calls the
   child's step directly.  Its destructor closes the child.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlheavy.h"

static void *child;
static dlheavy_step_fn *child_step;
static volatile unsigned long nest_sink;

__attribute__ ((constructor)) static void
nest_load_child (void)
{
  Dl_info info;
  char path[4096];

  if (dladdr ((void *) nest_load_child, &info) == 0
      || strlen (info.dli_fname) + 32 > sizeof path)
    abort ();
  strcpy (path, info.dli_fname);
  strcpy (strrchr (path, '/') + 1, "dlheavy-child.so");
  child = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (child == NULL)
    {
      fprintf (stderr, "dlheavy-nest: %s\n", dlerror ());
      abort ();
    }
  child_step = (dlheavy_step_fn *) dlsym (child, "plugin_step");
}

__attribute__ ((destructor)) static void
nest_close_child (void)
{
  dlclose (child);
}

__attribute__ ((noipa)) unsigned long
nest_step (struct dlheavy_ctx *ctx, int depth)
{
  unsigned long r = child_step (ctx, depth + 1);
  nest_sink += r;
  return r;
}

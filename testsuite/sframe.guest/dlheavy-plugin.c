/* dlheavy-plugin.c -- the generated plugins of dlheavy.c.

   One object file is linked into each of the numbered plugins, into
   dlheavy-child.so (which dlheavy-nest.so loads from its constructor)
   and, built with PLUGIN_STEP=bad_step, into the plugin whose .sframe
   the test corrupts.  The steps call each other through the function
   pointers in the context, so a chain crosses several plugins.  */

#include "dlheavy.h"
#include "spin.h"

#ifndef PLUGIN_STEP
# define PLUGIN_STEP plugin_step
# define PLUGIN_LEAF plugin_leaf
#endif

static volatile unsigned long plugin_sink;

/* Static, so that the step's call cannot be bound to the leaf of
   another plugin loaded RTLD_GLOBAL.  */
static __attribute__ ((noipa)) unsigned long
PLUGIN_LEAF (struct dlheavy_ctx *ctx)
{
  return spin (ctx->seconds, ctx->seed, &plugin_sink);
}

__attribute__ ((noipa)) unsigned long
PLUGIN_STEP (struct dlheavy_ctx *ctx, int depth)
{
  unsigned long r;

  if (depth + 1 < ctx->nsteps)
    r = ctx->steps[depth + 1] (ctx, depth + 1);
  else
    r = PLUGIN_LEAF (ctx);
  plugin_sink += r;
  return r + depth;
}

/* dlheavy-preload.c -- loaded with LD_PRELOAD; dlheavy.c's chains pass
   through it, so its frame must be unwound like any other.  */

#include "dlheavy.h"

static volatile unsigned long preload_sink;

__attribute__ ((noipa)) unsigned long
preload_hop (unsigned long (*fn) (struct dlheavy_ctx *),
	     struct dlheavy_ctx *ctx)
{
  unsigned long r = fn (ctx);
  preload_sink += r;
  return r;
}

/* reload-plugin.c -- the plugin that reload.c loads, built twice with
   frames of different sizes (LAYOUT 1 and 2).  The code of the two
   builds lines up byte for byte but for the size of step's frame, so
   the return address of step's call to leaf is at the same offset in
   both, with another CFA offset: a rule kept from one build gives the
   other a wrong caller.  */

#include "spin.h"

#if LAYOUT == 1
# define FRAME 256
#else
# define FRAME 4096
#endif

static volatile unsigned long plugin_sink;

static __attribute__ ((noipa)) unsigned long
leaf (double seconds)
{
  return spin (seconds, 1, &plugin_sink);
}

__attribute__ ((noipa)) unsigned long
step (double seconds)
{
  volatile char buf[FRAME];
  buf[0] = 1;
  buf[FRAME - 1] = 2;
  unsigned long r = leaf (seconds);
  plugin_sink += buf[0] + buf[FRAME - 1];
  return r + 1;
}

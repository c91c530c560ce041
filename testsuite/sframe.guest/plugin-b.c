/* plugin-b.c -- the leaf of dlopen-main's chain.  */

#include "spin.h"

volatile unsigned long plugin_b_sink;

__attribute__ ((noipa)) unsigned long
plugin_b (double seconds)
{
  return spin (seconds, 1, &plugin_b_sink);
}

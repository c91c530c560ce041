/* glibc-audit-mod.c -- the smallest LD_AUDIT module: ld.so loads it into
   an audit namespace of its own, and the patched ld.so must register its
   .sframe like that of any object it maps.  */

#include <link.h>

unsigned int
la_version (unsigned int version)
{
  return version;
}

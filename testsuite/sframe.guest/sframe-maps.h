/* sframe-maps.h -- what the kernel holds: /proc/self/sframe_maps.

   Tests ask the kernel, not the loader's own trace, whether an object is
   registered.  Used by dlheavy.c and dlopen-main.c.  */

#ifndef SFRAME_MAPS_H
#define SFRAME_MAPS_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* How many lines of /proc/self/sframe_maps have a text range containing
   ADDR (if ADDR is not NULL) or name a file whose path contains NAME (if
   NAME is not NULL)?  -1 if the file cannot be read: a kernel without
   the series, or a broken one; tests that expect the file treat -1 as a
   failure, never as "nothing registered".  */
static int
sframe_maps_count (const void *addr, const char *name)
{
  FILE *f = fopen ("/proc/self/sframe_maps", "r");
  char line[4096];
  int n = 0;

  if (f == NULL)
    return -1;
  while (fgets (line, sizeof line, f) != NULL)
    {
      uintptr_t start, end;
      if (sscanf (line, "%" SCNxPTR "-%" SCNxPTR, &start, &end) != 2)
	continue;
      if (addr != NULL && (uintptr_t) addr >= start
	  && (uintptr_t) addr < end)
	n++;
      else if (name != NULL && strstr (line, name) != NULL)
	n++;
    }
  if (ferror (f))
    n = -1;
  fclose (f);
  return n;
}

#endif

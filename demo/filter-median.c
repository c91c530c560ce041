/* filter-median.c -- a 3x3 median filter that sorts each neighbourhood
   with the C library's qsort, so its stacks pass through libc and back
   into the plugin's comparison function.  */

#include <stdlib.h>

#include "imgpipe.h"

__attribute__ ((noinline)) static int
compare_levels (const void *a, const void *b)
{
  return *(const unsigned char *) a - *(const unsigned char *) b;
}

__attribute__ ((noinline)) static unsigned char
median_at (const struct image *in, int x, int y)
{
  unsigned char v[9];
  int n = 0;

  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      {
	int xx = x + dx, yy = y + dy;
	if (xx >= 0 && yy >= 0 && xx < in->width && yy < in->height)
	  v[n++] = in->pixels[yy * in->width + xx];
      }
  qsort (v, n, 1, compare_levels);
  return v[n / 2];
}

void
filter_apply (const struct image *in, struct image *out, int y0, int y1)
{
  for (int y = y0; y < y1; y++)
    for (int x = 0; x < in->width; x++)
      out->pixels[y * in->width + x] = median_at (in, x, y);
  __asm__ volatile ("" ::: "memory");
}

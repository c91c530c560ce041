/* filter-sharpen.c -- unsharp masking: the image plus the difference
   from its local mean.  */

#include "imgpipe.h"

__attribute__ ((noinline)) static int
local_mean (const struct image *in, int x, int y)
{
  return image_mean (in, x, y, 1);
}

void
filter_apply (const struct image *in, struct image *out, int y0, int y1)
{
  for (int y = y0; y < y1; y++)
    for (int x = 0; x < in->width; x++)
      {
	int p = in->pixels[y * in->width + x];
	int v = p + (p - local_mean (in, x, y));
	out->pixels[y * in->width + x] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
  __asm__ volatile ("" ::: "memory");
}

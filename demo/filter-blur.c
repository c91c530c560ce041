/* filter-blur.c -- a 5x5 box blur.  */

#include "imgpipe.h"

__attribute__ ((noinline)) static void
blur_rows (const struct image *in, struct image *out, int y0, int y1)
{
  for (int y = y0; y < y1; y++)
    for (int x = 0; x < in->width; x++)
      out->pixels[y * in->width + x] = image_mean (in, x, y, 2);
}

void
filter_apply (const struct image *in, struct image *out, int y0, int y1)
{
  blur_rows (in, out, y0, y1);
  __asm__ volatile ("" ::: "memory");	/* Keep this frame.  */
}

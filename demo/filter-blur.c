/* filter-blur.c -- a 5x5 box blur.  */

#include "imgpipe.h"

static unsigned char
box (const struct image *in, int x, int y)
{
  unsigned int sum = 0, n = 0;

  for (int dy = -2; dy <= 2; dy++)
    for (int dx = -2; dx <= 2; dx++)
      {
	int xx = x + dx, yy = y + dy;
	if (xx >= 0 && yy >= 0 && xx < in->width && yy < in->height)
	  {
	    sum += in->pixels[yy * in->width + xx];
	    n++;
	  }
      }
  return sum / n;
}

__attribute__ ((noinline)) static void
blur_rows (const struct image *in, struct image *out, int y0, int y1)
{
  for (int y = y0; y < y1; y++)
    for (int x = 0; x < in->width; x++)
      out->pixels[y * in->width + x] = box (in, x, y);
}

void
filter_apply (const struct image *in, struct image *out, int y0, int y1)
{
  blur_rows (in, out, y0, y1);
  __asm__ volatile ("" ::: "memory");	/* Keep this frame.  */
}

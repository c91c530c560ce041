/* imgpipe.h -- the interface between imgpipe.c and its filter plugins.  */

#ifndef IMGPIPE_H
#define IMGPIPE_H

#include <stddef.h>

struct image
{
  int width, height;
  unsigned char *pixels;	/* width * height grey levels.  */
};

/* Each plugin exports `filter_apply': transform rows [Y0, Y1) of IN into
   OUT (same size).  */
typedef void filter_fn (const struct image *in, struct image *out,
			int y0, int y1);

/* The mean of IN over the square of side 2 * R + 1 centred on (X, Y),
   clipped at the edges.  */
static inline int
image_mean (const struct image *in, int x, int y, int r)
{
  int sum = 0, n = 0;

  for (int dy = -r; dy <= r; dy++)
    for (int dx = -r; dx <= r; dx++)
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

#endif

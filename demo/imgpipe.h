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

#endif

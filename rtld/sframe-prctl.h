/* PR_ADD_SFRAME and PR_REMOVE_SFRAME for the dynamic loader.
   Copyright (C) 2026 Free Software Foundation, Inc.

   This file is free software; you can redistribute it and/or modify it
   under the terms of the GNU Lesser General Public License as published
   by the Free Software Foundation; either version 2.1 of the License, or
   (at your option) any later version.

   This file is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   Lesser General Public License for more details.

   You should have received a copy of the GNU Lesser General Public
   License along with this file; if not, see
   <https://www.gnu.org/licenses/>.  */

/* The PR_ADD_SFRAME / PR_REMOVE_SFRAME interface of the sframe-rtld kernel
   series, for user space that registers .sframe sections:

     prctl (PR_ADD_SFRAME, &setup, sizeof setup, 0, 0)
     prctl (PR_REMOVE_SFRAME, &setup, sizeof setup, 0, 0)

   The values and the structure are those of the series' <linux/prctl.h>.
   The values are ASCII tags ("SFRA", "SFRD"), so on a kernel without the
   series they are unknown options and fail with EINVAL, without side
   effects.  See doc/PR_ADD_SFRAME.2const.  */

#ifndef SFRAME_PRCTL_H
#define SFRAME_PRCTL_H

/* Kernel headers that have the interface win, so that code including
   <sys/prctl.h> too sees the same values.  */
#include <linux/prctl.h>

#ifndef PR_ADD_SFRAME
# include <stdint.h>

# define PR_ADD_SFRAME		0x53465241
# define PR_REMOVE_SFRAME	0x53465244

/* A section and the text it describes.  The kernel takes a larger
   structure of a later version if the members it does not know are 0,
   so this one may grow at its end.  */
struct sframe_setup
{
  uint64_t sframe_start;
  uint64_t sframe_size;
  uint64_t text_start;
  uint64_t text_size;
};
#endif

#endif /* sframe-prctl.h */

/* The PR_ADD_SFRAME / PR_REMOVE_SFRAME interface of the sframe-rtld kernel
   series, for user space that registers .sframe sections.

   The values are those of the series' <linux/prctl.h>; they are ASCII
   tags ("SFRA", "SFRD"), so on a kernel without the series they are
   unknown options and fail with EINVAL, without side effects.  See
   doc/PR_ADD_SFRAME.2const.  */

#ifndef SFRAME_PRCTL_H
#define SFRAME_PRCTL_H

#ifndef PR_ADD_SFRAME
# define PR_ADD_SFRAME		0x53465241
#endif
#ifndef PR_REMOVE_SFRAME
# define PR_REMOVE_SFRAME	0x53465244
#endif

/* ELF program header of the .sframe section (binutils 2.41 and later).  */
#ifndef PT_GNU_SFRAME
# define PT_GNU_SFRAME		0x6474e554
#endif

#endif /* sframe-prctl.h */

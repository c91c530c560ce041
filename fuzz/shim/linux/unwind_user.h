/* The architecture's part of the user unwinder, as the shim has it: no
   vDSO.  See ../../kshim.h.  */
#include "../../kshim.h"
#include <linux/sframe.h>

static inline const struct sframe_vdso *
unwind_user_vdso(struct mm_struct *mm, unsigned long *base)
{
	(void) mm;
	(void) base;
	return NULL;
}

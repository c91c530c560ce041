/* The series' own uapi header, for struct sframe_setup: see ../../kshim.h.  */
#include "../../kshim.h"
#include <include/uapi/linux/prctl.h>

/* See ../../kshim.h.  */
#include "../../kshim.h"

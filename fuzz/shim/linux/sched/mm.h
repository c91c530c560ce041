/* mmget_not_zero, mmput: see kshim.h.  */

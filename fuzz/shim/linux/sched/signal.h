/* fatal_signal_pending: see kshim.h.  */

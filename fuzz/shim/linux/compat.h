/* in_compat_syscall: see kshim.h.  */

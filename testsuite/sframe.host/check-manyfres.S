/* check-manyfres.S -- a well-formed function with more FREs than the
   kernel follows (SFRAME_MAX_FDE_FRES, 1024), for sframe-check.exp:
   each push and pop changes the CFA offset, and gas emits an FRE for
   each.  The kernel registers the section and unwinds its other
   functions; this one's frames go to frame pointers.  */

	.text
	.globl	check_manyfres
	.type	check_manyfres, @function
check_manyfres:
	.cfi_startproc
	.rept	600
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	popq	%rax
	.cfi_adjust_cfa_offset -8
	.endr
	ret
	.cfi_endproc
	.size	check_manyfres, .-check_manyfres

	.section .note.GNU-stack, "", @progbits

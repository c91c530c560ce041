/* check-nocfi.S -- hand-written assembly without CFI, for
   sframe-check.exp: check_nocfi has no .cfi_startproc, so it gets
   neither DWARF CFI in .eh_frame nor (with --gsframe) an SFrame FDE.  */

	.text
	.globl	check_nocfi
	.type	check_nocfi, @function
check_nocfi:
	leaq	1(%rdi,%rdi,2), %rax
	addq	%rsi, %rax
	ret
	.size	check_nocfi, .-check_nocfi

	.section .note.GNU-stack, "", @progbits

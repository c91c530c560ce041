/* check-endrow.S -- a function whose CFI goes on past its last
   instruction, for sframe-check.exp.  libffi's win64.S ends
   ffi_call_win64 with "ret; .cfi_restore_state", as every epilogue in it
   is written; gas then emits an SFrame FRE that starts at the function's
   end and covers no byte.  The kernel must accept the section, or the
   whole of libffi.so goes unregistered.  */

	.text
	.globl	check_endrow
	.type	check_endrow, @function
check_endrow:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	testq	%rdi, %rdi
	je	1f
	leave
	.cfi_remember_state
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	ret
	.cfi_restore_state
1:	movq	%rsi, %rax
	leave
	.cfi_remember_state
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	ret
	.cfi_restore_state
	.cfi_endproc
	.size	check_endrow, .-check_endrow

	.section .note.GNU-stack, "", @progbits

/* sigreturn-amd64.S -- a signal trampoline of our own (see signal.c),
   with the unwind information glibc gives its __restore_rt: a signal
   frame whose registers are loaded from the ucontext at RSP.  GNU as 2.47
   emits an SFrame FDE with the signal-frame bit for it; 2.44 (SFrame V2)
   cannot, and emits none.

   Like glibc, a nop precedes the trampoline inside the unwind
   information, so that looking up the return address minus one (the
   handler "returns" to the trampoline) still finds it.  The trampoline
   itself is sframe_test_sigreturn + 1.

   sframe_test_sigreturn_other is the same trampoline with the system
   call number loaded by another instruction (movl, not movq), as no C
   library does: the kernel's rt_sigreturn heuristic does not match it,
   so only the signal-frame bit of its FDE tells the kernel what it is.  */

	/* The unwind information of a signal frame, at the start of each
	   trampoline's CFI.  */
	.macro	signal_frame_cfi
	.cfi_signal_frame
	/* DW_CFA_def_cfa_expression: DW_OP_breg7 (%rsp) 160; DW_OP_deref
	   (uc_mcontext.rsp) */
	.cfi_escape 0x0f, 0x04, 0x77, 0xa0, 0x01, 0x06
	/* DW_CFA_expression %rip: DW_OP_breg7 (%rsp) 168 (uc_mcontext.rip) */
	.cfi_escape 0x10, 0x10, 0x03, 0x77, 0xa8, 0x01
	/* DW_CFA_expression %rbp: DW_OP_breg7 (%rsp) 120 (uc_mcontext.rbp) */
	.cfi_escape 0x10, 0x06, 0x03, 0x77, 0xf8, 0x00
	.endm

	.text
	.globl	sframe_test_sigreturn
	.type	sframe_test_sigreturn, @function
	.cfi_startproc
	signal_frame_cfi
sframe_test_sigreturn:
	nop
	movq	$15, %rax	/* __NR_rt_sigreturn */
	syscall
	.cfi_endproc
	.size	sframe_test_sigreturn, .-sframe_test_sigreturn

	.globl	sframe_test_sigreturn_other
	.type	sframe_test_sigreturn_other, @function
	.cfi_startproc
	signal_frame_cfi
sframe_test_sigreturn_other:
	nop
	movl	$15, %eax	/* __NR_rt_sigreturn */
	syscall
	.cfi_endproc
	.size	sframe_test_sigreturn_other, .-sframe_test_sigreturn_other

	.section .note.GNU-stack,"",@progbits

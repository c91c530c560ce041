/* flex-amd64.S -- functions whose CFI GNU as 2.47 can describe only with
   SFrame FLEX FDEs (see flex.c), written so that unwinding them with
   frame pointers gives a wrong or cut chain.  */

	.text

/* unsigned long flex_drap (unsigned long (*fn) (unsigned long),
			    unsigned long arg)

   Call FN (ARG) on a stack realigned to 64 bytes through a DRAP register,
   the way GCC does for over-aligned frames: the CFA is first R10 and then
   loaded from the frame (CFA = *(RBP - 8)), and the caller's RBP is saved
   at RBP (FP = *(RBP + 0)).  Unlike GCC, no copy of the return address
   is pushed above the saved RBP; that slot holds 0, so a frame-pointer
   unwinder finds no return address there.  */
	.globl	flex_drap
	.type	flex_drap, @function
flex_drap:
	.cfi_startproc
	leaq	8(%rsp), %r10
	.cfi_def_cfa %r10, 0
	subq	$64, %rsp
	andq	$-64, %rsp
	pushq	%rbp
	movq	%rsp, %rbp
	/* DW_CFA_expression %rbp: DW_OP_breg6 (%rbp) 0 */
	.cfi_escape 0x10, 0x06, 0x02, 0x76, 0x00
	pushq	%r10
	/* DW_CFA_def_cfa_expression: DW_OP_breg6 (%rbp) -8; DW_OP_deref */
	.cfi_escape 0x0f, 0x03, 0x76, 0x78, 0x06
	movq	$0, 8(%rbp)
	movq	%rdi, %rax
	movq	%rsi, %rdi
	call	*%rax
	movq	-8(%rbp), %r10
	leave
	.cfi_def_cfa %r10, 0
	.cfi_restore %rbp
	leaq	-8(%r10), %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	flex_drap, .-flex_drap

/* void flex_regcfa_spin (void)

   Spin until flex_stop is set, with the stack pointer realigned and the
   CFA kept in R12 (CFA = R12 + 16).  Only the topmost frame's R12 is
   known, so this must be the leaf.  */
	.globl	flex_regcfa_spin
	.type	flex_regcfa_spin, @function
flex_regcfa_spin:
	.cfi_startproc
	pushq	%r12
	.cfi_def_cfa_offset 16
	.cfi_offset %r12, -16
	movq	%rsp, %r12
	.cfi_def_cfa_register %r12
	andq	$-64, %rsp
	subq	$64, %rsp
1:	incq	(%rsp)
	cmpb	$0, flex_stop(%rip)
	je	1b
	movq	%r12, %rsp
	.cfi_def_cfa_register %rsp
	popq	%r12
	.cfi_def_cfa_offset 8
	.cfi_restore %r12
	ret
	.cfi_endproc
	.size	flex_regcfa_spin, .-flex_regcfa_spin

/* void flex_regfp_spin (void)

   Spin until flex_stop is set, with the caller's frame pointer moved to
   RBX (FP = RBX) and RBP cleared.  The caller keeps a frame record, so
   its frame is found only through the recovered FP.  */
	.globl	flex_regfp_spin
	.type	flex_regfp_spin, @function
flex_regfp_spin:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	movq	%rbp, %rbx
	.cfi_register %rbp, %rbx
	xorl	%ebp, %ebp
1:	pause
	cmpb	$0, flex_stop(%rip)
	je	1b
	movq	%rbx, %rbp
	.cfi_restore %rbp
	popq	%rbx
	.cfi_def_cfa_offset 8
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size	flex_regfp_spin, .-flex_regfp_spin

	.section .note.GNU-stack,"",@progbits

/* check-skip.S -- an asm function with DWARF CFI that gas cannot turn
   into SFrame, for sframe-check.exp.  The .cfi_escape of
   DW_CFA_GNU_args_size 16 (0x2e 0x10) says nothing about the CFA or the
   return address, but gas does not know that: binutils 2.44 emits no
   SFrame FDE for any function with a .cfi_escape ("skipping SFrame FDE;
   CFI insn CFI_escape (0x103)"), 2.47 for one whose escape it cannot
   interpret ("no SFrame FDE emitted; .cfi_escape with op (0x2e)"; it
   takes DW_CFA_nop and DW_CFA_GNU_args_size 0).  The function keeps its
   .eh_frame FDE.  */

	.text
	.globl	check_skipped
	.type	check_skipped, @function
check_skipped:
	.cfi_startproc
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbx, 0
	movq	%rdi, %rbx
	.cfi_escape 0x2e, 0x10
	leaq	(%rbx,%rsi), %rax
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size	check_skipped, .-check_skipped

	.section .note.GNU-stack, "", @progbits

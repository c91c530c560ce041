/* check-start.c -- the entry point of the programs that sframe-check.exp
   links with -nostartfiles: Debian's startup files (Scrt1.o, crti.o,
   crtbeginS.o...) have no .sframe, so a program linked with them is
   never wholly covered.  This one is C, compiled with CFI and
   -Wa,--gsframe like the rest: it calls main and exits with its status
   through the exit system call, without the C library.  */

int main (void);

void
_start (void)
{
  long status = main ();

  asm volatile ("syscall" : : "a" (60L), "D" (status) : "rcx", "r11", "memory");
  __builtin_unreachable ();
}

/* check-main.c -- a small FP-less program for sframe-check.exp.

   It calls nothing in the C library, so that linked with check-start.c
   and -nostartfiles every function in it is compiled here, with CFI
   and (with -Wa,--gsframe) an SFrame FDE.  noipa keeps the functions
   apart, so each one is a symbol of its own.  */

volatile unsigned long check_sink;

__attribute__ ((noipa)) unsigned long
check_leaf (unsigned long x)
{
  check_sink += x;
  return x * 3 + 1;
}

__attribute__ ((noipa)) unsigned long
check_middle (unsigned long x)
{
  unsigned long r = check_leaf (x + 1);
  check_sink += r;
  return r + 2;
}

int
main (void)
{
  return (int) (check_middle (4) & 0x7f);
}

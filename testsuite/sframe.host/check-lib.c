/* check-lib.c -- a small FP-less shared library for sframe-check.exp,
   linked with -nostartfiles: all its code is compiled here.  */

volatile unsigned long check_lib_sink;

__attribute__ ((noipa)) static unsigned long
check_lib_helper (unsigned long x)
{
  check_lib_sink += x;
  return x ^ 0x55;
}

unsigned long
check_lib_entry (unsigned long x)
{
  unsigned long r = check_lib_helper (x) + check_lib_helper (x + 1);
  check_lib_sink += r;
  return r;
}

unsigned long
check_lib_other (unsigned long x)
{
  return check_lib_entry (x * 2) + 7;
}

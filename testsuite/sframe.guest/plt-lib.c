/* plt-lib.c -- a shared library built with frame pointers and without
   .sframe, called through the PLT by plt-main.c and calling back into it.
   Nobody registers a .sframe for it, so the kernel must unwind its frame
   with the frame pointer and go on with .sframe in the caller.  */

volatile unsigned long plt_lib_sink;

__attribute__ ((noipa)) unsigned long
lib_call (unsigned long (*fn) (unsigned long), unsigned long x)
{
  unsigned long r = fn (x);
  plt_lib_sink += r;
  return r + 1;
}

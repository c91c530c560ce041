/* pltgot-lib.c -- the callee of pltgot-main.c, in a shared library so
   that the program reaches it through a PLT stub.  */

volatile int pltgot_sink;

__attribute__ ((noipa)) int
pg_target (int x)
{
  pltgot_sink += x;
  return x;
}

__attribute__ ((noipa)) int
pg_other (int x)
{
  pltgot_sink -= x;
  return x;
}

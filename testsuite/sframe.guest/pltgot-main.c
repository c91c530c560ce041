/* pltgot-main.c -- calls pg_target through its .plt.got entry and
   pg_other through its .plt entry, 200 times each, from pg_caller.

   pg_target's address is also taken: with a GOT slot of its own, ld
   gives it a .plt.got entry (one jump through that slot) instead of a
   lazy .plt entry.  Built -fPIE and linked -no-pie, so that pltgot.exp
   can set a breakpoint on either stub at the address the disassembly
   shows.  */

extern int pg_target (int);
extern int pg_other (int);

int (*volatile pg_ptr) (int);

__attribute__ ((noipa)) int
pg_caller (int i)
{
  /* Neither call is a tail call: pg_caller stays on the stack.  */
  return pg_target (i) + pg_other (i) + 1;
}

int
main (void)
{
  int s = 0;

  pg_ptr = pg_target;
  for (int i = 0; i < 200; i++)
    s += pg_caller (i);
  return s == 200 * 199 + 200 ? 0 : 1;
}

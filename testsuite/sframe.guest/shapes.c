/* shapes.c -- call chains through frames of every shape the compiler makes.

   Usage: shapes MODE [SECONDS]

   Each MODE builds one call chain whose innermost function, leaf, spins
   for SECONDS (default 1); MODE all runs them all, one after the other,
   in one process.  The chain is known from the source alone, and
   shapes.exp lists it for each mode:

     alloca    main -> grow_alloca -> leaf      (frame sized at run time)
     vla       main -> grow_vla -> leaf         (variable-length array)
     realign   main -> realigned -> leaf        (locals aligned to 64)
     drap      main -> drap_frame -> leaf       (alloca and a 64-aligned
                                                 local: GCC realigns the
                                                 stack through a DRAP
                                                 register, which gas 2.47
                                                 describes with a FLEX FDE)
     recurse   main -> recurse x200 -> leaf     (deep stack)
     tailcall  main -> tail_a => tail_b -> leaf (tail_a jumps to tail_b,
                                                 so tail_a is not on the
                                                 stack)
     fork      main -> forked -> leaf, in a forked child
     bigframe  main -> big_frame -> leaf        (a frame of 80 KiB: its
                                                 CFA offset takes a 4-byte
                                                 FRE data word)
     noreturn  main -> call_stop -> stop -> leaf
                                                (call_stop ends in its
                                                 call to stop, which does
                                                 not return: built with
                                                 -falign-functions=1, the
                                                 return address is the
                                                 first byte of after_stop)

   Callers do work after each call so that the compiler cannot turn it
   into a jump (except in tail_a, where we want exactly that), and noipa
   keeps functions from being inlined, cloned or merged.  */

#include <alloca.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "leaf.h"

__attribute__ ((noipa)) unsigned long
grow_alloca (unsigned long size)
{
  volatile char *p = alloca (size);
  p[0] = 1;
  p[size - 1] = 2;
  unsigned long r = leaf (p[0] + p[size - 1]);
  sink += p[0];
  return r + 1;
}

__attribute__ ((noipa)) unsigned long
grow_vla (unsigned long n)
{
  volatile unsigned long v[n];
  v[0] = 1;
  v[n - 1] = 2;
  unsigned long r = leaf (v[0] + v[n - 1]);
  sink += v[n - 1];
  return r + 1;
}

__attribute__ ((noipa)) unsigned long
realigned (unsigned long x)
{
  volatile unsigned long big[8] __attribute__ ((aligned (64)));
  big[0] = x;
  unsigned long r = leaf (big[0]);
  sink += big[0] + ((unsigned long) big & 63);
  return r + 1;
}

__attribute__ ((noipa)) unsigned long
drap_frame (unsigned long size)
{
  volatile char *p = alloca (size);
  volatile unsigned long big[8] __attribute__ ((aligned (64)));
  big[0] = size;
  p[0] = 1;
  unsigned long r = leaf (big[0] + p[0]);
  sink += big[0] + ((unsigned long) big & 63);
  return r + 1;
}

__attribute__ ((noipa)) unsigned long
recurse (int depth)
{
  unsigned long r = depth > 1 ? recurse (depth - 1) : leaf (depth);
  sink += r;
  return r + 1;
}

__attribute__ ((noipa)) unsigned long
tail_b (unsigned long x)
{
  unsigned long r = leaf (x);
  sink += r;
  return r + 1;
}

__attribute__ ((noipa, optimize ("optimize-sibling-calls"))) unsigned long
tail_a (unsigned long x)
{
  sink += x;
  return tail_b (x + 1);
}

__attribute__ ((noipa)) unsigned long
forked (unsigned long x)
{
  unsigned long r = leaf (x);
  sink += r;
  return r + 1;
}

__attribute__ ((noipa)) unsigned long
big_frame (unsigned long x)
{
  volatile char buf[80 * 1024];
  buf[0] = x;
  buf[sizeof buf - 1] = x;
  unsigned long r = leaf (buf[0] + buf[sizeof buf - 1]);
  sink += buf[0];
  return r + 1;
}

__attribute__ ((noipa, noreturn)) void
stop (unsigned long x)
{
  sink += leaf (x);
  exit (0);
}

__attribute__ ((noipa)) void
call_stop (unsigned long x)
{
  /* A frame of its own, so that its rules at the call differ from
     those at after_stop's first byte.  */
  volatile unsigned long v[3];
  v[0] = x;
  stop (v[0] + 1);
}

__attribute__ ((noipa)) unsigned long
after_stop (unsigned long x)
{
  return x * 3 + 1;
}

int
main (int argc, char **argv)
{
  /* noreturn last: it ends the process.  */
  static const char *const all[] = {
    "alloca", "vla", "realign", "drap", "recurse", "tailcall", "fork",
    "bigframe", "noreturn"
  };

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s all|alloca|vla|realign|drap|recurse|"
	       "tailcall|fork|bigframe|noreturn [SECONDS]\n", argv[0]);
      return 2;
    }
  if (argc > 2)
    seconds = atof (argv[2]);

  int nmodes = strcmp (argv[1], "all") == 0 ? sizeof all / sizeof all[0] : 1;
  for (int m = 0; m < nmodes; m++)
    {
      const char *mode = nmodes == 1 ? argv[1] : all[m];
      unsigned long r;
      if (strcmp (mode, "alloca") == 0)
	r = grow_alloca (1000 + argc);
      else if (strcmp (mode, "vla") == 0)
	r = grow_vla (100 + argc);
      else if (strcmp (mode, "realign") == 0)
	r = realigned (argc);
      else if (strcmp (mode, "drap") == 0)
	r = drap_frame (100 + argc);
      else if (strcmp (mode, "recurse") == 0)
	r = recurse (200);
      else if (strcmp (mode, "tailcall") == 0)
	r = tail_a (argc);
      else if (strcmp (mode, "bigframe") == 0)
	r = big_frame (argc);
      else if (strcmp (mode, "noreturn") == 0)
	{
	  /* A caller, so that after_stop is not dropped or moved.  */
	  sink += after_stop (argc);
	  call_stop (argc);
	  r = 0;
	}
      else if (strcmp (mode, "fork") == 0)
	{
	  pid_t pid = fork ();
	  if (pid < 0)
	    {
	      perror ("fork");
	      return 1;
	    }
	  if (pid == 0)
	    {
	      sink += forked (argc);
	      _exit (0);
	    }
	  int status;
	  if (waitpid (pid, &status, 0) != pid || !WIFEXITED (status)
	      || WEXITSTATUS (status) != 0)
	    return 1;
	  r = 0;
	}
      else
	{
	  fprintf (stderr, "%s: unknown mode '%s'\n", argv[0], mode);
	  return 2;
	}
      sink += r;
    }
  return 0;
}

/* vdso.c -- a program that spends its time in the vDSO, for vdso.exp.

   Usage: vdso FUNCTION HOW SECONDS [remove]

   FUNCTION is clock_gettime, gettimeofday or getcpu; HOW is "direct",
   a call of the vDSO's own function, found with dlsym, or "libc", a call
   of the C library's function, which calls the vDSO's (gettimeofday is
   an IFUNC that resolves to the vDSO's).  The stacks sampled in the vDSO
   are those of main -> run -> caller -> [C library ->] the vDSO.

   With "remove" it first tries to remove the vDSO's .sframe
   (PR_REMOVE_SFRAME), which the kernel does not register but reads from
   its own copy of the image, and prints the error.  It prints whether
   the vDSO has .sframe, and whether /proc/self/sframe_maps then lists
   it.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "../../rtld/sframe-prctl.h"

#ifndef PT_GNU_SFRAME
# define PT_GNU_SFRAME 0x6474e554
#endif

static volatile sig_atomic_t stop;
static volatile unsigned long sink;

static int (*vdso_clock_gettime) (clockid_t, struct timespec *);
static int (*vdso_gettimeofday) (struct timeval *, void *);
static int (*vdso_getcpu) (unsigned int *, unsigned int *, void *);

enum call
{
  CLOCK_GETTIME_DIRECT, GETTIMEOFDAY_DIRECT, GETCPU_DIRECT,
  CLOCK_GETTIME_LIBC, GETTIMEOFDAY_LIBC, GETCPU_LIBC
};

/* 1000 calls, the loop around them as short as can be.  */
static void __attribute__ ((noinline))
caller (enum call call)
{
  struct timespec ts = { 0 };
  struct timeval tv = { 0 };
  unsigned int cpu = 0;

  for (int i = 0; i < 1000; i++)
    {
      switch (call)
	{
	case CLOCK_GETTIME_DIRECT:
	  vdso_clock_gettime (CLOCK_MONOTONIC, &ts);
	  break;
	case GETTIMEOFDAY_DIRECT:
	  vdso_gettimeofday (&tv, NULL);
	  break;
	case GETCPU_DIRECT:
	  vdso_getcpu (&cpu, NULL, NULL);
	  break;
	case CLOCK_GETTIME_LIBC:
	  clock_gettime (CLOCK_MONOTONIC, &ts);
	  break;
	case GETTIMEOFDAY_LIBC:
	  gettimeofday (&tv, NULL);
	  break;
	case GETCPU_LIBC:
	  getcpu (&cpu, NULL);
	  break;
	}
      sink += ts.tv_nsec + tv.tv_usec + cpu;
    }
}

static void __attribute__ ((noinline))
run (enum call call)
{
  while (!stop)
    caller (call);
}

static void
on_alarm (int sig)
{
  stop = 1;
}

static int
remove_sframe (unsigned long sframe)
{
  struct sframe_setup s = { .sframe_start = sframe };

  return prctl (PR_REMOVE_SFRAME, &s, sizeof s, 0, 0);
}

/* The vDSO's .sframe, from its program headers; 0 if it has none.  */
static unsigned long
vdso_sframe (void)
{
  unsigned long base = getauxval (AT_SYSINFO_EHDR);
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *) base;
  const Elf64_Phdr *ph;

  if (base == 0)
    return 0;
  ph = (const Elf64_Phdr *) (base + eh->e_phoff);
  for (int i = 0; i < eh->e_phnum; i++)
    if (ph[i].p_type == PT_GNU_SFRAME)
      return base + ph[i].p_vaddr;
  return 0;
}

/* Does /proc/self/sframe_maps list the vDSO?  */
static int
vdso_listed (void)
{
  FILE *f = fopen ("/proc/self/sframe_maps", "r");
  char line[512];
  int found = 0;

  if (f == NULL)
    return 0;
  while (fgets (line, sizeof line, f) != NULL)
    if (strstr (line, " [vdso]\n") != NULL)
      found = 1;
  fclose (f);
  return found;
}

int
main (int argc, char **argv)
{
  static const char *const names[] = { "clock_gettime", "gettimeofday", "getcpu" };
  void *vdso = dlopen ("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);
  int func = -1, how;

  if (argc < 4 || argc > 5 || (argc == 5 && strcmp (argv[4], "remove")))
    {
      fprintf (stderr, "usage: %s FUNCTION direct|libc SECONDS [remove]\n", argv[0]);
      return 1;
    }
  for (int i = 0; i < 3; i++)
    if (strcmp (argv[1], names[i]) == 0)
      func = i;
  how = strcmp (argv[2], "direct") == 0 ? 0 : strcmp (argv[2], "libc") == 0 ? 1 : -1;
  if (func < 0 || how < 0)
    {
      fprintf (stderr, "%s: unknown function or way of calling it\n", argv[0]);
      return 1;
    }
  if (vdso == NULL)
    {
      fprintf (stderr, "%s: no vDSO: %s\n", argv[0], dlerror ());
      return 1;
    }
  vdso_clock_gettime = dlsym (vdso, "__vdso_clock_gettime");
  vdso_gettimeofday = dlsym (vdso, "__vdso_gettimeofday");
  vdso_getcpu = dlsym (vdso, "__vdso_getcpu");
  if (!vdso_clock_gettime || !vdso_gettimeofday || !vdso_getcpu)
    {
      fprintf (stderr, "%s: the vDSO lacks a function\n", argv[0]);
      return 1;
    }

  printf ("vdso sframe: %s\n", vdso_sframe () ? "yes" : "no");
  if (argc == 5)
    printf ("vdso remove: %s\n",
	    remove_sframe (vdso_sframe ()) == 0
	    ? "removed" : strerrorname_np (errno));
  printf ("vdso registered: %s\n", vdso_listed () ? "yes" : "no");

  if (atoi (argv[3]) <= 0)
    return 0;
  signal (SIGALRM, on_alarm);
  alarm (atoi (argv[3]));
  run ((enum call) (how * 3 + func));
  return 0;
}

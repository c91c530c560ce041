/* sample-chain -- sample a program with perf_event_open and print the
   user call chain of every sample, without the perf tool.

   Usage: sample-chain [-F FREQ] PROGRAM [ARG...]

   Runs PROGRAM (and any children it forks) under a cpu-clock event that
   asks for deferred user callchains (attr.defer_callchain), stitches each
   PERF_RECORD_CALLCHAIN_DEFERRED record to the samples that carry its
   cookie, and prints one paragraph per sample in the format of
   `perf script -F ip,sym': one "ADDRESS SYMBOL" line per frame from the
   leaf outwards, then a blank line.  A sample whose deferred callchain
   never arrives is printed as its own IP followed by a frame named
   "[no deferred callchain]", one with an empty callchain likewise with
   "[empty callchain]".  Frames in PROGRAM itself are named
   from its symbol table (the load address comes from the kernel's
   PERF_RECORD_MMAP2 records); other frames print as [unknown].

   This checks the kernel's unwinder directly, with nothing of the perf
   tool's own stitching or symbolisation in between.  The exit status is
   PROGRAM's, or 125 if sampling itself failed or lost samples.  */

#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perf-ring.h"

#define DATA_PAGES 256

static void __attribute__ ((noreturn))
die (const char *what)
{
  fprintf (stderr, "sample-chain: %s: %s\n", what, strerror (errno));
  exit (125);
}

/* Symbols of PROGRAM, sorted by address (link-time addresses).  */
struct sym { uint64_t addr, size; char *name; };
static struct sym *syms;
static size_t nsyms;
static Elf64_Phdr *phdrs;
static int phnum;
static uint64_t load_bias;
static int have_bias;
static char prog_path[PATH_MAX];

static int
sym_cmp (const void *a, const void *b)
{
  const struct sym *x = a, *y = b;
  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void
read_symbols (const char *path)
{
  int fd = open (path, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat (fd, &st) < 0)
    die (path);
  unsigned char *map = mmap (NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED)
    die ("mmap");
  Elf64_Ehdr *eh = (Elf64_Ehdr *) map;
  if (st.st_size < (off_t) sizeof *eh || memcmp (eh->e_ident, ELFMAG, SELFMAG) != 0
      || eh->e_ident[EI_CLASS] != ELFCLASS64)
    {
      fprintf (stderr, "sample-chain: %s: not a 64-bit ELF file\n", path);
      exit (125);
    }
  phnum = eh->e_phnum;
  phdrs = (Elf64_Phdr *) (map + eh->e_phoff);
  Elf64_Shdr *sh = (Elf64_Shdr *) (map + eh->e_shoff);
  for (int i = 0; i < eh->e_shnum; i++)
    {
      if (sh[i].sh_type != SHT_SYMTAB)
	continue;
      Elf64_Sym *s = (Elf64_Sym *) (map + sh[i].sh_offset);
      const char *str = (const char *) map + sh[sh[i].sh_link].sh_offset;
      size_t n = sh[i].sh_size / sizeof *s;
      syms = calloc (n, sizeof *syms);
      for (size_t j = 0; j < n; j++)
	if (ELF64_ST_TYPE (s[j].st_info) == STT_FUNC && s[j].st_value != 0)
	  syms[nsyms++] = (struct sym) { s[j].st_value, s[j].st_size,
					 (char *) str + s[j].st_name };
    }
  qsort (syms, nsyms, sizeof *syms, sym_cmp);
}

static const char *
symbolize (uint64_t ip)
{
  if (!have_bias || ip < load_bias)
    return "[unknown]";
  uint64_t a = ip - load_bias;
  size_t lo = 0, hi = nsyms;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (syms[mid].addr <= a)
	lo = mid + 1;
      else
	hi = mid;
    }
  if (lo && a < syms[lo - 1].addr + syms[lo - 1].size)
    return syms[lo - 1].name;
  return "[unknown]";
}

/* The executable PT_LOAD mapped at START from file offset PGOFF gives the
   load bias.  */
static void
note_mmap (uint64_t start, uint64_t pgoff, const char *file)
{
  if (have_bias || strcmp (file, prog_path) != 0)
    return;
  for (int i = 0; i < phnum; i++)
    if (phdrs[i].p_type == PT_LOAD && (phdrs[i].p_flags & PF_X)
	&& (phdrs[i].p_offset & ~0xfffULL) == pgoff)
      {
	load_bias = start - (phdrs[i].p_vaddr & ~0xfffULL);
	have_bias = 1;
      }
}

/* Samples that asked for a deferred user callchain, and the deferred
   callchains, matched by thread and cookie once everything is read: the
   rings are read one CPU after another, so a callchain may be read
   before its sample, and one callchain serves every sample its task
   took before returning to user space.  */
struct pending { uint32_t tid; uint64_t cookie; uint64_t ip; };
struct deferred { uint32_t tid; uint64_t cookie; uint64_t nr; uint64_t *ips; };
static struct pending *pending;
static struct deferred *deferred;
static size_t npending, pending_cap, ndeferred, deferred_cap;
static uint64_t lost;

static void *
grow (void *p, size_t *cap, size_t n, size_t size)
{
  if (n < *cap)
    return p;
  *cap = *cap ? 2 * *cap : 256;
  p = realloc (p, *cap * size);
  if (p == NULL)
    die ("realloc");
  return p;
}

/* Print the user frames of a sample taken at IP; if there are none,
   the sample's own IP and a marker frame, so that it still counts.  */
static void
print_chain (uint64_t ip, const uint64_t *ips, uint64_t nr)
{
  int printed = 0;
  for (uint64_t i = 0; i < nr; i++)
    {
      if (ips[i] >= PERF_CONTEXT_MAX)
	continue;
      printf ("\t%16llx %s\n", (unsigned long long) ips[i], symbolize (ips[i]));
      printed++;
    }
  if (!printed)
    printf ("\t%16llx %s\n\t%16x [empty callchain]\n",
	    (unsigned long long) ip, symbolize (ip), 0);
  printf ("\n");
}

static void
handle (const struct perf_event_header *h, void *arg)
{
  (void) arg;
  const uint64_t *p = (const uint64_t *) (h + 1);
  if (h->type == PERF_RECORD_MMAP2)
    {
      /* pid, tid, addr, len, pgoff, then maj, min, ino, ino_generation
	 (or a build id), prot and flags: the file name is at byte 64.  */
      const struct { uint32_t pid, tid; uint64_t addr, len, pgoff; } *m
	= (const void *) p;
      note_mmap (m->addr, m->pgoff, (const char *) p + 64);
    }
  else if (h->type == PERF_RECORD_SAMPLE)
    {
      /* PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN */
      uint64_t ip = p[0];
      uint32_t tid = ((uint32_t *) &p[1])[1];
      uint64_t nr = p[2];
      const uint64_t *ips = &p[3];
      /* A user callchain to come: [..., PERF_CONTEXT_USER_DEFERRED, cookie]. */
      for (uint64_t i = 0; i + 1 < nr; i++)
	if (ips[i] == PERF_CONTEXT_USER_DEFERRED)
	  {
	    pending = grow (pending, &pending_cap, npending, sizeof *pending);
	    pending[npending++] = (struct pending) { tid, ips[i + 1], ip };
	    return;
	  }
      /* Sampled in user mode without deferral: print what we have.  */
      print_chain (ip, ips, nr);
    }
  else if (h->type == PERF_RECORD_CALLCHAIN_DEFERRED)
    {
      uint64_t cookie = p[0], nr = p[1];
      /* sample_id: PERF_SAMPLE_TID comes first.  */
      uint32_t tid = ((const uint32_t *) &p[2 + nr])[1];
      uint64_t *ips = malloc (nr * sizeof *ips + 1);
      if (ips == NULL)
	die ("malloc");
      memcpy (ips, &p[2], nr * sizeof *ips);
      deferred = grow (deferred, &deferred_cap, ndeferred, sizeof *deferred);
      deferred[ndeferred++] = (struct deferred) { tid, cookie, nr, ips };
    }
  else if (h->type == PERF_RECORD_LOST)
    lost += p[1];
}

/* Print every sample that waited for a deferred callchain.  One whose
   callchain never came is a stack the kernel did not give: it is
   printed as its IP and a marker frame, so that it counts against the
   share of whole stacks instead of vanishing from it.  */
static size_t
print_pending (void)
{
  size_t missing = 0;
  for (size_t i = 0; i < npending; i++)
    {
      size_t j;
      for (j = 0; j < ndeferred; j++)
	if (deferred[j].tid == pending[i].tid
	    && deferred[j].cookie == pending[i].cookie)
	  break;
      if (j < ndeferred)
	print_chain (pending[i].ip, deferred[j].ips, deferred[j].nr);
      else
	{
	  printf ("\t%16llx %s\n\t%16x [no deferred callchain]\n\n",
		  (unsigned long long) pending[i].ip,
		  symbolize (pending[i].ip), 0);
	  missing++;
	}
    }
  return missing;
}

int
main (int argc, char **argv)
{
  int freq = 1000, argi = 1;
  if (argi + 1 < argc && strcmp (argv[argi], "-F") == 0)
    {
      freq = atoi (argv[argi + 1]);
      argi += 2;
    }
  if (argi >= argc || freq <= 0)
    {
      fprintf (stderr, "usage: sample-chain [-F FREQ] PROGRAM [ARG...]\n");
      return 125;
    }
  if (!realpath (argv[argi], prog_path))
    die (argv[argi]);
  read_symbols (prog_path);

  int go[2];
  if (pipe (go) < 0)
    die ("pipe");
  pid_t pid = fork ();
  if (pid < 0)
    die ("fork");
  if (pid == 0)
    {
      char c;
      close (go[1]);
      if (read (go[0], &c, 1) != 1)
	_exit (125);
      execv (argv[argi], &argv[argi]);
      perror ("sample-chain: exec");
      _exit (125);
    }
  close (go[0]);

  struct perf_event_attr attr = {
    .size = sizeof attr,
    .type = PERF_TYPE_SOFTWARE,
    .config = PERF_COUNT_SW_CPU_CLOCK,
    .sample_freq = freq,
    .freq = 1,
    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN,
    .disabled = 1,
    .enable_on_exec = 1,
    .inherit = 1,
    .exclude_kernel = 1,
    .exclude_hv = 1,
    .mmap = 1,
    .mmap2 = 1,
    .task = 1,
    .sample_id_all = 1,
    .sample_max_stack = 1023,
    .defer_callchain = 1,
    .defer_output = 1,
  };
  /* The kernel does not let an inherited per-task event be mmapped, so
     open one per CPU, as perf record does.  */
  int ncpu = sysconf (_SC_NPROCESSORS_CONF);
  int *fds = calloc (ncpu, sizeof *fds);
  struct perf_event_mmap_page **metas = calloc (ncpu, sizeof *metas);
  size_t len = (1 + DATA_PAGES) * sysconf (_SC_PAGESIZE);
  for (int cpu = 0; cpu < ncpu; cpu++)
    {
      fds[cpu] = syscall (SYS_perf_event_open, &attr, pid, cpu, -1, 0);
      if (fds[cpu] < 0)
	die ("perf_event_open");
      metas[cpu] = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
			 fds[cpu], 0);
      if (metas[cpu] == MAP_FAILED)
	die ("mmap of the ring buffer");
    }
  if (write (go[1], "x", 1) != 1)
    die ("start");
  close (go[1]);

  int status;
  struct pollfd *pfds = calloc (ncpu, sizeof *pfds);
  for (int cpu = 0; cpu < ncpu; cpu++)
    pfds[cpu] = (struct pollfd) { fds[cpu], POLLIN, 0 };
  for (;;)
    {
      poll (pfds, ncpu, 100);
      for (int cpu = 0; cpu < ncpu; cpu++)
	perf_ring_drain (metas[cpu], handle, NULL);
      pid_t r = waitpid (pid, &status, WNOHANG);
      if (r == pid)
	break;
      if (r < 0)
	die ("waitpid");
    }
  for (int cpu = 0; cpu < ncpu; cpu++)
    perf_ring_drain (metas[cpu], handle, NULL);
  size_t missing = print_pending ();
  if (missing)
    fprintf (stderr, "sample-chain: %zu samples never got their user callchain\n",
	     missing);
  /* Samples lost to a full ring would vanish from the share.  */
  if (lost)
    {
      fprintf (stderr, "sample-chain: %llu samples lost\n",
	       (unsigned long long) lost);
      return 125;
    }
  return WIFEXITED (status) ? WEXITSTATUS (status) : 125;
}

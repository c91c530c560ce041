/* The rebuilt zlib and sqlite3 (scripts/rebuild-packages, FP-less with
   .sframe) used as a dlopen-heavy application uses its libraries: both
   loaded by path at run time and called through pointers from dlsym.
   rebuild.exp samples it with perf and asks that the stacks taken inside
   the libraries reach _start.

   Usage: rebuild-dlopen LIBDIR ROUNDS
   Prints the libraries' versions and a checksum of the work done.  */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*compress2_fn) (unsigned char *, unsigned long *,
			     const unsigned char *, unsigned long, int);
typedef int (*uncompress_fn) (unsigned char *, unsigned long *,
			      const unsigned char *, unsigned long);
typedef const char *(*version_fn) (void);
typedef int (*open_fn) (const char *, void **);
typedef int (*exec_fn) (void *, const char *,
			int (*) (void *, int, char **, char **), void *,
			char **);
typedef int (*close_fn) (void *);

/* Not inlined or cloned: rebuild.exp names it as main's callee in the
   stacks of the libraries' _init and constructors.  */
static void * __attribute__ ((noipa))
load (const char *dir, const char *name)
{
  char path[4096];
  snprintf (path, sizeof path, "%s/%s", dir, name);
  void *h = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL)
    {
      fprintf (stderr, "rebuild-dlopen: %s\n", dlerror ());
      exit (2);
    }
  return h;
}

static void *
sym (void *h, const char *name)
{
  void *p = dlsym (h, name);
  if (p == NULL)
    {
      fprintf (stderr, "rebuild-dlopen: %s\n", dlerror ());
      exit (2);
    }
  return p;
}

/* Text that compresses about as well as source code does.  */
static unsigned char *
make_input (size_t n)
{
  static const char *const words[] = { "static", "int", "return", "frame",
    "stack", "unwind", "(void)", "{", "}", ";\n", "sframe", "0x40" };
  unsigned char *buf = malloc (n);
  if (buf == NULL)
    exit (2);
  size_t i = 0;
  unsigned int k = 1;
  while (i < n)
    {
      k = k * 1103515245u + 12345u;
      const char *w = words[(k >> 16) % 12];
      size_t l = strlen (w);
      if (l > n - i)
	l = n - i;
      memcpy (buf + i, w, l);
      i += l;
      if (i < n)
	buf[i++] = ' ';
    }
  return buf;
}

static unsigned long __attribute__ ((noinline))
run_zlib (void *z, int rounds)
{
  compress2_fn compress2 = (compress2_fn) sym (z, "compress2");
  uncompress_fn uncompress = (uncompress_fn) sym (z, "uncompress");
  size_t n = 1 << 20;
  unsigned char *in = make_input (n);
  unsigned long cap = n + n / 100 + 1024;
  unsigned char *c = malloc (cap), *d = malloc (n);
  unsigned long sum = 0;
  if (c == NULL || d == NULL)
    exit (2);
  for (int r = 0; r < rounds; r++)
    {
      unsigned long clen = cap, dlen = n;
      if (compress2 (c, &clen, in, n, 6 + r % 4) != 0
	  || uncompress (d, &dlen, c, clen) != 0 || dlen != n
	  || memcmp (d, in, n) != 0)
	{
	  fprintf (stderr, "rebuild-dlopen: zlib round %d failed\n", r);
	  exit (1);
	}
      sum += clen;
    }
  free (in);
  free (c);
  free (d);
  return sum;
}

static int
count_row (void *arg, int ncol, char **val, char **name)
{
  (void) name;
  unsigned long *sum = arg;
  for (int i = 0; i < ncol; i++)
    if (val[i] != NULL)
      *sum += strtoul (val[i], NULL, 10);
  return 0;
}

static unsigned long __attribute__ ((noinline))
run_sqlite (void *s, int rounds)
{
  open_fn open = (open_fn) sym (s, "sqlite3_open");
  exec_fn exec = (exec_fn) sym (s, "sqlite3_exec");
  close_fn close = (close_fn) sym (s, "sqlite3_close");
  void *db;
  unsigned long sum = 0;
  if (open (":memory:", &db) != 0)
    exit (1);
  static const char setup[] =
    "create table t (id integer primary key, k text, v integer);"
    "with recursive n(i) as (select 1 union all select i + 1 from n"
    " where i < 20000) insert into t (k, v)"
    " select 'key' || (i * 7919 % 500), i from n;"
    "create index tk on t (k);";
  if (exec (db, setup, NULL, NULL, NULL) != 0)
    exit (1);
  for (int r = 0; r < rounds; r++)
    if (exec (db, "select sum(v) from t group by k order by 1 desc;"
	      "select count(*) from t a join t b on a.k = b.k"
	      " where a.id % 97 = 0;", count_row, &sum, NULL) != 0)
      exit (1);
  close (db);
  return sum;
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: rebuild-dlopen LIBDIR ROUNDS\n");
      return 2;
    }
  int rounds = atoi (argv[2]);
  void *z = load (argv[1], "libz.so.1");
  void *s = load (argv[1], "libsqlite3.so.0");
  printf ("zlib %s\n", ((version_fn) sym (z, "zlibVersion")) ());
  printf ("sqlite3 %s\n", ((version_fn) sym (s, "sqlite3_libversion")) ());
  unsigned long a = run_zlib (z, rounds);
  unsigned long b = run_sqlite (s, rounds);
  printf ("checksum %lu %lu\n", a, b);
  dlclose (s);
  dlclose (z);
  return 0;
}

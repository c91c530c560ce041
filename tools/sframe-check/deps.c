/* deps.c -- the objects that ld.so loads for a program, for
   sframe-check --deps.  What follows is elf/dl-load.c's _dl_map_object
   and its helpers, as Debian 12's glibc (2.36) builds them for x86-64,
   with what a program's start-up needs, set-user-ID secure mode too:
   no LD_PRELOAD, no dlopen, no hwcaps subdirectories.  A program whose
   interpreter is not Debian's but is named ld-linux-x86-64.so.2 is
   taken to name a glibc installed under a prefix, whose ld.so looks in
   its own directory and reads the prefix's etc/ld.so.cache; what
   another interpreter loads is not followed.  */

#define _GNU_SOURCE
#include "deps.h"

#include <ctype.h>
#include <errno.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What $PLATFORM stands for (AT_PLATFORM): not glibc's haswell or
   xeon_phi, which init_cpu_features sets on some Intel CPUs.  */
#define DST_PLATFORM "x86_64"

/* An ld.so: its system directories, the last resort (SYSTEM_DIRS,
   each ending in '/'; `ld.so --help' lists them), what $LIB stands for
   (DL_DST_LIB) and its cache.  */
struct deps_ldso
{
  char *dir;			/* Of its interpreter; NULL for Debian's.  */
  const char *system_dirs[4];
  size_t ndirs;
  char *dst_lib;
  char *cache_path;
  struct deps_cache cache;
  bool cache_read;
};

/* Debian 12's.  */
static struct deps_ldso debian_ldso = {
  NULL,
  { "/lib/x86_64-linux-gnu/", "/usr/lib/x86_64-linux-gnu/", "/lib/",
    "/usr/lib/" }, 4,
  (char *) "lib/x86_64-linux-gnu", (char *) "/etc/ld.so.cache",
  { NULL, NULL, 0 }, false,
};
static const char debian_interp[] = "/lib64/ld-linux-x86-64.so.2";

/* The others met in the run.  */
static struct deps_ldso **prefix_ldsos;
static size_t nprefix_ldsos;

/* The files met in the run, a tree by device and inode: a run over
   thousands of programs looks each of their objects up.  */
static void *files;

static int
file_cmp (const void *a, const void *b)
{
  const struct deps_file *x = a, *y = b;

  if (x->dev != y->dev)
    return x->dev < y->dev ? -1 : 1;
  return x->ino < y->ino ? -1 : x->ino > y->ino;
}

struct deps_file *
deps_file_find (dev_t dev, ino_t ino)
{
  struct deps_file key = { .dev = dev, .ino = ino };
  struct deps_file **f = tfind (&key, &files, file_cmp);

  return f != NULL ? *f : NULL;
}

struct deps_file *
deps_file_add (dev_t dev, ino_t ino, const char *name)
{
  struct deps_file *f = calloc (1, sizeof *f);

  if (f == NULL)
    abort ();
  f->dev = dev;
  f->ino = ino;
  f->name = sframe_xstrdup (name);
  f->node = -1;
  if (tsearch (f, &files, file_cmp) == NULL)
    abort ();
  return f;
}

/* Parse an ld.so.cache in the format that glibc 2.32 and later write
   (elf/dl-cache.c, sysdeps/generic/dl-cache.h): "glibc-ld.so.cache1.1",
   the number of entries, the size of the string table, then from
   offset 48 entries of 24 bytes (flags, key, value, unused, hwcap),
   whose key (the name) and value (the path) are offsets from the start
   of the file.  Kept are the entries that ld.so takes on x86-64: flags
   FLAG_ELF_LIBC6 | FLAG_X8664_LIB64 (_DL_CACHE_DEFAULT_ID, 0x303) and
   no hwcap (the glibc-hwcaps ones, which ld.so prefers on a CPU that
   has the hwcaps, are not modelled).  They are sorted once, as ld.so's
   binary search finds them in the file.  */

static int
cache_entry_cmp (const void *a, const void *b)
{
  const struct deps_cache_entry *x = a, *y = b;
  int c = strcmp (x->name, y->name);

  if (c != 0)
    return c;
  return x->order < y->order ? -1 : x->order > y->order;
}

void
deps_cache_parse (struct deps_cache *c, const void *data, size_t size)
{
  static const char magic[] = "glibc-ld.so.cache1.1";
  uint32_t nlibs;

  memset (c, 0, sizeof *c);
  if (size < 48 || memcmp (data, magic, sizeof magic - 1) != 0)
    return;
  /* Every string ends inside the copy.  */
  c->data = malloc (size + 1);
  if (c->data == NULL)
    abort ();
  memcpy (c->data, data, size);
  c->data[size] = 0;
  memcpy (&nlibs, c->data + 20, 4);
  if (nlibs > (size - 48) / 24)
    return;
  c->entries = malloc (((size_t) nlibs + 1) * sizeof *c->entries);
  if (c->entries == NULL)
    abort ();
  for (uint32_t i = 0; i < nlibs; i++)
    {
      const char *e = c->data + 48 + 24 * (size_t) i;
      int32_t flags;
      uint32_t key, value;
      uint64_t hwcap;

      memcpy (&flags, e, 4);
      memcpy (&key, e + 4, 4);
      memcpy (&value, e + 8, 4);
      memcpy (&hwcap, e + 16, 8);
      if (flags == 0x303 && hwcap == 0 && key < size && value < size)
	{
	  c->entries[c->n].name = c->data + key;
	  c->entries[c->n].path = c->data + value;
	  c->entries[c->n].order = c->n;
	  c->n++;
	}
    }
  qsort (c->entries, c->n, sizeof *c->entries, cache_entry_cmp);
}

/* ldconfig sorts the entries of one name by preference: ld.so takes
   the first.  */
const char *
deps_cache_lookup (const struct deps_cache *c, const char *name)
{
  size_t lo = 0, hi = c->n;

  /* The first entry of NAME.  */
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (strcmp (c->entries[mid].name, name) < 0)
	lo = mid + 1;
      else
	hi = mid;
    }
  if (lo < c->n && strcmp (c->entries[lo].name, name) == 0)
    return c->entries[lo].path;
  return NULL;
}

void
deps_cache_free (struct deps_cache *c)
{
  free (c->data);
  free (c->entries);
  memset (c, 0, sizeof *c);
}

/* The cache of L, read once.  A cache that cannot be read is as none,
   as for ld.so.  */
static const struct deps_cache *
ld_cache (struct deps_ldso *l)
{
  struct elfobj_file f;
  int err;

  if (!l->cache_read)
    {
      l->cache_read = true;
      if (elfobj_map (l->cache_path, &f, &err) == ELFOBJ_MAPPED)
	{
	  deps_cache_parse (&l->cache, f.data, f.size);
	  elfobj_unmap (&f);
	}
    }
  return &l->cache;
}

/* The directory of the file PATH, absolute, as dl-object.c makes an
   object's l_origin of the name it was opened by (without resolving
   symbolic links).  */
static char *
origin_of (const char *path)
{
  const char *slash = strrchr (path, '/');
  char *dir;

  if (path[0] == '/')
    {
      /* "/libfoo.so" is in "/".  */
      dir = strndup (path, slash == path ? 1 : (size_t) (slash - path));
      if (dir == NULL)
	abort ();
      return dir;
    }
  {
    char *cwd = getcwd (NULL, 0);

    if (cwd == NULL)
      return NULL;
    if (asprintf (&dir, "%s/%.*s", cwd, slash ? (int) (slash - path) : 0,
		  path) < 0)
      abort ();
    free (cwd);
    if (slash == NULL)
      dir[strlen (dir) - 1] = 0;
    return dir;
  }
}

/* The ld.so whose file, named INTERP by PT_INTERP, is of device DEV and
   inode INO.  Debian's is known by its file; any other is taken for a
   glibc built with --prefix=PREFIX and installed there, INTERP being
   PREFIX/lib/ld-linux-x86-64.so.2: its SYSTEM_DIRS is $(slibdir), its
   DL_DST_LIB that without the leading '/', its cache
   PREFIX/etc/ld.so.cache (elf/Makefile, Makeconfig).  Derived from the
   path: the interpreter is not run (its --help would say), as nothing
   of what is checked is.  NULL for an interpreter not named
   ld-linux-x86-64.so.2, not glibc's.  */
static struct deps_ldso *
ldso_of (const char *interp, dev_t dev, ino_t ino)
{
  static bool debian_known;
  static dev_t debian_dev;
  static ino_t debian_ino;
  struct deps_ldso *l;
  char *abs, *dir, *slash;

  if (!debian_known)
    {
      struct elfobj_file f;
      int err;

      debian_known = true;
      if (elfobj_map (debian_interp, &f, &err) == ELFOBJ_MAPPED)
	{
	  debian_dev = f.dev;
	  debian_ino = f.ino;
	  elfobj_unmap (&f);
	}
      else
	debian_ino = 0;
    }
  if (strcmp (interp, debian_interp) == 0
      || (debian_ino != 0 && dev == debian_dev && ino == debian_ino))
    return &debian_ldso;
  /* Another ld.so (musl's, another architecture's): not modelled.  */
  slash = strrchr (interp, '/');
  if (strcmp (slash != NULL ? slash + 1 : interp, "ld-linux-x86-64.so.2") != 0)
    return NULL;

  /* Its directory, absolute: the kernel opens a relative PT_INTERP
     from the current directory.  */
  abs = origin_of (interp);
  if (abs == NULL)
    return &debian_ldso;
  for (size_t i = 0; i < nprefix_ldsos; i++)
    if (strcmp (prefix_ldsos[i]->dir, abs) == 0)
      {
	free (abs);
	return prefix_ldsos[i];
      }
  l = calloc (1, sizeof *l);
  if (l == NULL)
    abort ();
  l->dir = abs;
  if (asprintf (&dir, "%s%s", abs, strcmp (abs, "/") == 0 ? "" : "/") < 0)
    abort ();
  l->system_dirs[0] = dir;
  l->ndirs = 1;
  l->dst_lib = sframe_xstrdup (abs + 1);
  slash = strrchr (abs, '/');
  if (asprintf (&l->cache_path, "%.*s/etc/ld.so.cache",
		(int) (slash - abs), abs) < 0)
    abort ();
  prefix_ldsos = sframe_grow (prefix_ldsos, nprefix_ldsos,
			      sizeof *prefix_ldsos);
  prefix_ldsos[nprefix_ldsos++] = l;
  return l;
}

/* Is the dynamic string token REF at S ($ORIGIN or ${ORIGIN}, not
   $ORIGINAL)?  Its length, braces counted, or 0 (is_dst).  */
static size_t
is_dst (const char *s, const char *ref)
{
  bool curly = s[0] == '{';
  size_t len = strlen (ref);

  if (strncmp (s + curly, ref, len) != 0
      || (curly && s[len + 1] != '}')
      || (!curly && (isalnum ((unsigned char) s[len]) || s[len] == '_')))
    return 0;
  return len + 2 * curly;
}

/* Does S hold a dynamic string token (_dl_dst_count)?  */
static bool
has_dst (const char *s)
{
  for (s = strchr (s, '$'); s != NULL; s = strchr (s + 1, '$'))
    if (is_dst (s + 1, "ORIGIN") || is_dst (s + 1, "PLATFORM")
	|| is_dst (s + 1, "LIB"))
      return true;
  return false;
}

/* Is PATH, normalized, in one of L's system directories
   (is_trusted_path_normalize)?  */
static bool
is_trusted (const struct deps_ldso *l, const char *path)
{
  char *npath = malloc (strlen (path) + 2), *wnp = npath;
  bool trusted = false;

  if (npath == NULL)
    abort ();
  if (*path == 0)
    {
      free (npath);
      return false;
    }
  while (*path != 0)
    {
      if (path[0] == '/')
	{
	  if (path[1] == '.' && path[2] == '.'
	      && (path[3] == '/' || path[3] == 0))
	    {
	      while (wnp > npath && *--wnp != '/')
		;
	      path += 3;
	      continue;
	    }
	  if (path[1] == '.' && (path[2] == '/' || path[2] == 0))
	    {
	      path += 2;
	      continue;
	    }
	  if (wnp > npath && wnp[-1] == '/')
	    {
	      path++;
	      continue;
	    }
	}
      *wnp++ = *path++;
    }
  if (wnp == npath || wnp[-1] != '/')
    *wnp++ = '/';
  for (size_t i = 0; i < l->ndirs && !trusted; i++)
    trusted = (size_t) (wnp - npath) >= strlen (l->system_dirs[i])
	      && memcmp (npath, l->system_dirs[i],
			 strlen (l->system_dirs[i])) == 0;
  free (npath);
  return trusted;
}

/* S, a path or a path list's element of node OWNER of W (-1: of ld.so
   itself), with its dynamic string tokens replaced, as
   _dl_dst_substitute does: NULL where ld.so drops the path, as when
   its $ORIGIN is not known.  An unknown token stays as it is.  In a
   set-user-ID program, $ORIGIN is taken only at the start of S, whole
   or followed by '/', and then, in the program's own paths, only if S
   is in a system directory once normalized.  */
static char *
expand_dst (const struct deps_walk *w, const char *s, long owner)
{
  const char *start = s;
  const char *origin = owner >= 0 ? w->nodes[owner].origin : NULL;
  bool check_trusted = false;
  char *out;
  size_t size;
  FILE *f = open_memstream (&out, &size);

  if (f == NULL)
    abort ();
  while (*s)
    {
      const char *repl = NULL;
      size_t len = 0;

      if (*s == '$')
	{
	  if ((len = is_dst (s + 1, "ORIGIN")) != 0)
	    {
	      if (w->secure
		  && !(s == start && (s[1 + len] == 0 || s[1 + len] == '/')))
		repl = NULL;
	      else
		repl = origin;
	      check_trusted = w->secure && owner == 0 && w->program;
	    }
	  else if ((len = is_dst (s + 1, "PLATFORM")) != 0)
	    repl = DST_PLATFORM;
	  else if ((len = is_dst (s + 1, "LIB")) != 0)
	    repl = w->ldso->dst_lib;
	  if (len != 0 && repl == NULL)
	    {
	      fclose (f);
	      free (out);
	      return NULL;
	    }
	}
      if (repl != NULL)
	{
	  fputs (repl, f);
	  s += 1 + len;
	}
      else
	fputc (*s++, f);
    }
  if (fclose (f) != 0)
    abort ();
  if (check_trusted && !is_trusted (w->ldso, out))
    {
      free (out);
      return NULL;
    }
  return out;
}

/* Where a search stands after a candidate.  */
enum lookup
{
  LOOKUP_FOUND,			/* The object.  */
  LOOKUP_NEXT,			/* Not there: the search goes on.  */
  LOOKUP_END_LIST,		/* Not there, and the rest of this list of
				   directories is passed over (open_path).  */
  LOOKUP_STOP,			/* What ld.so cannot load: it gives up.  */
};

/* The search under way passed over an object of another class
   (found_other_class); the errno value of its last open that failed, 0
   if none did, which ld.so's message ends with.  */
static bool found_other_class;
static int last_errno;

/* strerror as ld.so has it when it starts (elf/dl-minimal.c): a few
   messages, else "Error N".  */
static const char *
ldso_strerror (int err)
{
  static char buf[32];

  switch (err)
    {
    case ENOMEM:
      return "Cannot allocate memory";
    case EINVAL:
      return "Invalid argument";
    case ENOENT:
      return "No such file or directory";
    case EPERM:
      return "Operation not permitted";
    case EIO:
      return "Input/output error";
    case EACCES:
      return "Permission denied";
    default:
      snprintf (buf, sizeof buf, "Error %d", err);
      return buf;
    }
}

/* What is wrong with the ELF header of M for ld.so (open_verify, in
   its order): NULL if nothing, "" for another class or machine, which
   it passes over (found_other_class), else its message.  */
static const char *
verify_header (const struct elfobj_file *m)
{
  const unsigned char *e = m->data;
  uint16_t type, machine;

  if (m->size < sizeof (Elf64_Ehdr))
    return "file too short";
  memcpy (&type, e + 16, 2);
  memcpy (&machine, e + 18, 2);
  if (memcmp (e, ELFMAG, SELFMAG) != 0)
    return "invalid ELF header";
  if (e[EI_CLASS] != ELFCLASS64)
    return "";
  if (e[EI_DATA] != ELFDATA2LSB)
    return "ELF file data encoding not little-endian";
  if (machine != EM_X86_64)
    return "";
  if (type != ET_DYN && type != ET_EXEC)
    return "only ET_DYN and ET_EXEC can be loaded";
  return NULL;
}

/* Open PATH as ld.so's open_verify does: a file that is not there or
   cannot be opened, or an ELF object of another class or machine, is
   passed over; one that is not an object ld.so loads (a directory too)
   stops the search, with *WHY.  A new object is checked by C.  */
static enum lookup
try_object (const struct deps_config *c, const char *path,
	    struct deps_file **file, char **why)
{
  struct elfobj_file m;
  const char *bad;
  int err;

  switch (elfobj_map (path, &m, &err))
    {
    case ELFOBJ_MAPPED:
      break;
    case ELFOBJ_CANNOT_OPEN:
      last_errno = err;
      /* "Continue the search if the file does not exist (ENOENT), if it
	 can not be accessed (EACCES), or if the a component in the path
	 is not a directory"; else the rest of the list is passed over.  */
      return err == ENOENT || err == EACCES || err == ENOTDIR
	     ? LOOKUP_NEXT : LOOKUP_END_LIST;
    case ELFOBJ_DIRECTORY:
      /* Opened, but reading its ELF header fails.  */
      if (asprintf (why, "%s: cannot read file data: %s", path,
		    ldso_strerror (EISDIR)) < 0)
	abort ();
      return LOOKUP_STOP;
    case ELFOBJ_NOT_REGULAR:
      /* Devices, FIFOs, sockets: not modelled.  */
      return LOOKUP_NEXT;
    case ELFOBJ_CANNOT_READ:
      /* Opened by ld.so, but not read here.  */
      c->read_error (path, err, c->arg);
      *why = NULL;
      return LOOKUP_STOP;
    }
  /* Opened already: the same object (_dl_map_object_from_fd compares
     the device and inode).  */
  *file = deps_file_find (m.dev, m.ino);
  if (*file != NULL && (*file)->known)
    {
      elfobj_unmap (&m);
      return LOOKUP_FOUND;
    }
  bad = verify_header (&m);
  if (bad != NULL && *bad == 0)
    {
      found_other_class |= ((const unsigned char *) m.data)[EI_CLASS]
			   != ELFCLASS64;
      elfobj_unmap (&m);
      return LOOKUP_NEXT;
    }
  if (bad != NULL)
    {
      elfobj_unmap (&m);
      if (asprintf (why, "%s: %s", path, bad) < 0)
	abort ();
      return LOOKUP_STOP;
    }
  *file = c->check (path, &m, c->arg);
  elfobj_unmap (&m);
  return LOOKUP_FOUND;
}

/* Look for NAME in the directories of LIST, separated by one of SEPS,
   a path list of node OWNER of W (-1: of ld.so itself) (open_path over
   a list that fillin_rpath made: an empty element is the current
   directory).  */
static enum lookup
search_list (const struct deps_config *c, const struct deps_walk *w,
	     const char *list, const char *seps, long owner,
	     const char *name, struct deps_file **file, char **path,
	     char **why)
{
  const char *p = list;

  for (;;)
    {
      size_t len = strcspn (p, seps);
      char *elem = strndup (p, len), *dir, *cand;
      enum lookup t = LOOKUP_NEXT;

      if (elem == NULL)
	abort ();
      dir = expand_dst (w, elem, owner);
      free (elem);
      /* An element whose token cannot be expanded is dropped, as one
	 that expands to nothing; an empty one is the current
	 directory.  */
      if (dir != NULL && (dir[0] != 0 || len == 0))
	{
	  size_t l = strlen (dir);

	  /* fillin_rpath drops the trailing slashes but for "/", and adds
	     one.  */
	  while (l > 1 && dir[l - 1] == '/')
	    l--;
	  if (asprintf (&cand, "%.*s%s%s", (int) l, dir,
			l > 0 && dir[l - 1] != '/' ? "/" : "", name) < 0)
	    abort ();
	  t = try_object (c, cand, file, why);
	  /* open_path passes over the rest of the list only if the
	     directory is there (here_any): one that stat does not find
	     a directory (a loop of symbolic links) is passed over.  */
	  if (t == LOOKUP_END_LIST)
	    {
	      char *d = strndup (cand, strlen (cand) - strlen (name)
					- (l > 0 ? 1 : 0));

	      if (d == NULL)
		abort ();
	      if (!elfobj_is_directory (d))
		t = LOOKUP_NEXT;
	      free (d);
	    }
	  if (t == LOOKUP_FOUND)
	    *path = cand;
	  else
	    free (cand);
	}
      free (dir);
      if (t == LOOKUP_END_LIST)
	return LOOKUP_NEXT;
      if (t != LOOKUP_NEXT || p[len] == 0)
	return t;
      p += len + 1;
    }
}

/* Does PATH start with one of L's system directories?  A prefix, as
   _dl_map_object compares a cache entry under DF_1_NODEFLIB: "/lib/"
   holds /lib/x86_64-linux-gnu/libm.so.6 too.  */
static bool
in_system_dir (const struct deps_ldso *l, const char *path)
{
  for (size_t i = 0; i < l->ndirs; i++)
    if (strncmp (path, l->system_dirs[i], strlen (l->system_dirs[i])) == 0)
      return true;
  return false;
}

/* Find the object NAME that node LOADER of W needs, in _dl_map_new_object's
   order; *PATH where it is.  NAME has no '/'.  */
static enum lookup
search (const struct deps_config *c, const struct deps_walk *w, long loader,
	const char *name, struct deps_file **file, char **path, char **why)
{
  const struct deps_node *ld = &w->nodes[loader];
  /* A set-user-ID program's ld.so unsets LD_LIBRARY_PATH.  */
  const char *llp = w->secure ? NULL : c->library_path;
  const char *cached;
  enum lookup t;

  /* "When the object has the RUNPATH information we don't use any
     RPATHs": else the DT_RPATH of the object that needs NAME, then of
     the one that loaded that one, and on up to the program (whose own
     DT_RPATH glibc tries separately for what dlopen loads, whose chain
     need not reach it: here every chain does).  */
  if (ld->file->link.runpath == NULL)
    for (long l = loader; l >= 0; l = w->nodes[l].loader)
      if (w->nodes[l].file->link.rpath != NULL
	  && (t = search_list (c, w, w->nodes[l].file->link.rpath, ":", l,
			       name, file, path, why)) != LOOKUP_NEXT)
	return t;

  /* LD_LIBRARY_PATH, whose $ORIGIN is the program's.  */
  if (llp != NULL && *llp != 0
      && (t = search_list (c, w, llp, ":;", 0, name, file, path,
			   why)) != LOOKUP_NEXT)
    return t;

  /* The DT_RUNPATH of the object that needs NAME, and of no other.  */
  if (ld->file->link.runpath != NULL
      && (t = search_list (c, w, ld->file->link.runpath, ":", loader, name,
			   file, path, why)) != LOOKUP_NEXT)
    return t;

  /* /etc/ld.so.cache; "If the loader has the DF_1_NODEFLIB flag set we
     must not use a cache entry from any of these directories", the
     system ones.  */
  cached = deps_cache_lookup (ld_cache (w->ldso), name);
  if (cached != NULL && ld->file->link.nodeflib
      && in_system_dir (w->ldso, cached))
    cached = NULL;
  if (cached != NULL)
    {
      t = try_object (c, cached, file, why);
      if (t == LOOKUP_FOUND)
	*path = sframe_xstrdup (cached);
      if (t != LOOKUP_NEXT && t != LOOKUP_END_LIST)
	return t;
    }

  /* "Finally, try the default path."  */
  if (!ld->file->link.nodeflib)
    for (size_t i = 0; i < w->ldso->ndirs; i++)
      if ((t = search_list (c, w, w->ldso->system_dirs[i], "", -1, name,
			    file, path, why)) != LOOKUP_NEXT)
	return t;
  return LOOKUP_NEXT;
}

/* What a node answers to (_dl_lookup_map compares each name with each
   object in turn): a name it was needed as, the name it was found under
   (but the program's l_name is "") or its DT_SONAME.  A table of them,
   open-addressed, which doubles as it fills: the first node in the
   walk's order that answers to a name has it (a name is entered once,
   as no node answered to it before), so that a walk of many DT_NEEDED
   is not quadratic.  */
static uint32_t gnu_hash (const char *name);

struct deps_name_slot
{
  const char *name;		/* NULL: an empty slot.  */
  long node;
};

static struct deps_name_slot *
name_slot (struct deps_name_slot *t, size_t size, const char *name)
{
  for (size_t i = gnu_hash (name) & (size - 1);; i = (i + 1) & (size - 1))
    if (t[i].name == NULL || strcmp (t[i].name, name) == 0)
      return &t[i];
}

/* The node that answers to NAME in W, or -1.  */
static long
name_node (const struct deps_walk *w, const char *name)
{
  struct deps_name_slot *e;

  if (w->names_size == 0)
    return -1;
  e = name_slot (w->names, w->names_size, name);
  return e->name != NULL ? e->node : -1;
}

/* Node NODE of W answers to NAME (kept by the node) unless one before
   does.  */
static void
add_name (struct deps_walk *w, const char *name, long node)
{
  struct deps_name_slot *e;

  if (name == NULL)
    return;
  if (2 * (w->nnames + 1) > w->names_size)
    {
      size_t size = w->names_size ? 2 * w->names_size : 64;
      struct deps_name_slot *t = calloc (size, sizeof *t);

      if (t == NULL)
	abort ();
      for (size_t i = 0; i < w->names_size; i++)
	if (w->names[i].name != NULL)
	  *name_slot (t, size, w->names[i].name) = w->names[i];
      free (w->names);
      w->names = t;
      w->names_size = size;
    }
  e = name_slot (w->names, w->names_size, name);
  if (e->name == NULL)
    {
      e->name = name;
      e->node = node;
      w->nnames++;
    }
}

/* The node of FILE in W, or NULL.  */
static struct deps_node *
node_of_file (struct deps_walk *w, const struct deps_file *file)
{
  return file->node >= 0 ? &w->nodes[file->node] : NULL;
}

static struct deps_node *
add_node (struct deps_walk *w, const char *name, long loader)
{
  struct deps_node *d;

  w->nodes = sframe_grow (w->nodes, w->n, sizeof *w->nodes);
  d = &w->nodes[w->n++];
  memset (d, 0, sizeof *d);
  d->loader = loader;
  if (name != NULL)
    {
      sframe_push_name (&d->names, &d->nnames, name);
      add_name (w, d->names[0], w->n - 1);
    }
  return d;
}

/* Load NAME, which node LOADER of W needs, unless loaded already
   (_dl_map_object).  */
static void
load (const struct deps_config *c, struct deps_walk *w, long loader,
      const char *needed)
{
  struct deps_file *file = NULL;
  struct deps_node *d;
  char *name, *path = NULL, *why = NULL;
  enum lookup t;

  /* DT_NEEDED may hold tokens too (dl-deps.c's expand_dst), which a
     set-user-ID program's ld.so refuses.  */
  if (!has_dst (needed))
    name = sframe_xstrdup (needed);
  else if (w->secure)
    {
      d = add_node (w, needed, loader);
      if (asprintf (&d->why, "%s: DST not allowed in SUID/SGID programs",
		    needed) < 0)
	abort ();
      return;
    }
  else if ((name = expand_dst (w, needed, loader)) == NULL)
    {
      d = add_node (w, needed, loader);
      if (asprintf (&d->why, "%s: empty dynamic string token substitution",
		    needed) < 0)
	abort ();
      return;
    }
  if (name_node (w, name) >= 0)
    {
      free (name);
      return;
    }
  found_other_class = false;
  last_errno = 0;
  if (strchr (name, '/') != NULL)
    {
      t = try_object (c, name, &file, &why);
      if (t == LOOKUP_FOUND)
	path = sframe_xstrdup (name);
    }
  else
    t = search (c, w, loader, name, &file, &path, &why);

  /* The same object under another name, but for a program's own file:
     ld.so knows the program by neither its name nor its device and
     inode (the main map has none), so it opens it again and refuses an
     executable.  */
  if (t == LOOKUP_FOUND && (d = node_of_file (w, file)) != NULL
      && !(d == &w->nodes[0] && w->program
	   && (file->link.et_exec || file->link.pie)))
    {
      /* The same object under another name.  */
      sframe_push_name (&d->names, &d->nnames, name);
      add_name (w, d->names[d->nnames - 1], d - w->nodes);
      free (path);
      free (name);
      return;
    }
  /* What _dl_map_object_from_fd refuses to load: it was opened, but
     it is not loaded.  */
  if (t == LOOKUP_FOUND && (file->link.et_exec || file->link.pie))
    {
      t = LOOKUP_STOP;
      free (path);
      path = NULL;
      if (asprintf (&why, "%s: cannot dynamically load %sexecutable", name,
		    file->link.et_exec ? "" : "position-independent ") < 0)
	abort ();
    }
  d = add_node (w, name, loader);
  if (t == LOOKUP_FOUND)
    {
      d->file = file;
      file->node = d - w->nodes;
      d->path = path;
      add_name (w, path, file->node);
      add_name (w, file->link.soname, file->node);
      d->origin = origin_of (path);
    }
  else if (t == LOOKUP_STOP && why == NULL)
    d->unreadable = true;
  else if (why != NULL)
    d->why = why;
  /* Not found: as _dl_map_object says it.  */
  else if (found_other_class)
    {
      if (asprintf (&d->why, "%s: wrong ELF class: ELFCLASS32", name) < 0)
	abort ();
    }
  else
    {
      if (asprintf (&d->why, "%s: cannot open shared object file%s%s",
		    name, last_errno ? ": " : "",
		    last_errno ? ldso_strerror (last_errno) : "") < 0)
	abort ();
    }
  free (name);
}

/* The functions that the files of the run export: for each name, the
   files that define it, in a hash table that doubles as it fills.  Each
   file's exports are entered once in the run, so that a walk binds its
   imports at the cost of the imports, not of the exports of all that
   it loads (libLLVM's are 100,000).  */
struct definition
{
  char *name;			/* NULL: an empty slot.  */
  struct deps_file **files;
  unsigned long nfiles;
  unsigned long bound;		/* The last walk that listed it in the
				   stops of the node that defines it.  */
};

static struct definition *definitions;
static size_t ndefinitions, definitions_size;

/* The walks of the run, counted.  */
static unsigned long walks;

/* The GNU hash of NAME (dl_new_hash, as DT_GNU_HASH has it).  (Not
   hsearch: glibc's hash of a string is its first few bytes, which the
   mangled names of a C++ library share.)  */
static uint32_t
gnu_hash (const char *name)
{
  uint32_t h = 5381;

  for (const unsigned char *p = (const unsigned char *) name; *p; p++)
    h = h * 33 + *p;
  return h;
}

/* The slot of NAME: where it is, or the empty one where it goes.  */
static struct definition *
lookup_definition (const char *name)
{
  size_t mask = definitions_size - 1;

  for (size_t i = gnu_hash (name) & mask;; i = (i + 1) & mask)
    if (definitions[i].name == NULL
	|| strcmp (definitions[i].name, name) == 0)
      return &definitions[i];
}

/* Enter the exports of F.  */
static void
add_definitions (struct deps_file *f)
{
  f->exports_entered = true;
  for (unsigned long e = 0; e < f->link.nexports; e++)
    {
      struct definition *def;

      /* At most half full: else twice the room, and every name again.  */
      if (2 * (ndefinitions + 1) > definitions_size)
	{
	  struct definition *old = definitions;
	  size_t old_size = definitions_size;

	  definitions_size = old_size ? 2 * old_size : 1024;
	  definitions = calloc (definitions_size, sizeof *definitions);
	  if (definitions == NULL)
	    abort ();
	  for (size_t i = 0; i < old_size; i++)
	    if (old[i].name != NULL)
	      *lookup_definition (old[i].name) = old[i];
	  free (old);
	}
      def = lookup_definition (f->link.exports[e]);
      if (def->name == NULL)
	{
	  def->name = f->link.exports[e];
	  ndefinitions++;
	}
      def->files = sframe_grow (def->files, def->nfiles, sizeof *def->files);
      def->files[def->nfiles++] = f;
    }
}

/* Bind the functions that the objects of W import to the first object
   in load order that defines them, as ld.so's lookup in the global
   scope does (symbol versions aside), and list those of each object
   that the kernel unwinds neither way, the program's first.  (The
   interpreter, which the kernel maps first, is second here; ld.so puts
   it in the scope where an object needs it, but the functions it
   exports are defined nowhere else.)  */
static void
bind_imports (struct deps_walk *w)
{
  for (size_t i = 0; i < w->n; i++)
    if (w->nodes[i].file != NULL && !w->nodes[i].file->exports_entered)
      add_definitions (w->nodes[i].file);
  if (definitions_size == 0)
    return;
  for (size_t i = 0; i < w->n; i++)
    {
      const struct deps_file *f = w->nodes[i].file;

      for (unsigned long m = 0; f != NULL && m < f->link.nimports; m++)
	{
	  struct definition *def = lookup_definition (f->link.imports[m]);
	  struct deps_node *d = NULL;

	  /* Of the files that define it, the first in W.  */
	  for (unsigned long k = 0; k < def->nfiles; k++)
	    if (def->files[k]->node >= 0
		&& (d == NULL || def->files[k]->node < d - w->nodes))
	      d = &w->nodes[def->files[k]->node];
	  if (d != NULL && d->file->checked && !d->file->accepted
	      && !d->file->frame_pointers && def->bound != walks)
	    {
	      d->stops = sframe_grow (d->stops, d->nstops, sizeof *d->stops);
	      d->stops[d->nstops++] = def->name;
	      def->bound = walks;
	    }
	}
    }
}

/* Load the program interpreter INTERP, which the kernel maps: opened as
   a path, from the current directory if relative, without ld.so's
   search or its tokens.  The kernel's binfmt_elf refuses what it
   cannot open, and with ELIBBAD what is not an x86-64 ELF object.  */
static void
load_interp (const struct deps_config *c, struct deps_walk *w,
	     const char *interp)
{
  struct deps_node *d = add_node (w, interp, 0);
  struct elfobj_file m;
  int err = 0;

  d->interp = true;
  switch (elfobj_map (interp, &m, &err))
    {
    case ELFOBJ_MAPPED:
      /* Not quite binfmt_elf's checks, which ld.so's are close to.  */
      if (verify_header (&m) != NULL)
	err = ELIBBAD;
      else
	{
	  d->file = deps_file_find (m.dev, m.ino);
	  if (d->file == NULL || !d->file->known)
	    d->file = c->check (interp, &m, c->arg);
	  d->file->node = d - w->nodes;
	  d->path = sframe_xstrdup (interp);
	  add_name (w, d->path, d - w->nodes);
	  add_name (w, d->file->link.soname, d - w->nodes);
	  d->origin = origin_of (interp);
	  w->ldso = ldso_of (interp, m.dev, m.ino);
	  if (w->ldso == NULL)
	    {
	      w->foreign_ldso = true;
	      w->ldso = &debian_ldso;
	    }
	}
      elfobj_unmap (&m);
      break;
    case ELFOBJ_DIRECTORY:
    case ELFOBJ_NOT_REGULAR:
      err = EACCES;
      break;
    default:
      break;
    }
  if (d->file == NULL && asprintf (&d->why, "%s", strerror (err)) < 0)
    abort ();
}

void
deps_walk (struct deps_walk *w, const char *name, struct deps_file *file,
	   bool secure, const struct deps_config *c)
{
  struct deps_node *prog;
  char *real;

  memset (w, 0, sizeof *w);
  w->program = file->link.interp != NULL;
  w->secure = secure && w->program;
  walks++;
  prog = add_node (w, NULL, -1);
  prog->path = sframe_xstrdup (name);
  prog->file = file;
  file->node = 0;
  add_name (w, file->link.soname, 0);
  /* ld.so takes a program's $ORIGIN from /proc/self/exe, where the
     kernel puts its real path; a library's from the name it was
     opened by, here the one given (as for ld.so --list).  */
  real = w->program ? realpath (name, NULL) : NULL;
  prog->origin = origin_of (real != NULL ? real : name);
  free (real);

  /* Without an interpreter (a library named alone), as Debian's ld.so
     would load it.  */
  w->ldso = &debian_ldso;
  /* The interpreter the kernel maps first answers to its name and
     soname (rtld.c), before any search.  Without it, nothing runs.  */
  if (file->link.interp != NULL)
    {
      load_interp (c, w, file->link.interp);
      w->cannot_start = w->nodes[1].file == NULL;
    }
  for (size_t i = 0; i < w->n && !w->cannot_start && !w->foreign_ldso; i++)
    if (w->nodes[i].file != NULL)
      for (unsigned int k = 0; k < w->nodes[i].file->link.nneeded; k++)
	load (c, w, i, w->nodes[i].file->link.needed[k]);
  bind_imports (w);
  for (size_t i = 0; i < w->n; i++)
    if (w->nodes[i].file != NULL)
      w->nodes[i].file->node = -1;
}

void
deps_walk_free (struct deps_walk *w)
{
  for (size_t i = 0; i < w->n; i++)
    {
      struct deps_node *d = &w->nodes[i];

      for (unsigned long k = 0; k < d->nnames; k++)
	free (d->names[k]);
      free (d->names);
      free (d->path);
      free (d->why);
      free (d->origin);
      free (d->stops);
    }
  free (w->nodes);
  free (w->names);
  memset (w, 0, sizeof *w);
}

/* deps.h -- the objects that ld.so loads for a program, found as it
   finds them, for sframe-check --deps: its search (elf/dl-load.c), its
   cache (/etc/ld.so.cache) and its binding of the functions that the
   objects import.  What the kernel makes of each object is the
   caller's: it checks each new file through deps_config.check.  */

#ifndef DEPS_H
#define DEPS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "analyze.h"

/* A file of a walk: once per run, however many walks load it and
   under whatever names (ld.so, too, knows an object by its device and
   inode).  */
struct deps_file
{
  dev_t dev;
  ino_t ino;
  char *name;			/* The objects[] entry it is reported under.  */
  bool known;			/* LINK and the verdict are filled in: else
				   a walk that meets it has it checked.  */
  struct sframe_linkage link;
  /* The caller's verdict: whether the kernel unwinds it and how.  */
  bool checked, sframe, accepted, frame_pointers;
  uint64_t text_bytes, covered_bytes;
  /* The caller's report on it.  */
  bool named;			/* Named on the command line: reported in
				   its turn, not by a walk.  */
  bool reported;
  bool fails;			/* The policy fails it (were it judged).  */
  void *report;			/* Until it is reported.  */
  /* deps.c's: the node of the walk under way, or -1; whether its
     exports are in the run's table of definitions.  */
  long node;
  bool exports_entered;
};

/* The file of device DEV and inode INO, if met before in the run.  */
struct deps_file *deps_file_find (dev_t dev, ino_t ino);

/* A new file of device DEV and inode INO, called NAME.  */
struct deps_file *deps_file_add (dev_t dev, ino_t ino, const char *name);

/* How the walks search.  */
struct deps_config
{
  const char *library_path;	/* For LD_LIBRARY_PATH, or NULL.  */
  /* Check the object PATH, mapped as M, whose file is not known: its
     deps_file (from deps_file_add if new), known.  */
  struct deps_file *(*check) (const char *path, const struct elfobj_file *m,
			      void *arg);
  /* PATH, which ld.so would read, cannot be read here (ERR).  */
  void (*read_error) (const char *path, int err, void *arg);
  void *arg;
};

/* An object of one walk, in the order ld.so loads them (a struct
   link_map, for what is looked at here).  */
struct deps_node
{
  char **names;			/* What it was needed as (l_libname).  */
  unsigned long nnames;
  long loader;			/* The node that first needed it (l_loader);
				   -1 for the program.  */
  bool interp;			/* The program interpreter (PT_INTERP).  */
  struct deps_file *file;	/* NULL: not found.  */
  char *path;			/* Where it was found (l_name), or NULL.  */
  char *why;			/* Not found: why, as ld.so says it.  */
  bool unreadable;		/* Not read: not known whether ld.so would
				   load it (deps_config.read_error).  */
  char *origin;			/* What $ORIGIN stands for in its paths.  */
  char **stops;			/* The functions that the others import and
				   ld.so binds to it, when the kernel
				   unwinds it neither way (they point into
				   FILE's linkage).  */
  unsigned long nstops;
};

struct deps_ldso;

struct deps_walk
{
  struct deps_node *nodes;	/* [0] is the program, [1] its interpreter
				   if it has one.  */
  size_t n;
  bool program;			/* [0] has an interpreter.  */
  bool secure;			/* A set-user-ID or set-group-ID program:
				   ld.so's secure mode.  */
  bool cannot_start;		/* The interpreter is not found: the kernel
				   does not start the program.  */
  bool foreign_ldso;		/* The interpreter is not glibc's ld.so
				   (ld-linux-x86-64.so.2): what it loads
				   is not followed.  */
  struct deps_ldso *ldso;	/* The ld.so that loads the others.  */
  /* deps.c's: what the nodes answer to, hashed.  */
  struct deps_name_slot *names;
  size_t names_size, nnames;
};

/* Walk the objects that the program or library NAME, of FILE, loads,
   breadth first as _dl_map_object_deps does, each once (a loop of
   DT_NEEDED ends at an object loaded already), and bind their imports.
   SECURE: a program that ld.so runs in secure mode (AT_SECURE), as a
   set-user-ID one run by another user.  Free with deps_walk_free.  */
void deps_walk (struct deps_walk *w, const char *name, struct deps_file *file,
		bool secure, const struct deps_config *c);
void deps_walk_free (struct deps_walk *w);

/* The x86-64 entries of an ld.so.cache, sorted by name, those of one
   name in the cache's order.  */
struct deps_cache_entry
{
  const char *name, *path;
  size_t order;			/* In the cache.  */
};

struct deps_cache
{
  char *data;			/* A NUL-terminated copy of the file.  */
  struct deps_cache_entry *entries;
  size_t n;
};

/* Read the SIZE bytes at DATA, an ld.so.cache, into *C: a cache that
   cannot be read is empty, as for ld.so.  */
void deps_cache_parse (struct deps_cache *c, const void *data, size_t size);
/* The path the cache gives for NAME, or NULL.  */
const char *deps_cache_lookup (const struct deps_cache *c, const char *name);
void deps_cache_free (struct deps_cache *c);

#endif /* deps.h */

/* sframe-check -- tell which objects the patched kernel will unwind with
   .sframe, and which functions it has no rules for.

   Usage: sframe-check [OPTION]... FILE|DIR|PACKAGE.deb...

   Findings are printed one per line in lintian's style, "S: OBJECT: TAG
   [DETAIL]" with S one of E (error), W (warning) and I (information,
   shown with --info), then "N:" summaries per object, per package and
   for the whole run.  --json prints one JSON document instead, whose
   shape sframe-check.schema.json describes.  With --deps, each FILE's
   dependencies are found as ld.so finds them and checked too, and FILE
   gets a finding for each one whose functions the kernel cannot unwind.
   Exit status: 0 clean, 1 the policy failed (--fail-on, --min-coverage),
   2 a usage error or a file that could not be read.  */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <ftw.h>
#include <getopt.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze.h"
#include "deps.h"

#ifndef PACKAGE_VERSION
# define PACKAGE_VERSION "unknown"
#endif

extern char **environ;

static const char *program = "sframe-check";

/* Options.  */
static bool opt_json, opt_info, opt_quiet;
static double opt_min_coverage = -1;
static enum { FAIL_ON_ERROR, FAIL_ON_WARNING, FAIL_ON_NONE } opt_fail_on;

/* What the run found.  */
static bool status_error;	/* Exit status 2.  */
static bool policy_failed;	/* Exit status 1.  */

/* Totals over a package or over the run.  */
struct totals
{
  unsigned long objects, with_sframe, accepted, rejected, missing;
  unsigned long errors, warnings;
  unsigned long long text_bytes, covered_bytes;
  unsigned long functions, functions_without_fde;
};

static struct totals run_totals;

struct package
{
  char *name, *version, *arch, *file;
  struct totals t;
};

static struct package *packages;
static size_t npackages;

/* The object being walked belongs to this package, or to none.  */
static struct package *cur_package;
static unsigned long walk_objects;

/* Tags not to report (--suppress-tags), comma-separated.  */
static const char *opt_suppress;
static unsigned long loose_objects;	/* Not in a package.  */

static bool json_first_object = true;

/* --deps: the objects that ld.so loads for each program or library
   named, found as elf/dl-load.c finds them.  */
static bool opt_deps;

/* The kernel's verdict on a walk's objects as a whole.  */
struct deps_totals
{
  unsigned long objects, sframe, frame_pointers, not_unwound, not_found;
  /* The text, and how the kernel unwinds it: with .sframe (the FDEs'
     coverage), else by frame pointers where the object has them, else
     not.  */
  unsigned long long text_bytes, covered_bytes, fp_bytes, not_unwound_bytes;
};

static void text_string (const char *s, FILE *to);

static void
error_msg (const char *path, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

static void
error_msg (const char *path, const char *fmt, ...)
{
  va_list ap;
  char *msg;

  fprintf (stderr, "%s: ", program);
  if (path != NULL)
    {
      text_string (path, stderr);
      fputs (": ", stderr);
    }
  va_start (ap, fmt);
  if (vasprintf (&msg, fmt, ap) < 0)
    abort ();
  va_end (ap);
  text_string (msg, stderr);
  free (msg);
  fputc ('\n', stderr);
  status_error = true;
}

/* PERCENT cut, not rounded, to DIGITS decimals: 99.96% of the text is
   not "100.0%".  */
static double
cut (double percent, int digits)
{
  double scale = digits == 1 ? 10 : 100;

  return floor (percent * scale) / scale;
}

/* The length of the valid UTF-8 sequence at S, or 0.  */
static int
utf8_length (const unsigned char *s)
{
  int n;

  if (s[0] < 0x80)
    return 1;
  if (s[0] >= 0xc2 && s[0] <= 0xdf)
    n = 2;
  else if (s[0] >= 0xe0 && s[0] <= 0xef)
    n = 3;
  else if (s[0] >= 0xf0 && s[0] <= 0xf4)
    n = 4;
  else
    return 0;
  for (int i = 1; i < n; i++)
    if ((s[i] & 0xc0) != 0x80)
      return 0;
  /* No overlong forms, surrogates or values past U+10FFFF.  */
  if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0)
      || (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
    return 0;
  return n;
}

/* S on a line of text output: names come from the files checked, and
   must not make lines of their own.  Control characters, backslash and
   bytes that are not valid UTF-8 are written \xHH (backslash \\).  */
static void
text_string (const char *s, FILE *to)
{
  const unsigned char *p = (const unsigned char *) s;

  while (*p)
    {
      int n = utf8_length (p);

      /* C1 controls are U+0080 to U+009F.  */
      if (n == 0 || *p < 0x20 || *p == 0x7f
	  || (n == 2 && p[0] == 0xc2 && p[1] < 0xa0))
	fprintf (to, "\\x%02x", *p++);
      else if (*p == '\\')
	{
	  fputs ("\\\\", to);
	  p++;
	}
      else
	{
	  fwrite (p, 1, n, to);
	  p += n;
	}
    }
}

/* "N: NAME: " for the summary lines.  */
static void
summary_start (const char *name)
{
  fputs ("N: ", stdout);
  text_string (name, stdout);
  fputs (": ", stdout);
}

/* S as a JSON string.  File names need not be UTF-8, which JSON must
   be: a byte that is not part of valid UTF-8 becomes U+FFFD.  */
static void
json_string (const char *s)
{
  const unsigned char *p = (const unsigned char *) s;

  putchar ('"');
  while (p != NULL && *p)
    {
      int n = utf8_length (p);

      if (n == 0)
	{
	  fputs ("\\ufffd", stdout);
	  p++;
	}
      else if (*p == '"' || *p == '\\')
	printf ("\\%c", *p++);
      else if (*p < 0x20)
	printf ("\\u%04x", *p++);
      else
	{
	  fwrite (p, 1, n, stdout);
	  p += n;
	}
    }
  putchar ('"');
}

static void
json_string_or_null (const char *s)
{
  if (s == NULL)
    fputs ("null", stdout);
  else
    json_string (s);
}

static void
add_totals (struct totals *to, const struct totals *from)
{
  to->objects += from->objects;
  to->with_sframe += from->with_sframe;
  to->accepted += from->accepted;
  to->rejected += from->rejected;
  to->missing += from->missing;
  to->errors += from->errors;
  to->warnings += from->warnings;
  to->text_bytes += from->text_bytes;
  to->covered_bytes += from->covered_bytes;
  to->functions += from->functions;
  to->functions_without_fde += from->functions_without_fde;
}

static void
print_flags (unsigned int flags, bool json)
{
  static const struct { unsigned int bit; const char *name; } names[] = {
    { 0x1, "FDE_SORTED" }, { 0x2, "FRAME_POINTER" },
    { 0x4, "FDE_FUNC_START_PCREL" },
  };
  bool first = true;

  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (flags & names[i].bit)
      {
	if (json)
	  {
	    printf ("%s", first ? "" : ", ");
	    json_string (names[i].name);
	  }
	else
	  printf ("%s%s", first ? "" : ",", names[i].name);
	first = false;
      }
}

static void print_json_deps (const struct deps_walk *w);

static void
print_json_object (const char *name, const struct sframe_report *r,
		   const struct deps_walk *w)
{
  double cov = sframe_coverage (r);

  printf ("%s\n    {\"path\": ", json_first_object ? "" : ",");
  json_first_object = false;
  json_string (name);
  printf (", \"package\": ");
  json_string_or_null (cur_package ? cur_package->name : NULL);
  printf (",\n     \"checked\": %s", r->checked ? "true" : "false");
  printf (",\n     \"sframe\": {\"section\": %s, \"segment\": %s, ",
	  r->section ? "true" : "false", r->segment ? "true" : "false");
  if (r->version)
    {
      printf ("\"version\": %d, \"flags\": [", r->version);
      if (r->version == 2 || r->version == 3)
	print_flags (r->flags, true);
      printf ("], \"abi\": %u, ", r->abi);
    }
  else
    printf ("\"version\": null, \"flags\": [], \"abi\": null, ");
  if (r->num_fdes >= 0)
    printf ("\"fdes\": %ld}", r->num_fdes);
  else
    printf ("\"fdes\": null}");
  printf (",\n     \"kernel\": {\"offered\": %s, \"accepted\": %s, "
	  "\"ranges\": [", r->offered ? "true" : "false",
	  r->accepted ? "true" : "false");
  for (int i = 0; i < r->nranges; i++)
    {
      const struct range_verdict *v = &r->ranges[i];
      char check[512];

      printf ("%s\n       {\"text_start\": %llu, \"text_end\": %llu, "
	      "\"registration_errno\": ", i ? "," : "",
	      (unsigned long long) v->text_start,
	      (unsigned long long) v->text_end);
      if (v->registration == 0)
	printf ("null");
      else
	json_string (sframe_errno_name (v->registration));
      printf (", \"errno\": ");
      if (v->error == 0)
	printf ("null, \"function\": null, \"line\": null, \"check\": null, "
		"\"fde\": null}");
      else
	{
	  json_string (sframe_errno_name (v->error));
	  printf (", \"function\": ");
	  json_string_or_null (v->function);
	  if (v->function != NULL)
	    {
	      printf (", \"line\": %d, \"check\": ", v->line);
	      json_string (sframe_kernel_check (v->line, check, sizeof check));
	    }
	  else
	    printf (", \"line\": null, \"check\": null");
	  if (v->fde >= 0)
	    printf (", \"fde\": %ld}", v->fde);
	  else
	    printf (", \"fde\": null}");
	}
    }
  printf ("]},\n     \"coverage\": {\"text_bytes\": %llu, "
	  "\"padding_bytes\": %llu, ", (unsigned long long) r->text_bytes,
	  (unsigned long long) r->padding_bytes);
  if (cov >= 0)
    printf ("\"covered_bytes\": %lld, \"percent\": %.2f, ",
	    (long long) r->covered_bytes, cut (cov, 2));
  else
    printf ("\"covered_bytes\": null, \"percent\": null, ");
  printf ("\"symbols\": ");
  json_string_or_null (r->symbols);
  printf (", \"functions\": %lu, \"functions_without_fde\": %lu, "
	  "\"functions_without_cfi\": %lu, "
	  "\"functions_partly_covered\": %lu, \"functions_without_rule\": %lu, "
	  "\"fdes_outside_text\": %lu},\n     \"findings\": [",
	  r->functions, r->functions_without_fde, r->functions_without_cfi,
	  r->functions_partly_covered, r->functions_without_rule,
	  r->fdes_outside_text);
  for (unsigned long i = 0; i < r->nfindings; i++)
    {
      printf ("%s\n       {\"severity\": \"%c\", \"tag\": ", i ? "," : "",
	      r->findings[i].severity);
      json_string (r->findings[i].tag);
      printf (", \"detail\": ");
      json_string_or_null (r->findings[i].detail);
      putchar ('}');
    }
  putchar (']');
  if (w != NULL)
    print_json_deps (w);
  putchar ('}');
}

/* Whether every range's registration, which reads the header, succeeds:
   a section that the check of the whole section refuses is then dropped
   by the unwinder instead.  */
static bool
registration_ok (const struct sframe_report *r)
{
  for (int i = 0; i < r->nranges; i++)
    if (r->ranges[i].registration != 0)
      return false;
  return r->nranges > 0;
}

static void
print_text_summary (const char *name, const struct sframe_report *r)
{
  double cov = sframe_coverage (r);

  summary_start (name);
  if (!r->section && !r->segment)
    printf ("no .sframe");
  else
    {
      if (r->version == 2 || r->version == 3)
	{
	  printf ("SFrame V%d (", r->version);
	  print_flags (r->flags, false);
	  printf (")");
	}
      else if (r->version)
	/* Other versions' flags mean other things.  */
	printf ("SFrame V%d (flags 0x%x)", r->version, r->flags);
      else
	printf ("SFrame, unknown version");
      if (!r->offered && r->nranges > 0)
	printf (", not registered (no PT_GNU_SFRAME); the kernel would %s it",
		r->acceptable ? "accept" : "reject");
      else if (r->nranges == 0)
	printf (", not offered to the kernel");
      else if (r->accepted)
	printf (", accepted by the kernel (%d text range%s)", r->nranges,
		r->nranges == 1 ? "" : "s");
      else if (registration_ok (r))
	printf (", registered but dropped by the kernel's unwinder");
      else
	printf (", rejected by the kernel");
      if (r->num_fdes >= 0)
	printf (", %ld FDE%s", r->num_fdes, r->num_fdes == 1 ? "" : "s");
    }
  if (cov >= 0)
    printf ("; text %.1f%% of %llu bytes covered", cut (cov, 1),
	    (unsigned long long) (r->text_bytes - r->padding_bytes));
  if (r->covered_bytes >= 0)
    printf ("; %lu of %lu functions without FDE%s", r->functions_without_fde,
	    r->functions,
	    r->symbols && strcmp (r->symbols, ".dynsym") == 0
	    ? " (exported ones only: no .symtab)" : "");
  putchar ('\n');
}

static void
print_totals (const char *what, const struct totals *t)
{
  summary_start (what);
  printf ("%lu object%s, %lu with .sframe, %lu accepted, "
	  "%lu rejected", t->objects, t->objects == 1 ? "" : "s",
	  t->with_sframe, t->accepted, t->rejected);
  if (t->text_bytes > 0)
    printf ("; text %.1f%% covered",
	    cut (100.0 * t->covered_bytes / t->text_bytes, 1));
  printf ("; %lu of %lu functions without FDE; %lu error%s, %lu warning%s\n",
	  t->functions_without_fde, t->functions, t->errors,
	  t->errors == 1 ? "" : "s", t->warnings, t->warnings == 1 ? "" : "s");
}

static void
deps_totals (const struct deps_walk *w, struct deps_totals *t)
{
  memset (t, 0, sizeof *t);
  for (size_t i = 0; i < w->n; i++)
    {
      const struct deps_file *f = w->nodes[i].file;

      if (f == NULL)
	{
	  t->not_found++;
	  continue;
	}
      t->objects++;
      /* An object without code (or beyond what is laid out) holds no
	 frame: counted, but neither unwound nor not.  */
      if (!f->checked)
	continue;
      if (f->accepted)
	t->sframe++;
      else if (f->frame_pointers)
	t->frame_pointers++;
      else
	t->not_unwound++;
      t->text_bytes += f->text_bytes;
      t->covered_bytes += f->covered_bytes;
      if (f->frame_pointers)
	t->fp_bytes += f->text_bytes - f->covered_bytes;
      else
	t->not_unwound_bytes += f->text_bytes - f->covered_bytes;
    }
}

static void
print_deps_summary (const char *name, const struct deps_walk *w)
{
  struct deps_totals t;

  deps_totals (w, &t);
  summary_start (name);
  /* Nothing is loaded: the kernel does not start the program.  */
  if (w->cannot_start)
    {
      fputs ("with its dependencies: none; the program cannot start: its "
	     "interpreter ", stdout);
      text_string (w->nodes[1].names[0], stdout);
      puts (" (PT_INTERP) is not found");
      return;
    }
  printf ("with its dependencies: %lu object%s, %lu unwound by the "
	  "kernel with .sframe, %lu by frame pointers only, %lu not unwound, "
	  "%lu not found", t.objects, t.objects == 1 ? "" : "s",
	  t.sframe, t.frame_pointers, t.not_unwound, t.not_found);
  if (t.text_bytes > 0)
    printf ("; of their %llu bytes of text, %.1f%% covered by .sframe, "
	    "%.1f%% by frame pointers only, %.1f%% by neither", t.text_bytes,
	    cut (100.0 * t.covered_bytes / t.text_bytes, 1),
	    cut (100.0 * t.fp_bytes / t.text_bytes, 1),
	    cut (100.0 * t.not_unwound_bytes / t.text_bytes, 1));
  putchar ('\n');
}

static void
print_json_deps (const struct deps_walk *w)
{
  struct deps_totals t;

  printf (",\n     \"dependencies\": [");
  for (size_t i = 1; i < w->n; i++)
    {
      const struct deps_node *d = &w->nodes[i];

      printf ("%s\n       {\"name\": ", i > 1 ? "," : "");
      json_string (d->names[0]);
      printf (", \"path\": ");
      json_string_or_null (d->path);
      printf (", \"object\": ");
      json_string_or_null (d->file ? d->file->name : NULL);
      printf (", \"needed_by\": ");
      json_string (w->nodes[d->loader].path);
      printf (", \"interpreter\": %s, \"found\": %s, \"checked\": %s, "
	      "\"accepted\": %s, \"frame_pointers\": %s, \"stops_in\": [",
	      d->interp ? "true" : "false", d->file ? "true" : "false",
	      d->file && d->file->checked ? "true" : "false",
	      d->file && d->file->accepted ? "true" : "false",
	      d->file && d->file->frame_pointers ? "true" : "false");
      for (unsigned long k = 0; k < d->nstops; k++)
	{
	  printf ("%s", k ? ", " : "");
	  json_string (d->stops[k]);
	}
      printf ("]}");
    }
  deps_totals (w, &t);
  printf ("],\n     \"deps_summary\": {\"cannot_start\": %s, "
	  "\"objects\": %lu, \"sframe\": %lu, \"frame_pointers\": %lu, "
	  "\"not_unwound\": %lu, \"not_found\": %lu, \"text_bytes\": %llu, "
	  "\"covered_bytes\": %llu, \"frame_pointer_bytes\": %llu, "
	  "\"not_unwound_bytes\": %llu, \"percent\": ",
	  w->cannot_start ? "true" : "false", t.objects, t.sframe,
	  t.frame_pointers, t.not_unwound, t.not_found, t.text_bytes,
	  t.covered_bytes, t.fp_bytes, t.not_unwound_bytes);
  if (t.text_bytes > 0)
    printf ("%.2f}", cut (100.0 * t.covered_bytes / t.text_bytes, 2));
  else
    printf ("null}");
}

/* Drop the findings whose tags --suppress-tags names.  */
static void
suppress_findings (struct sframe_report *r)
{
  unsigned long k = 0;

  if (opt_suppress == NULL)
    return;
  for (unsigned long i = 0; i < r->nfindings; i++)
    {
      const char *t = opt_suppress;
      size_t l = strlen (r->findings[i].tag);
      bool drop = false;

      while (*t)
	{
	  size_t n = strcspn (t, ",");

	  if (n == l && strncmp (t, r->findings[i].tag, l) == 0)
	    drop = true;
	  t += n + (t[n] == ',');
	}
      if (drop)
	free (r->findings[i].detail);
      else
	r->findings[k++] = r->findings[i];
    }
  r->nfindings = k;
}

/* Check the object of SIZE bytes at DATA, called NAME, into *R, and
   how ld.so links it into *L unless L is NULL.  EXPLICIT: named on the
   command line, where anything but an ELF object is an error.  False,
   with *R and *L freed, if there is nothing to report.  */
static bool
analyze_object (const char *name, const void *data, size_t size,
		bool explicit, struct sframe_report *r,
		struct sframe_linkage *l)
{
  double cov;

  sframe_analyze_linkage (data, size, r, l);
  if (r->status == ELFOBJ_NOT_ELF)
    {
      if (explicit)
	error_msg (name, "not an ELF object");
      sframe_report_free (r);
      return false;
    }
  if (r->status == ELFOBJ_CORRUPT)
    {
      /* Named on the command line, the file is the user's error; found
	 in a tree or a package, it is a finding about that tree.  */
      if (explicit)
	{
	  error_msg (name, "truncated or corrupt ELF object: %s", r->why);
	  sframe_report_free (r);
	  if (l != NULL)
	    sframe_linkage_free (l);
	  return false;
	}
      sframe_report_add (r, 'E', "sframe-corrupt-object", "%s", r->why);
    }
  walk_objects++;

  cov = sframe_coverage (r);
  if (r->checked && opt_min_coverage >= 0
      && (cov < 0 ? 0 : cov) < opt_min_coverage)
    sframe_report_add (r, 'E', "sframe-coverage-below-minimum",
		       "%.2f%% < %g%%", cov < 0 ? 0 : cut (cov, 2),
		       opt_min_coverage);
  return true;
}

/* Print the report R on the object NAME, with what --deps found of the
   objects it loads in W unless NULL, count it, and free it.  A
   dependency (not DEPENDENCY) is judged by the policy: the findings of
   the objects that --deps finds are shown and counted, but the policy
   judges an object named by what it loads (its sframe-dependency-*
   findings), not by those objects' own findings; to gate on them, one
   names them too.  True if the policy fails the object (were it
   judged).  */
static bool
report_object (const char *name, struct sframe_report *r,
	       const struct deps_walk *w, bool dependency)
{
  struct totals t = { 0 };
  bool fails = false;

  if (r->checked)
    {
      t.objects = 1;
      t.with_sframe = r->section || r->segment;
      t.missing = !t.with_sframe;
      t.accepted = r->accepted;
      t.rejected = t.with_sframe && !r->accepted;
      t.text_bytes = sframe_text_bytes (r);
      t.covered_bytes = sframe_covered_bytes (r);
      t.functions = r->functions;
      t.functions_without_fde = r->functions_without_fde;
    }
  suppress_findings (r);
  for (unsigned long i = 0; i < r->nfindings; i++)
    {
      const struct finding *f = &r->findings[i];

      if (f->severity == 'E')
	t.errors++;
      else if (f->severity == 'W')
	t.warnings++;
      /* Whatever --fail-on says: unless suppressed.  */
      if (strcmp (f->tag, "sframe-coverage-below-minimum") == 0)
	fails = true;
      if (opt_json || (f->severity == 'I' && !opt_info))
	continue;
      printf ("%c: ", f->severity);
      text_string (name, stdout);
      printf (": %s", f->tag);
      if (f->detail != NULL)
	{
	  putchar (' ');
	  text_string (f->detail, stdout);
	}
      putchar ('\n');
    }
  if ((opt_fail_on != FAIL_ON_NONE && t.errors > 0)
      || (opt_fail_on == FAIL_ON_WARNING && t.warnings > 0))
    fails = true;
  if (fails && !dependency)
    policy_failed = true;

  if (opt_json)
    print_json_object (name, r, w);
  else if (!opt_quiet)
    {
      if (r->checked || opt_info)
	print_text_summary (name, r);
      if (w != NULL)
	print_deps_summary (name, w);
    }

  if (cur_package != NULL)
    add_totals (&cur_package->t, &t);
  else if (t.objects)
    loose_objects++;
  add_totals (&run_totals, &t);
  sframe_report_free (r);
  return fails;
}

/* The findings about the objects of W, added to the report R of the
   program.  */
static void
deps_findings (const struct deps_walk *w, struct sframe_report *r)
{
  /* The objects not found, but the first ten: counted (a library of
     thousands of DT_NEEDED would be thousands of findings).  */
  unsigned long not_found = 0;

  if (w->foreign_ldso)
    sframe_report_add (r, 'I', "sframe-dependencies-not-followed",
		       "%s (the program interpreter, PT_INTERP) is not "
		       "glibc's ld.so: the objects it loads are not followed",
		       w->nodes[1].path);
  for (size_t i = 1; i < w->n; i++)
    {
      const struct deps_node *d = &w->nodes[i];
      const struct deps_file *f = d->file;
      const char *name = d->names[0];
      char *where, *list;
      size_t size;
      FILE *m;

      /* Not read: an error of the run, not a finding.  */
      if (d->unreadable)
	continue;
      /* A library named alone may find through the DT_RPATH of a
	 program that loads it what it does not find alone.  */
      if (f == NULL)
	{
	  if (d->interp)
	    sframe_report_add (r, 'E', "sframe-dependency-not-found",
			       "%s (the program interpreter, PT_INTERP)%s%s",
			       name, d->why ? ": " : "", d->why ? d->why : "");
	  else if (++not_found <= 10)
	    sframe_report_add (r, w->program ? 'E' : 'W',
			       "sframe-dependency-not-found",
			       "%s (needed by %s)%s%s", name,
			       w->nodes[d->loader].path, d->why ? ": " : "",
			       d->why ? d->why : "");
	  continue;
	}
      if (!f->checked || f->accepted)
	continue;
      if (strcmp (name, d->path) == 0)
	where = sframe_xstrdup (name);
      else if (asprintf (&where, "%s (%s)", name, d->path) < 0)
	abort ();
      if (f->frame_pointers)
	{
	  sframe_report_add (r, 'I', "sframe-dependency-frame-pointers-only",
			     "%s: %s; unwound by frame pointers only (%lu of "
			     "%lu functions set one up)", where,
			     f->sframe ? "its .sframe is not used by the kernel"
			     : "no .sframe",
			     f->link.fp_functions, f->link.functions);
	  free (where);
	  continue;
	}
      m = open_memstream (&list, &size);
      if (m == NULL)
	abort ();
      for (unsigned long k = 0; k < d->nstops && k < 10; k++)
	fprintf (m, "%s%s", k ? ", " : ": ", d->stops[k]);
      if (d->nstops > 10)
	fprintf (m, " and %lu more", d->nstops - 10);
      if (fclose (m) != 0)
	abort ();
      sframe_report_add (r, 'W', "sframe-dependency-not-unwound",
			 "%s: %s and no frame pointers (fewer than half of its "
			 "functions set one up); stacks through %s will stop "
			 "there%s", where,
			 f->sframe ? "its .sframe is not used by the kernel"
			 : "no .sframe",
			 d->nstops ? "these functions" : "it", list);
      free (list);
      free (where);
    }
  if (not_found > 10)
    sframe_report_add (r, w->program ? 'E' : 'W',
		       "sframe-dependency-not-found", "... and %lu more",
		       not_found - 10);
}

/* How the kernel unwinds the object of F whose report is R.  */
static void
set_verdict (struct deps_file *f, const struct sframe_report *r)
{
  f->checked = r->checked;
  f->sframe = r->section || r->segment;
  f->accepted = r->accepted;
  f->frame_pointers = sframe_frame_pointers (&f->link);
  if (r->checked)
    {
      f->text_bytes = sframe_text_bytes (r);
      f->covered_bytes = sframe_covered_bytes (r);
    }
}

/* deps_config.check: check a dependency, its report kept to be printed
   after the report on the object that loads it, or in its turn if it is
   named.  */
static struct deps_file *
check_dependency (const char *path, const struct elfobj_file *m, void *arg)
{
  struct deps_file *f = deps_file_find (m->dev, m->ino);
  struct sframe_report *r = malloc (sizeof *r);

  (void) arg;
  if (r == NULL)
    abort ();
  if (f == NULL)
    f = deps_file_add (m->dev, m->ino, path);
  f->known = true;
  /* An ELF object, which open_verify let through: a corrupt one is a
     finding of its own.  */
  if (!analyze_object (path, m->data, m->size, false, r, &f->link))
    free (r);
  else
    {
      set_verdict (f, r);
      if (f->reported)
	{
	  sframe_report_free (r);
	  free (r);
	}
      else
	f->report = r;
    }
  return f;
}

/* deps_config.read_error: an error of the run, in the walk of the
   object ARG names.  */
static void
dependency_read_error (const char *path, int err, void *arg)
{
  error_msg (path, "%s (a dependency of %s)", strerror (err),
	     (const char *) arg);
}

/* --library-path: in place of LD_LIBRARY_PATH, which is sframe-check's
   own, not the programs'.  */
static struct deps_config deps_config = {
  NULL, check_dependency, dependency_read_error, NULL
};

/* Drop F's report kept for later.  */
static void
drop_report (struct deps_file *f)
{
  if (f->report != NULL)
    {
      sframe_report_free (f->report);
      free (f->report);
      f->report = NULL;
    }
}

/* Report on F as the walk that met it found it, if it kept a report.
   DEPENDENCY: as report_object.  */
static void
report_kept (struct deps_file *f, bool dependency)
{
  if (f->report != NULL)
    {
      f->fails = report_object (f->name, f->report, NULL, dependency);
      free (f->report);
      f->report = NULL;
      f->reported = true;
    }
}

/* Check the objects that the program or library NAME (mapped as M,
   whose report is R and linkage L) loads; then report on NAME, with a
   finding for each of them that the kernel cannot unwind, and on each
   of them not reported yet (unless named: in its turn).  */
static void
check_deps (const char *name, const struct elfobj_file *m,
	    struct sframe_report *r, struct sframe_linkage *l)
{
  struct deps_walk w;
  struct deps_file *file = deps_file_find (m->dev, m->ino);

  if (file == NULL)
    file = deps_file_add (m->dev, m->ino, name);
  drop_report (file);
  if (file->known)
    sframe_linkage_free (l);
  else
    {
      file->known = true;
      file->link = *l;
      set_verdict (file, r);
    }
  file->reported = true;
  /* As run by a user other than its owner: the kernel sets AT_SECURE
     (set-group-ID needs group execute).  */
  deps_config.arg = (void *) name;
  deps_walk (&w, name, file,
	     (m->mode & S_ISUID) != 0
	     || (m->mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP),
	     &deps_config);
  deps_findings (&w, r);
  report_object (name, r, &w, false);
  for (size_t i = 1; i < w.n; i++)
    {
      struct deps_file *f = w.nodes[i].file;

      if (f != NULL && !f->reported && !f->named)
	report_kept (f, true);
    }
  deps_walk_free (&w);
}

/* Report on the object mapped as M, called NAME.  EXPLICIT: named on
   the command line; with --deps, the objects it loads are checked
   too.  With --deps, a file is reported once in the run (by its device
   and inode, as ld.so knows it), whatever the order and the names of
   the arguments that reach it; but the files of packages, unpacked for
   a moment, are not looked at.  A file named that a named directory
   holds is reported in its turn, with its dependencies; a file
   reported as a dependency, not judged, is judged when a named
   directory holds it.  */
static void
check_object (const char *name, const struct elfobj_file *m, bool explicit)
{
  struct sframe_report r;
  struct sframe_linkage l;
  bool deps = opt_deps && explicit;
  struct deps_file *f = NULL;

  if (opt_deps && cur_package == NULL)
    {
      f = deps_file_find (m->dev, m->ino);
      if (f != NULL && !f->reported && f->named && !explicit)
	{
	  /* In its turn.  */
	  walk_objects++;
	  return;
	}
      if (f != NULL && f->reported)
	{
	  /* An object all the same, for a directory's count; judged.  */
	  walk_objects++;
	  if (f->fails)
	    policy_failed = true;
	  if (!opt_json && !opt_quiet && strcmp (f->name, name) != 0)
	    {
	      summary_start (name);
	      fputs ("the same file as ", stdout);
	      text_string (f->name, stdout);
	      puts (", reported already");
	    }
	  return;
	}
    }
  if (!analyze_object (name, m->data, m->size, explicit, &r,
		       deps ? &l : NULL))
    {
      /* A named file that the command line cannot have (a corrupt
	 object) that a walk met first is reported as the walk found
	 it, as the JSON document refers to it.  */
      if (f != NULL)
	report_kept (f, false);
      return;
    }
  if (deps && r.checked)
    {
      check_deps (name, m, &r, &l);
      return;
    }
  if (deps)
    sframe_linkage_free (&l);
  report_object (name, &r, NULL, false);
  if (opt_deps && cur_package == NULL)
    {
      if (f == NULL)
	f = deps_file_add (m->dev, m->ino, name);
      drop_report (f);
      f->reported = true;
    }
}

/* Map PATH, called NAME in the report, and check it.  */
static void
check_file (const char *path, const char *name, bool explicit)
{
  struct elfobj_file m;
  int err;

  switch (elfobj_map (path, &m, &err))
    {
    case ELFOBJ_MAPPED:
      check_object (name, &m, explicit);
      elfobj_unmap (&m);
      break;
    case ELFOBJ_DIRECTORY:
    case ELFOBJ_NOT_REGULAR:
      error_msg (name, "not a regular file or directory");
      break;
    default:
      error_msg (name, "%s", strerror (err));
      break;
    }
}

static bool is_deb (const char *path);
static void check_deb (const char *path, const char *name);

/* Check every regular file under the directory PATH, called NAME in the
   report, in name order (so that two runs over one tree compare), not
   following symbolic links.  */
static void
walk (const char *path, const char *name)
{
  struct dirent **ents;
  int n = scandir (path, &ents, NULL, alphasort);

  if (n < 0)
    {
      error_msg (name, "%s", strerror (errno));
      return;
    }
  for (int i = 0; i < n; i++)
    {
      const char *e = ents[i]->d_name;
      char *sub, *subname;
      struct stat st;

      if (strcmp (e, ".") == 0 || strcmp (e, "..") == 0)
	{
	  free (ents[i]);
	  continue;
	}
      if (asprintf (&sub, "%s/%s", path, e) < 0
	  || asprintf (&subname, "%s%s%s", name,
		       name[0] && name[strlen (name) - 1] == '/' ? "" : "/",
		       e) < 0)
	abort ();
      if (lstat (sub, &st) != 0)
	error_msg (subname, "%s", strerror (errno));
      else if (S_ISDIR (st.st_mode))
	walk (sub, subname);
      /* Symbolic links name objects that the walk finds anyway, and
	 FIFOs, sockets and devices are no objects.  */
      else if (!S_ISREG (st.st_mode))
	;
      /* A directory of packages, such as a pool or a build's output;
	 not packages inside packages.  */
      else if (cur_package == NULL && is_deb (sub))
	check_deb (sub, subname);
      else
	check_file (sub, subname, false);
      free (sub);
      free (subname);
      free (ents[i]);
    }
  free (ents);
}

static int
remove_one (const char *path, const struct stat *st, int type,
	    struct FTW *ftw)
{
  (void) st;
  (void) ftw;
  if (type == FTW_DP)
    rmdir (path);
  else
    unlink (path);
  return 0;
}

/* Run ARGV; its standard output into OUT (of LEN bytes) unless NULL.
   Returns its exit status, or -1.  */
static int
run (char *const argv[], char *out, size_t len)
{
  posix_spawn_file_actions_t fa;
  int pipefd[2], status;
  pid_t pid;

  if (out != NULL && pipe (pipefd) != 0)
    return -1;
  posix_spawn_file_actions_init (&fa);
  if (out != NULL)
    {
      posix_spawn_file_actions_adddup2 (&fa, pipefd[1], STDOUT_FILENO);
      posix_spawn_file_actions_addclose (&fa, pipefd[0]);
    }
  if (posix_spawnp (&pid, argv[0], &fa, NULL, argv, environ) != 0)
    {
      posix_spawn_file_actions_destroy (&fa);
      if (out != NULL)
	{
	  close (pipefd[0]);
	  close (pipefd[1]);
	}
      return -1;
    }
  posix_spawn_file_actions_destroy (&fa);
  if (out != NULL)
    {
      size_t got = 0;
      ssize_t n;

      char drain[4096];

      close (pipefd[1]);
      while (got + 1 < len
	     && (n = read (pipefd[0], out + got, len - 1 - got)) > 0)
	got += n;
      out[got] = 0;
      /* The rest is not wanted, but the program must not die of it.  */
      while (read (pipefd[0], drain, sizeof drain) > 0)
	;
      close (pipefd[0]);
    }
  if (waitpid (pid, &status, 0) < 0)
    return -1;
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* Is PATH a Debian binary package (an ar archive whose first member is
   debian-binary)?  */
static bool
is_deb (const char *path)
{
  char buf[8 + 13];
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  bool deb;

  if (fd < 0)
    return false;
  deb = read (fd, buf, sizeof buf) == sizeof buf
	&& memcmp (buf, "!<arch>\ndebian-binary", sizeof buf) == 0;
  close (fd);
  return deb;
}

/* Remove the unpacked tree DIR, whose directories dpkg-deb may have
   made read-only.  */
static void
remove_tree (char *dir)
{
  char *chmod_argv[] = { (char *) "chmod", (char *) "-R", (char *) "u+rwX",
			 dir, NULL };

  run (chmod_argv, NULL, 0);
  nftw (dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Unpack the package PATH, called NAME, and check its files as
   PACKAGE:/path.  */
static void
check_deb (const char *path, const char *name)
{
  char fields[4096], *tmp, *dir, *line, *save, *prefix;
  const char *tmpdir = getenv ("TMPDIR");
  struct package *p;
  char *info_argv[] = { (char *) "dpkg-deb", (char *) "--showformat",
			(char *) "${Package}\\n${Version}\\n${Architecture}\\n",
			(char *) "--show", (char *) path, NULL };
  char *chmod_argv[] = { (char *) "chmod", (char *) "-R", (char *) "u+rX",
			 NULL, NULL };

  if (run (info_argv, fields, sizeof fields) != 0)
    {
      error_msg (name, "dpkg-deb cannot read this package");
      return;
    }
  if (asprintf (&tmp, "%s/sframe-check.XXXXXX",
		tmpdir && *tmpdir ? tmpdir : "/tmp") < 0)
    abort ();
  dir = mkdtemp (tmp);
  if (dir == NULL)
    {
      error_msg (tmp, "cannot make a directory to unpack %s in: %s", name,
		 strerror (errno));
      free (tmp);
      return;
    }
  {
    char *x_argv[] = { (char *) "dpkg-deb", (char *) "--extract",
		       (char *) path, dir, NULL };

    if (run (x_argv, NULL, 0) != 0)
      {
	error_msg (name, "dpkg-deb cannot unpack this package");
	remove_tree (dir);
	free (tmp);
	return;
      }
  }
  /* Unpacked as packaged: a directory without read permission for us
     would hide its files.  */
  chmod_argv[3] = dir;
  run (chmod_argv, NULL, 0);

  packages = realloc (packages, (npackages + 1) * sizeof *packages);
  if (packages == NULL)
    abort ();
  p = &packages[npackages++];
  memset (p, 0, sizeof *p);
  line = strtok_r (fields, "\n", &save);
  p->name = strdup (line ? line : "?");
  line = strtok_r (NULL, "\n", &save);
  p->version = strdup (line ? line : "?");
  line = strtok_r (NULL, "\n", &save);
  p->arch = strdup (line ? line : "?");
  p->file = strdup (name);

  if (asprintf (&prefix, "%s:", p->name) < 0)
    abort ();
  cur_package = p;
  walk (dir, prefix);
  cur_package = NULL;
  free (prefix);
  remove_tree (dir);
  free (tmp);

  if (!opt_json && !opt_quiet)
    {
      char *what;

      if (asprintf (&what, "package %s %s", p->name, p->version) < 0)
	abort ();
      print_totals (what, &p->t);
      free (what);
    }
}

/* --deps follows the files named only: say so, once, when a directory
   or a package is named with it (a tree of a package's programs and
   libraries does not say which of them load which).  */
static void
deps_alone_warning (void)
{
  static bool warned;

  if (opt_deps && !warned)
    {
      warned = true;
      fprintf (stderr, "%s: warning: --deps follows the files named; the "
	       "files under a directory or in a package are checked alone\n",
	       program);
    }
}

static void
check_arg (const char *arg)
{
  struct stat st;

  /* Followed: /lib is a link to usr/lib on merged-/usr systems.  */
  if (stat (arg, &st) != 0)
    {
      error_msg (arg, "%s", strerror (errno));
      return;
    }
  if (S_ISDIR (st.st_mode) || (S_ISREG (st.st_mode) && is_deb (arg)))
    deps_alone_warning ();
  if (S_ISDIR (st.st_mode))
    {
      walk_objects = 0;
      walk (arg, arg);
      if (walk_objects == 0)
	error_msg (arg, "no ELF objects found");
    }
  else if (!S_ISREG (st.st_mode))
    error_msg (arg, "not a regular file or directory");
  else if (is_deb (arg))
    check_deb (arg, arg);
  else
    check_file (arg, arg, true);
}

static void
usage (FILE *to)
{
  fprintf (to, "\
Usage: %s [OPTION]... FILE|DIR|PACKAGE.deb...\n\
Tell whether the patched kernel accepts each ELF object's .sframe, and\n\
which functions it has no unwind rules for.  Directories are searched\n\
recursively; Debian packages are unpacked and checked as a whole.\n\
\n\
  -j, --json                print one JSON document instead of tags\n\
      --min-coverage=PERCENT  fail if an object's text is less covered\n\
      --fail-on=error|warning|none\n\
                            fail on findings of this severity or worse\n\
                            (default: error)\n\
  -I, --info                show informational (I:) tags too\n\
      --suppress-tags=TAG[,TAG...]\n\
                            do not report these tags, nor count them\n\
      --deps                also check the objects that each FILE loads,\n\
                            found as ld.so finds them, and tell where\n\
                            its stacks stop (not under DIR or PACKAGE)\n\
      --library-path=PATH   with --deps, search PATH as ld.so searches\n\
                            LD_LIBRARY_PATH (which is not read)\n\
  -q, --quiet               no N: summaries\n\
  -h, --help                show this help and exit\n\
  -V, --version             show the version and exit\n\
\n\
Exit status: 0 if clean, 1 if the policy failed, 2 on a usage error or a\n\
file that could not be read.\n", program);
}

int
main (int argc, char **argv)
{
  static const struct option options[] = {
    { "json", no_argument, NULL, 'j' },
    { "min-coverage", required_argument, NULL, 'm' },
    { "fail-on", required_argument, NULL, 'f' },
    { "info", no_argument, NULL, 'I' },
    { "suppress-tags", required_argument, NULL, 's' },
    { "deps", no_argument, NULL, 'd' },
    { "library-path", required_argument, NULL, 'L' },
    { "quiet", no_argument, NULL, 'q' },
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
    { NULL, 0, NULL, 0 },
  };
  int c;

  while ((c = getopt_long (argc, argv, "jIqhV", options, NULL)) != -1)
    switch (c)
      {
      case 'j':
	opt_json = true;
	break;
      case 'm':
	{
	  char *end;

	  errno = 0;
	  opt_min_coverage = strtod (optarg, &end);
	  if (errno || end == optarg || *end || !isfinite (opt_min_coverage)
	      || opt_min_coverage < 0 || opt_min_coverage > 100)
	    {
	      fprintf (stderr, "%s: --min-coverage: not a percentage: %s\n",
		       program, optarg);
	      return 2;
	    }
	}
	break;
      case 'f':
	if (strcmp (optarg, "error") == 0)
	  opt_fail_on = FAIL_ON_ERROR;
	else if (strcmp (optarg, "warning") == 0)
	  opt_fail_on = FAIL_ON_WARNING;
	else if (strcmp (optarg, "none") == 0)
	  opt_fail_on = FAIL_ON_NONE;
	else
	  {
	    fprintf (stderr, "%s: --fail-on: expected error, warning or "
		     "none, not %s\n", program, optarg);
	    return 2;
	  }
	break;
      case 'I':
	opt_info = true;
	break;
      case 's':
	opt_suppress = optarg;
	break;
      case 'd':
	opt_deps = true;
	break;
      case 'L':
	deps_config.library_path = optarg;
	break;
      case 'q':
	opt_quiet = true;
	break;
      case 'h':
	usage (stdout);
	return 0;
      case 'V':
	printf ("sframe-check (sframe-rtld) %s\n"
		"kernel/unwind/sframe.c: %s\n", PACKAGE_VERSION,
		sframe_kernel_source_id ());
	return 0;
      default:
	usage (stderr);
	return 2;
      }
  if (optind == argc)
    {
      fprintf (stderr, "%s: no FILE, DIR or PACKAGE given\n", program);
      usage (stderr);
      return 2;
    }

  if (opt_json)
    printf ("{\"tool\": \"sframe-check\", \"version\": \"%s\", "
	    "\"kernel_source\": \"%s\",\n \"objects\": [", PACKAGE_VERSION,
	    sframe_kernel_source_id ());
  /* With --deps, the files named are known before any walk meets them
     under another name: each is reported under the name given, in its
     turn, whatever the order of the arguments.  */
  if (opt_deps)
    for (int i = optind; i < argc; i++)
      {
	struct stat st;
	struct deps_file *f;

	if (stat (argv[i], &st) == 0 && S_ISREG (st.st_mode)
	    && !is_deb (argv[i]) && deps_file_find (st.st_dev, st.st_ino) == NULL)
	  {
	    f = deps_file_add (st.st_dev, st.st_ino, argv[i]);
	    f->named = true;
	  }
      }
  for (int i = optind; i < argc; i++)
    check_arg (argv[i]);

  if (opt_json)
    {
      const struct totals *t = &run_totals;

      printf ("],\n \"packages\": [");
      for (size_t i = 0; i < npackages; i++)
	{
	  const struct package *p = &packages[i];

	  printf ("%s\n    {\"name\": ", i ? "," : "");
	  json_string (p->name);
	  printf (", \"version\": ");
	  json_string (p->version);
	  printf (", \"architecture\": ");
	  json_string (p->arch);
	  printf (", \"file\": ");
	  json_string (p->file);
	  printf (", \"objects\": %lu, \"with_sframe\": %lu, \"accepted\": %lu, "
		  "\"rejected\": %lu, \"text_bytes\": %llu, "
		  "\"covered_bytes\": %llu, \"functions\": %lu, "
		  "\"functions_without_fde\": %lu, \"errors\": %lu, "
		  "\"warnings\": %lu}",
		  p->t.objects, p->t.with_sframe, p->t.accepted, p->t.rejected,
		  p->t.text_bytes, p->t.covered_bytes, p->t.functions,
		  p->t.functions_without_fde, p->t.errors, p->t.warnings);
	}
      printf ("],\n \"summary\": {\"objects\": %lu, \"with_sframe\": %lu, "
	      "\"accepted\": %lu, \"rejected\": %lu, \"errors\": %lu, "
	      "\"warnings\": %lu, \"status\": %d}}\n",
	      t->objects, t->with_sframe, t->accepted, t->rejected, t->errors,
	      t->warnings, status_error ? 2 : policy_failed ? 1 : 0);
    }
  else if (!opt_quiet && loose_objects + npackages > 1)
    print_totals ("total", &run_totals);

  if (fflush (stdout) != 0 || ferror (stdout))
    {
      fprintf (stderr, "%s: write error: %s\n", program, strerror (errno));
      return 2;
    }
  return status_error ? 2 : policy_failed ? 1 : 0;
}

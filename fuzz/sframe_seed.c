/* sframe_seed -- make sframe_fuzz inputs from ELF files.

   Usage: sframe_seed OUT-DIR ELF-FILE...

   For each file with a PT_GNU_SFRAME segment, writes OUT-DIR/<name>.seed:
   the text offset relative to the section (s32), the length of the
   executable PT_LOAD segment (u32), then the section's bytes -- the
   input format of sframe_fuzz.c.  Files without .sframe are skipped with
   a message; anything unreadable is an error.  */

#include <elf.h>
#include <errno.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PT_GNU_SFRAME
# define PT_GNU_SFRAME 0x6474e554
#endif

static unsigned char *
slurp (const char *path, size_t *len)
{
  FILE *f = fopen (path, "rb");
  unsigned char *buf;
  long n;

  if (!f || fseek (f, 0, SEEK_END) || (n = ftell (f)) < 0
      || fseek (f, 0, SEEK_SET))
    {
      fprintf (stderr, "sframe_seed: %s: %s\n", path, strerror (errno));
      exit (1);
    }
  buf = malloc (n ? n : 1);
  if (!buf || fread (buf, 1, n, f) != (size_t) n)
    {
      fprintf (stderr, "sframe_seed: %s: cannot read\n", path);
      exit (1);
    }
  fclose (f);
  *len = n;
  return buf;
}

int
main (int argc, char **argv)
{
  int written = 0;

  if (argc < 3)
    {
      fprintf (stderr, "usage: sframe_seed OUT-DIR ELF-FILE...\n");
      return 2;
    }
  for (int a = 2; a < argc; a++)
    {
      size_t len;
      unsigned char *buf = slurp (argv[a], &len);
      Elf64_Ehdr *eh = (Elf64_Ehdr *) buf;
      Elf64_Phdr *sf = NULL, *tx = NULL;

      if (len < sizeof *eh || memcmp (eh->e_ident, ELFMAG, SELFMAG)
	  || eh->e_ident[EI_CLASS] != ELFCLASS64
	  || eh->e_phoff > len
	  || (size_t) eh->e_phnum * sizeof (Elf64_Phdr) > len - eh->e_phoff)
	{
	  fprintf (stderr, "sframe_seed: %s: not a 64-bit ELF file\n", argv[a]);
	  return 1;
	}
      for (int i = 0; i < eh->e_phnum; i++)
	{
	  Elf64_Phdr *ph = (Elf64_Phdr *) (buf + eh->e_phoff) + i;
	  if (ph->p_type == PT_GNU_SFRAME)
	    sf = ph;
	  else if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && !tx)
	    tx = ph;
	}
      if (!sf || !tx || sf->p_offset > len || sf->p_filesz > len - sf->p_offset)
	{
	  fprintf (stderr, "sframe_seed: %s: no .sframe, skipped\n", argv[a]);
	  continue;
	}

      int32_t text_off = (int32_t) (tx->p_vaddr - sf->p_vaddr);
      uint32_t text_len = tx->p_memsz;
      char out[4096];
      char *base = basename (argv[a]);
      snprintf (out, sizeof out, "%s/%s.seed", argv[1], base);
      FILE *o = fopen (out, "wb");
      if (!o || fwrite (&text_off, 4, 1, o) != 1
	  || fwrite (&text_len, 4, 1, o) != 1
	  || fwrite (buf + sf->p_offset, 1, sf->p_filesz, o) != sf->p_filesz
	  || fclose (o))
	{
	  fprintf (stderr, "sframe_seed: %s: %s\n", out, strerror (errno));
	  return 1;
	}
      written++;
      free (buf);
    }
  printf ("sframe_seed: %d seeds\n", written);
  return written ? 0 : 1;
}

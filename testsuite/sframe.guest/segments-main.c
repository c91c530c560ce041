/* segments-main.c -- run segments_run of the library built from
   segments.c, loaded as a DT_NEEDED dependency by ld.so.  */

#include <stdlib.h>

void segments_run (double seconds);

int
main (int argc, char **argv)
{
  segments_run (argc > 1 ? atof (argv[1]) : 1);
  return 0;
}

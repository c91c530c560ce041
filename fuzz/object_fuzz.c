/* object_fuzz.c -- libFuzzer target for sframe-check's reading of ELF
   objects (tools/sframe-check/elfobj.c and analyze.c), which meets
   untrusted files, with the kernel's decoder beneath it as sframe-check
   has it, of their dynamic linkage (--deps), and of an ld.so.cache
   (deps.c), whose path --deps derives from a program's PT_INTERP.  An
   input is a whole file.  AddressSanitizer and UndefinedBehaviorSanitizer
   catch what goes wrong; the target itself aborts when a report
   contradicts itself.  */

#include <stdint.h>
#include <stdlib.h>

#include "analyze.h"
#include "deps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sframe_report r;
	struct sframe_linkage l;
	struct deps_cache c;
	double cov;

	sframe_analyze_linkage(data, size, &r, &l);
	cov = sframe_coverage(&r);
	if (cov > 100.0001)
		abort();
	if (r.accepted && (r.nranges == 0 || !r.offered || !r.checked))
		abort();
	if (r.functions_without_fde + r.functions_partly_covered +
	    r.functions_without_rule > r.functions)
		abort();
	for (unsigned long i = 0; i < r.nfindings; i++)
		if (!r.findings[i].tag)
			abort();
	if (r.status == ELFOBJ_NOT_ELF && (l.nneeded || l.nexports || l.interp))
		abort();
	if (l.fp_functions > l.functions)
		abort();
	for (unsigned int i = 0; i < l.nneeded; i++)
		if (!l.needed[i])
			abort();
	sframe_frame_pointers(&l);
	sframe_report_free(&r);

	/* The same bytes as an ld.so.cache, looked up by the names the
	   object needs.  */
	deps_cache_parse(&c, data, size);
	for (unsigned int i = 0; i < l.nneeded; i++)
		deps_cache_lookup(&c, l.needed[i]);
	for (size_t i = 0; i < c.n; i++)
		if (deps_cache_lookup(&c, c.entries[i].name) == NULL)
			abort();
	deps_cache_free(&c);
	sframe_linkage_free(&l);
	return 0;
}

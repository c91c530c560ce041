/* object_fuzz.c -- libFuzzer target for sframe-check's reading of ELF
   objects (tools/sframe-check/elfobj.c and analyze.c), which meets
   untrusted files, with the kernel's decoder beneath it as sframe-check
   has it.  An input is a whole file.  AddressSanitizer and
   UndefinedBehaviorSanitizer catch what goes wrong; the target itself
   aborts when a report contradicts itself.  */

#include <stdint.h>
#include <stdlib.h>

#include "analyze.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sframe_report r;
	double cov;

	sframe_analyze(data, size, &r);
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
	sframe_report_free(&r);
	return 0;
}

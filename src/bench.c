/* bench.c - placeholder until --bench lands (issue 4). */
#include "options.h"
#include "util.h"

int
ms_bench_main(struct ms_options *o)
{
	(void)o;
	ms_warn("--bench is not implemented yet");
	return MS_EXIT_USAGE;
}

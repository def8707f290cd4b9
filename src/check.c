/* check.c - placeholder until verification lands (issue 3). */
#include "options.h"
#include "util.h"

int
ms_check_main(struct ms_options *o)
{
	(void)o;
	ms_warn("--check is not implemented yet");
	return MS_EXIT_USAGE;
}

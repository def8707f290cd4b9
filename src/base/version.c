/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * version.c - the --version text (GNU's shape: name and version, the
 * copyright line, the licence line and the no-warranty sentence).
 */
#include "base/version.h"

#include <stdio.h>

void
ms_print_version(const char *name)
{
	printf("%s %s\n"
	    "Copyright (c) 2026 the multisum authors\n"
	    "License BSD-2-Clause: <https://spdx.org/licenses/BSD-2-Clause.html>\n"
	    "This is free software: you are free to change and redistribute it.\n"
	    "There is NO WARRANTY, to the extent permitted by law.\n",
	    name, PACKAGE_VERSION);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check.h - verify mode, shared by multisum -c and the coreutils
 * personalities, which differ only in how lines are read and in one
 * detail of how names are printed.
 */
#ifndef MS_CHECK_H
#define MS_CHECK_H

#include <stdbool.h>

#include "manifest/manifest.h"
#include "modes/options.h"

struct ms_check_style {
	struct ms_manifest_rules rules;
	/* coreutils 9.1 escapes a name in a report only if it holds a
	 * newline; multisum whenever its lines would (\, newline, CR). */
	bool		 escape_newline_only;
};

/*
 * Verify every manifest of o->files (standard input if none) through the
 * engine, reporting in manifest order.  Uses o->quiet, status, strict,
 * warn, ignore_missing, engine and archive.  Returns the exit status.
 */
int	 ms_check_run(const struct ms_options *o,
	    const struct ms_check_style *style);

/* multisum -c and --expect: ms_check_run (or --expect's one digest) in
 * multisum's native style. */
int	 ms_check_main(const struct ms_options *o);

#endif

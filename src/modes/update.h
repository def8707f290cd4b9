/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * update.h - the modes that keep a manifest over time (issue 11):
 * --update (update.c), --audit (audit.c) and --merge (merge.c).  Each
 * reads the options main() checked (their usage rules are multisum.c's
 * validate()), keeps what it derives in a struct of its own and returns
 * the exit status.
 */
#ifndef MS_UPDATE_H
#define MS_UPDATE_H

#include "modes/options.h"

int	 ms_update_main(const struct ms_options *o);
int	 ms_audit_main(const struct ms_options *o);
int	 ms_merge_main(const struct ms_options *o);

#endif

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * update.h - the modes that keep a manifest over time (issue 11):
 * --update (update.c), --audit (audit.c) and --merge (merge.c).  Each
 * checks its own option values and returns the exit status.
 */
#ifndef MS_UPDATE_H
#define MS_UPDATE_H

#include "modes/options.h"

int	 ms_update_main(struct ms_options *o);
int	 ms_audit_main(struct ms_options *o);
int	 ms_merge_main(struct ms_options *o);

#endif

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * scope.h - what a run covered, as its manifest's bookkeeping records it
 * (ledger.h's head): the shard, the algorithms, the walk options and the
 * operands, lists and excludes as given.
 */
#ifndef MS_SCOPE_H
#define MS_SCOPE_H

#include "manifest/ledger.h"
#include "modes/options.h"

/* Fill h (zeroed first; free with ms_ledger_head_free) for the run of o. */
void	 ms_scope_head(const struct ms_options *o, struct ms_ledger_head *h);

#endif

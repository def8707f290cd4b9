/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * store.h - -c of a content-addressed store: a directory whose files are
 * named by their own digests (--names-are-digests, OCI image layouts,
 * restic repositories, git-lfs objects).
 */
#ifndef MS_STORE_H
#define MS_STORE_H

#include <stdbool.h>

#include "modes/options.h"

/* Is this -c a store's: --names-are-digests, or one directory operand? */
bool	 ms_store_wanted(const struct ms_options *o);
/* Verify every file of each operand against its name; exit status. */
int	 ms_store_main(const struct ms_options *o);

#endif

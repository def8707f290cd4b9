/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * per_dir.h - --per-dir=NAME (per_dir.c): a manifest in each folder,
 * written (-r) or found and verified (-c -r).
 */
#ifndef MS_PER_DIR_H
#define MS_PER_DIR_H

#include "modes/options.h"

/* Write (hash mode) or verify (check mode) o->per_dir in every folder. */
int	 ms_per_dir_main(const struct ms_options *o);

#endif

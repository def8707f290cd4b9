/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * part.h - --part=K/N: one part of a huge file hashed into a partial
 * record, and --merge of all N records (part.c).
 */
#ifndef MS_PART_H
#define MS_PART_H

#include <stdbool.h>

#include "modes/options.h"

/* Hash part o->part of o->files[0] into a record (-o or standard
 * output); the exit status. */
int	 ms_part_main(const struct ms_options *o);

/* Does path start as a part record?  (--merge: parts, not shards.) */
bool	 ms_part_is_record(const char *path);

/* --merge of part records o->files into the line(s) one run over the
 * whole file would have written; the exit status. */
int	 ms_part_merge(const struct ms_options *o);

#endif

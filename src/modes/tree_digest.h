/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tree_digest.h - --tree-digest=go-h1: Go's h1: digest of a directory
 * or a zip file (golang.org/x/mod/sumdb/dirhash, Hash1).
 */
#ifndef MS_TREE_DIGEST_H
#define MS_TREE_DIGEST_H

#include "modes/options.h"

/* Print the operand's h1: value; the exit status. */
int	 ms_tree_digest_main(const struct ms_options *o);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xattr.h - --xattr=update|audit (xattr.c): digests in each file's
 * extended attributes, cshatag's names and format.
 */
#ifndef MS_XATTR_H
#define MS_XATTR_H

#include "modes/options.h"

/* Tag or audit the operands' files; the exit status. */
int	 ms_xattr_main(const struct ms_options *o);

#endif

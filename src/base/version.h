/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * version.h - the --version text: name, version, copyright, licence.
 *
 * One text for multisum and every coreutils personality, so that the
 * copyright and licence lines are written once.
 */
#ifndef MS_VERSION_H
#define MS_VERSION_H

/*
 * Print the GNU-shaped version text to standard output.  name is the
 * first line's program part: "multisum", or "sha256sum (multisum)".
 */
void	 ms_print_version(const char *name);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * format_printf.h - RHash's output: --printf/--template templates (its
 * escapes and % directives) and magnet links, over the algorithms RHash
 * names.  Opens nothing: the template's text is given.
 */
#ifndef MS_FORMAT_PRINTF_H
#define MS_FORMAT_PRINTF_H

#include <stdint.h>
#include <stdio.h>

#include "digest/digest_set.h"

struct ms_printf;

/*
 * Parse a template of len bytes (it may hold NUL bytes).  Directives
 * RHash does not know are kept as text, as RHash keeps them; one that
 * names a digest multisum lacks is refused: NULL, *why set.
 */
struct ms_printf *ms_printf_parse(const char *text, size_t len,
	    const char **why);
void	 ms_printf_free(struct ms_printf *p);

/* Add the digests the template names to sel; -1 if it overflows. */
int	 ms_printf_select(const struct ms_printf *p, struct ms_selection *sel);

/* The template for one input: path as given ("-" for standard input),
 * its size, its modification time (seconds since the epoch). */
void	 ms_printf_write(FILE *out, const struct ms_printf *p, const char *path,
	    const struct ms_selection *sel, const unsigned char *digest,
	    uint64_t size, int64_t mtime);

/* --format=magnet: RHash's default digests (tth, ed2k, aich) if sel is
 * empty; NULL, or why sel cannot go in a link (a digest RHash lacks). */
const char *ms_magnet_select(struct ms_selection *sel);

/* One "magnet:?xl=SIZE&dn=NAME&xt=urn:..." line, in RHash's order. */
void	 ms_magnet_write(FILE *out, const char *path,
	    const struct ms_selection *sel, const unsigned char *digest,
	    uint64_t size);

#endif

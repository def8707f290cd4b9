/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * format.h - writing result lines: GNU, BSD tags, SFV, NDJSON; name
 * escaping; hex and base64 digests; the legacy lines of cksum and sum.
 */
#ifndef MS_FORMAT_H
#define MS_FORMAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "digest/digest_set.h"
#include "base/json.h"	/* ms_json_string, which NDJSON lines use */

enum ms_format { MS_FORMAT_GNU, MS_FORMAT_BSD, MS_FORMAT_SFV, MS_FORMAT_NDJSON,
    MS_FORMAT_HASHDEEP };

/* --format's word of f ("gnu"), and f of the word s[0..len), or -1. */
const char *ms_format_name(enum ms_format f);
int	 ms_format_named(const char *s, size_t len, enum ms_format *f);

struct ms_format_opts {
	enum ms_format	 format;
	bool		 binary;	/* GNU: '*' before the name */
	bool		 zero;		/* NUL-terminated lines, no escaping */
	bool		 base64;
	bool		 raw;		/* bare binary digest */
	bool		 name_stdin;	/* legacy lines: print the name "-" */
	/* cksum -a crc32b: the CRC in cksum's decimal line ("CRC SIZE
	 * NAME"), as a legacy row's */
	bool		 decimal;
	/* GNU lines as b3sum 1.2 writes them: invalid UTF-8 in a name as
	 * U+FFFD, only \\ and \n escaped; the digest may be any length */
	bool		 b3sum_names;
	bool		 no_names;	/* GNU: the digest alone (b3sum --no-names) */
};

/*
 * Write the line(s) for one hashed input: one line per digest of sel in
 * BSD format, one line in the others.  name is the display name.
 */
void	 ms_format_result(FILE *out, const struct ms_format_opts *o,
	    const char *name, const struct ms_selection *sel,
	    const unsigned char *digest, uint64_t size);

/*
 * The same into b's end, for the lines most runs write (GNU and BSD,
 * names that need no escaping or -z), without a FILE: true, or false
 * with nothing added for a line only ms_format_result writes.
 */
struct ms_bytes;
bool	 ms_format_result_bytes(struct ms_bytes *b,
	    const struct ms_format_opts *o, const char *name,
	    const struct ms_selection *sel, const unsigned char *digest);

/*
 * b3sum_names: what the line for name holds before its digest, the
 * backslash of an escaped name (b3sum 1.2 writes it before it parses -l,
 * and leaves it when that fails).  Nothing in other formats.
 */
void	 ms_format_lead(FILE *out, const struct ms_format_opts *o,
	    const char *name);

/*
 * Why a line for this name cannot be written in the format (SFV cannot
 * hold a name that starts with ; or #, or has a newline), or NULL.
 */
const char *ms_format_refuses(const struct ms_format_opts *o, const char *name);

/*
 * hashdeep's format (manifest_hashdeep.c): why sel cannot be its columns
 * (an algorithm hashdeep lacks), or NULL; the five lines that open its
 * files (cwd the directory the run was invoked from, argv the command
 * line, root for hashdeep's "#" prompt); one "SIZE,HEX,...,NAME" line.
 */
const char *ms_format_hashdeep_refuses(const struct ms_selection *sel);
void	 ms_format_hashdeep_header(FILE *out, const struct ms_selection *sel,
	    const char *cwd, int argc, char *const *argv, bool root);
void	 ms_format_hashdeep_line(FILE *out, const char *name,
	    const struct ms_selection *sel, const unsigned char *digest,
	    uint64_t size);

/* Does a GNU/BSD line for this name need the leading backslash? */
bool	 ms_name_needs_escape(const char *name);

/* Write name with \\, \n and \r escaped (coreutils' rule). */
void	 ms_write_escaped(FILE *out, const char *name);

#endif

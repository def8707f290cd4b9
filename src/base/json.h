/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * json.h - a small JSON writer: string escaping, and objects, arrays,
 * keys and numbers with the commas put in for the caller.  The layout is
 * one line unless the caller asks for a line break before a member.
 */
#ifndef MS_JSON_H
#define MS_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define MS_JSON_DEPTH	8

struct ms_json {
	FILE		*out;
	unsigned	 depth;		/* open objects and arrays */
	bool		 more[MS_JSON_DEPTH];	/* a member was written */
	bool		 keyed;		/* a key waits for its value */
	int		 indent;	/* >= 0: break the line before next */
};

/*
 * Write s as a JSON string: quotes, backslashes and control characters
 * escaped; a byte that is not UTF-8 as U+DC00 plus the byte
 * (surrogateescape), so that no two names give the same string.
 */
void	 ms_json_string(FILE *out, const char *s);

void	 ms_json_start(struct ms_json *j, FILE *out);
/* The next member or element starts a new line, indented by indent. */
void	 ms_json_break(struct ms_json *j, int indent);
void	 ms_json_key(struct ms_json *j, const char *key);
void	 ms_json_open_object(struct ms_json *j);
void	 ms_json_open_array(struct ms_json *j);
void	 ms_json_close_object(struct ms_json *j);
void	 ms_json_close_array(struct ms_json *j);
/* Values; a NULL string and a number that is not finite are null. */
void	 ms_json_str(struct ms_json *j, const char *s);
void	 ms_json_real(struct ms_json *j, int decimals, double v);
void	 ms_json_uint(struct ms_json *j, uintmax_t v);
void	 ms_json_int(struct ms_json *j, intmax_t v);
void	 ms_json_null(struct ms_json *j);
void	 ms_json_bool(struct ms_json *j, bool v);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * manifest_b3sum.c - the rules of b3sum 1.2's --check, reproduced for
 * the b3sum face: "HEX  NAME" with exactly 64 lower-case hex digits and
 * two spaces, a leading backslash for a name with \\ or \n escaped, and
 * its reason for every line it refuses ("Short line", "Invalid hex"...),
 * in the order it tests them.  A line that is not UTF-8 ends the
 * manifest, as b3sum's reader stops there.  Pure, as manifest.c.
 */
#include "manifest/manifest_int.h"

#include <string.h>

#include "base/rust_text.h"
#include "base/util.h"

#define B3_HEX		64	/* 2 * blake3::OUT_LEN */
#define B3_PREFIX	(B3_HEX + 2)

static int
hex_half(char c)
{
	/* lower case only, as b3sum 1.2 reads them */
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
	    c - 'a' + 10 : -1;
}

/* b3sum's unescape in place over n bytes: only \\ and \n; NUL-ends it. */
static bool
unescape(char *s, size_t n, size_t *out_len)
{
	char *d = s;

	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\\') {
			*d++ = s[i];
			continue;
		}
		if (++i == n || (s[i] != 'n' && s[i] != '\\'))
			return false;
		*d++ = s[i] == 'n' ? '\n' : '\\';
	}
	*out_len = (size_t)(d - s);
	*d = '\0';
	return true;
}

/* Why b3sum refuses the line (newline stripped, len bytes), or NULL. */
static const char *
refusal(char *s, size_t len, struct ms_manifest_entry *e)
{
	size_t name_len;

	if (len == 0)
		return "Empty line";
	if (s[0] == '\\') {
		e->escaped = true;
		s++;
		len--;
	}
	if (len <= B3_PREFIX)
		return "Short line";
	for (size_t i = 0; i < B3_PREFIX; i++)
		if ((unsigned char)s[i] >= 0x80)
			return "Non-ASCII prefix";
	if (s[B3_HEX] != ' ' || s[B3_HEX + 1] != ' ')
		return "Invalid space";
	for (size_t i = 0; i < B3_HEX / 2; i++) {
		int hi = hex_half(s[2 * i]), lo = hex_half(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return "Invalid hex";
		e->d[0].digest[i] = (unsigned char)(hi << 4 | lo);
	}
	e->name = s + B3_PREFIX;
	name_len = len - B3_PREFIX;
	if (e->escaped && !unescape(s + B3_PREFIX, name_len, &name_len))
		return "Invalid backslash escape";
	if (memchr(e->name, '\0', name_len) != NULL)
		return "Null character in path";
	if (strstr(e->name, "\xEF\xBF\xBD") != NULL)
		return "Unicode replacement character in path";
	return NULL;
}

enum ms_line
ms_mf_b3sum_parse(const struct ms_manifest_rules *r,
    struct ms_manifest_state *st, char *line, size_t len,
    struct ms_manifest_entry *e)
{
	if (st->refused)
		return MS_LINE_SKIP;
	if (!ms_rust_utf8_valid(line, len)) {
		st->refused = true;
		e->why = "stream did not contain valid UTF-8";
		return MS_LINE_BAD;
	}
	while (len > 0 && line[len - 1] == '\n')
		len--;
	line[len] = '\0';
	if ((e->why = refusal(line, len, e)) != NULL) {
		e->name = NULL;
		return MS_LINE_BAD;
	}
	e->how = MS_BY_TAG;
	e->n = 1;
	e->d[0].spec.algo = r->tool;
	e->d[0].spec.bits = B3_HEX * 4;
	e->d[0].len = B3_HEX / 2;
	return MS_LINE_ENTRY;
}

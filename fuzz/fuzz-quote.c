/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-quote.c - libFuzzer target: file names quoted for messages
 * (quote.c's ms_quotef, coreutils' quotef).  Checks: no crash, no
 * sanitizer report; the quoted text holds no control character (a
 * newline in a name must not forge a message line), and read back as a
 * POSIX shell reads '...', "..." and $'...' words it is the name again.
 */
#include "fuzz.h"

#include "base/quote.h"

/* One $'...' escape at *q (after the backslash) into *o. */
static const char *
dollar_escape(const char *q, char *o)
{
	static const char letters[] = "a\ab\bf\fn\nr\rt\tv\v\\\\''\"\"";

	for (const char *l = letters; *l; l += 2)
		if (*q == l[0]) {
			*o = l[1];
			return q + 1;
		}
	if (*q >= '0' && *q <= '7') {
		int v = 0;

		for (int k = 0; k < 3 && *q >= '0' && *q <= '7'; k++)
			v = v * 8 + *q++ - '0';
		*o = (char)v;
		return q;
	}
	abort();		/* an escape no shell reads */
}

/* The word q as a shell reads it, into out. */
static void
unquote(const char *q, char *out)
{
	char *o = out;

	while (*q) {
		if (*q == '\'') {
			for (q++; *q && *q != '\''; )
				*o++ = *q++;
			if (*q++ != '\'')
				abort();
		} else if (*q == '"') {
			for (q++; *q && *q != '"'; ) {
				if (*q == '\\' && q[1] && strchr("\"\\$`", q[1]))
					q++;
				*o++ = *q++;
			}
			if (*q++ != '"')
				abort();
		} else if (q[0] == '$' && q[1] == '\'') {
			for (q += 2; *q && *q != '\''; o++)
				q = *q == '\\' ? dollar_escape(q + 1, o) :
				    (*o = *q, q + 1);
			if (*q++ != '\'')
				abort();
		} else if (*q == '\\' && q[1] != '\0') {
			*o++ = q[1];	/* '\'' ends a quote for a quote */
			q += 2;
		} else {
			*o++ = *q++;
		}
	}
	*o = '\0';
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *name = fuzz_text(data, size), *back;
	const char *q = ms_quotef(name);

	for (const unsigned char *p = (const unsigned char *)q; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			abort();
	back = malloc(strlen(q) + 1);
	if (back == NULL)
		abort();
	unquote(q, back);
	if (strcmp(back, name) != 0)
		abort();
	free(back);
	free(name);
	return 0;
}

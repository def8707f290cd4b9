/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * quote.c - quoting names in messages as coreutils does.
 *
 * Owns the shell-escape quoting of file names (gnulib's quotef: plain
 * names stay as they are; others are put in single quotes, a single
 * quote inside becomes '\'' unless double quotes do, and bytes that are
 * not printable in the current locale become $'\n' or $'\ooo') and the
 * locale quotes around arguments.  Pure string work; it never prints.
 */
#include "base/quote.h"

#include <langinfo.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "base/util.h"

#define RING	4

struct buf {
	char	*p;
	size_t	 len, cap;
};

static void
put(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = ms_xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static struct buf *
next_slot(void)
{
	static struct buf ring[RING];
	static unsigned turn;
	struct buf *b = &ring[turn++ % RING];

	b->len = 0;
	put(b, "", 0);
	return b;
}

/* Shell metacharacters that make quotes necessary anywhere. */
static bool
special(int c)
{
	return c != '\0' && strchr(" !\"$&()*;<=>[^`|?\\:'", c) != NULL;
}

/* Letter escapes of $'...'. */
static int
letter(int c)
{
	switch (c) {
	case '\a': return 'a';
	case '\b': return 'b';
	case '\f': return 'f';
	case '\n': return 'n';
	case '\r': return 'r';
	case '\t': return 't';
	case '\v': return 'v';
	}
	return 0;
}

/*
 * The length of the printable character at s (1 for plain ASCII), or 0
 * if the byte at s starts nothing printable in this locale.
 */
static size_t
printable(const char *s, size_t left)
{
	unsigned char c = (unsigned char)*s;
	mbstate_t mbs;
	wchar_t wc;
	size_t n;

	if (c < 0x80)
		return c >= 0x20 && c < 0x7f ? 1 : 0;
	memset(&mbs, 0, sizeof(mbs));
	n = mbrtowc(&wc, s, left, &mbs);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0 || !iswprint((wint_t)wc))
		return 0;
	return n;
}

const char *
ms_quotef(const char *name)
{
	size_t len = strlen(name);
	struct buf *b = next_slot();
	bool quote = len == 0, squote = false, dquote_ok = true;
	bool pending = false;

	for (size_t i = 0; i < len; ) {
		unsigned char c = (unsigned char)name[i];
		size_t n = printable(name + i, len - i);

		if (c == '\'') {
			squote = quote = true;
		} else if (n == 0) {
			quote = true;
			dquote_ok = false;
		} else {
			if (special(c) || ((c == '#' || c == '~') && i == 0) ||
			    ((c == '{' || c == '}') && len == 1))
				quote = true;
			/* Inside double quotes only these stay literal. */
			if ((special(c) && c != ' ' && c != ':') ||
			    strchr("#~{}", c) != NULL)
				dquote_ok = false;
		}
		i += n ? n : 1;
	}
	if (!quote) {
		put(b, name, len);
		return b->p;
	}
	if (squote && dquote_ok) {
		put(b, "\"", 1);
		put(b, name, len);
		put(b, "\"", 1);
		return b->p;
	}
	put(b, "'", 1);
	for (size_t i = 0; i < len; ) {
		unsigned char c = (unsigned char)name[i];
		size_t n = printable(name + i, len - i);
		char esc[8];

		if (n == 0) {
			if (!pending)
				put(b, "'$'", 3);
			pending = true;
			if (letter(c))
				snprintf(esc, sizeof(esc), "\\%c", letter(c));
			else
				snprintf(esc, sizeof(esc), "\\%03o", c);
			put(b, esc, strlen(esc));
			i++;
			continue;
		}
		if (pending)
			put(b, "''", 2);
		pending = false;
		if (c == '\'')
			put(b, "'\\''", 4);
		else
			put(b, name + i, n);
		i += n;
	}
	put(b, "'", 1);
	return b->p;
}

const char *
ms_quote(const char *arg)
{
	struct buf *b = next_slot();
	bool utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;

	put(b, utf8 ? "\xe2\x80\x98" : "'", utf8 ? 3 : 1);
	put(b, arg, strlen(arg));
	put(b, utf8 ? "\xe2\x80\x99" : "'", utf8 ? 3 : 1);
	return b->p;
}

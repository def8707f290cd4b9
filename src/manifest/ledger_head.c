/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * ledger_head.c - the first lines of a manifest's bookkeeping: the v1
 * header's KEY=VALUE words and the scope lines after it.
 *
 * Owns their text both ways (ledger.h has the grammar) and the
 * comparison --merge makes between shards.  A reader skips the keys it
 * does not know, so that a later multisum can add keys within v1, and
 * checkers skip every line: they all start with '#'.
 */
#include "manifest/ledger.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "manifest/format.h"
#include "base/util.h"

#define FIELDS	"size,mtime_ns,ctime_ns,ino"

const char *
ms_header_word(const char *line, const char *key, size_t *n)
{
	size_t kl = strlen(key);

	for (const char *p = line; (p = strchr(p, ' ')) != NULL;) {
		p++;
		if (strncmp(p, key, kl) == 0 && p[kl] == '=') {
			*n = strcspn(p + kl + 1, " \r\n");
			return p + kl + 1;
		}
	}
	return NULL;
}

static char *
word_dup(const char *line, const char *key)
{
	size_t n;
	const char *v = ms_header_word(line, key, &n);

	return v != NULL ? ms_xstrndup(v, n) : NULL;
}

bool
ms_ledger_head_parse(struct ms_ledger_head *h, const char *line)
{
	const char *v;
	char *end;
	size_t n;

	memset(h, 0, sizeof(*h));
	if (strncmp(line, MS_LEDGER_MAGIC, strlen(MS_LEDGER_MAGIC)) != 0)
		return false;
	if ((v = ms_header_word(line, "stamp", &n)) != NULL && n > 0 &&
	    (*v == '-' || (*v >= '0' && *v <= '9'))) {
		long long s = strtoll(v, &end, 10);

		if (end == v + n && (size_t)(end - v) < 21) {
			h->has_stamp = true;
			h->stamp_ns = (int64_t)s;
		}
	}
	if ((v = ms_header_word(line, "shard", &n)) != NULL &&
	    ms_shard_set_parse(&h->shards, v) == -1)
		memset(&h->shards, 0, sizeof(h->shards));
	h->algorithms = word_dup(line, "algorithms");
	h->walk = word_dup(line, "walk");
	if ((v = ms_header_word(line, "scope", &n)) != NULL && *v >= '0' && *v <= '9') {
		unsigned long c = strtoul(v, &end, 10);

		if (end == v + n && c <= 1u << 20)
			h->nscope = c;
	}
	return true;
}

/* Undo ms_write_escaped: \\, \n and \r; false on any other escape. */
static bool
unescape(char *s)
{
	char *w = s;

	for (const char *p = s; *p; p++) {
		if (*p != '\\') {
			*w++ = *p;
			continue;
		}
		switch (*++p) {
		case '\\': *w++ = '\\'; break;
		case 'n': *w++ = '\n'; break;
		case 'r': *w++ = '\r'; break;
		default: return false;
		}
	}
	*w = '\0';
	return true;
}

void
ms_ledger_head_add_scope(struct ms_ledger_head *h, const char *kind,
    const char *name)
{
	h->scope = ms_xrealloc(h->scope, (h->scope_read + 1) * sizeof(*h->scope));
	h->scope[h->scope_read++] = ms_xasprintf("%s %s", kind, name);
	if (h->nscope < h->scope_read)
		h->nscope = h->scope_read;
}

bool
ms_ledger_head_scope(struct ms_ledger_head *h, const char *line)
{
	static const char *const kinds[] = {
		"operand ", "files-from ", "files0-from ", "exclude ",
	};
	size_t n = strlen(line);
	char *s;

	if (strncmp(line, MS_LEDGER_SCOPE, strlen(MS_LEDGER_SCOPE)) != 0 ||
	    h->scope_read >= h->nscope)
		return false;
	line += strlen(MS_LEDGER_SCOPE);
	n -= strlen(MS_LEDGER_SCOPE);
	if (n > 0 && line[n - 1] == '\n')
		n--;
	if (n > 0 && line[n - 1] == '\r')	/* a CRLF list's; a name's CR
						 * is written escaped */
		n--;
	for (size_t i = 0; i < MS_ARRAY_LEN(kinds); i++)
		if (strncmp(line, kinds[i], strlen(kinds[i])) == 0) {
			s = ms_xstrndup(line, n);
			if (!unescape(s)) {
				free(s);
				return false;
			}
			h->scope = ms_xrealloc(h->scope,
			    (h->scope_read + 1) * sizeof(*h->scope));
			h->scope[h->scope_read++] = s;
			return true;
		}
	return false;
}

void
ms_ledger_head_write(FILE *out, const struct ms_ledger_head *h)
{
	char set[128];

	if (!h->has_stamp && h->algorithms == NULL)
		return;
	fputs("#multisum-ledger v1", out);
	if (h->has_stamp)
		fprintf(out, " stamp=%" PRId64 " fields=" FIELDS, h->stamp_ns);
	if (h->shards.n > 0) {
		ms_shard_set_text(&h->shards, set, sizeof(set));
		fprintf(out, " shard=%s", set);
	}
	if (h->algorithms != NULL)
		fprintf(out, " algorithms=%s walk=%s scope=%zu", h->algorithms,
		    h->walk != NULL ? h->walk : "-", h->scope_read);
	putc('\n', out);
	for (size_t i = 0; h->algorithms != NULL && i < h->scope_read; i++) {
		fputs(MS_LEDGER_SCOPE, out);
		ms_write_escaped(out, h->scope[i]);
		putc('\n', out);
	}
}

static bool
same_text(const char *a, const char *b)
{
	return (a == NULL && b == NULL) ||
	    (a != NULL && b != NULL && strcmp(a, b) == 0);
}

const char *
ms_ledger_head_differs(const struct ms_ledger_head *a,
    const struct ms_ledger_head *b)
{
	if (!same_text(a->algorithms, b->algorithms))
		return "algorithms";
	if (!same_text(a->walk, b->walk))
		return "walk options (-r, -L)";
	for (size_t i = 0; i < a->scope_read || i < b->scope_read; i++) {
		const char *x = i < a->scope_read ? a->scope[i] : NULL;
		const char *y = i < b->scope_read ? b->scope[i] : NULL;

		if (!same_text(x, y))
			return (x != NULL && strncmp(x, "exclude ", 8) == 0) ||
			    (y != NULL && strncmp(y, "exclude ", 8) == 0) ?
			    "excludes" : "operands";
	}
	return NULL;
}

void
ms_ledger_head_free(struct ms_ledger_head *h)
{
	ms_shard_set_free(&h->shards);
	free(h->algorithms);
	free(h->walk);
	ms_free_strings(h->scope, h->scope_read);
	memset(h, 0, sizeof(*h));
}

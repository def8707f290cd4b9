/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * format_printf.c - RHash's output: the --printf/--template template
 * language (\ escapes; %p %f %s %{mtime} %u/%U, %x %b %B %@, the digest
 * letters and %{name} directives, %l ed2k links) and magnet links, each
 * byte as rhash 1.4.3 writes it.
 *
 * Owns RHash's table of digests (its names, letters, order and default
 * encodings) mapped to multisum's rows.  Opens and reads nothing.
 */
#include "manifest/format_printf.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "digest/algorithm.h"
#include "base/util.h"

/* RHash's digests in its order (the order of a magnet link's xt). */
struct rh_algo {
	char		 letter;	/* %c .. %w, 0 if none */
	const char	*name;		/* in %{...}, any case */
	const char	*ms;		/* multisum's row */
	bool		 b32;		/* printed in base32 by default */
	const char	*urn;		/* magnet's xt=urn:URN: */
	bool		 magnet_b32;
};

static const struct rh_algo rh_algos[] = {
	{ 'c', "crc32", "crc32", false, "crc32", false },
	{ 0, "md4", "md4", false, "md4", false },
	{ 'm', "md5", "md5", false, "md5", false },
	{ 'h', "sha1", "sha1", false, "sha1", true },
	{ 0, "tiger", "tiger", false, "tiger", false },
	{ 't', "tth", "tth", true, "tree:tiger", true },
	{ 0, "btih", "btih", false, "btih", false },
	{ 'e', "ed2k", "ed2k", false, "ed2k", false },
	{ 'a', "aich", "aich", true, "aich", true },
	{ 'w', "whirlpool", "whirlpool", false, "whirlpool", false },
	{ 'r', "ripemd160", "ripemd160", false, "ripemd160", false },
	{ 0, "gost94", "gost94", false, "gost94", false },
	{ 0, "gost94-cryptopro", "gost94-cryptopro", false, "gost94-cryptopro",
	  false },
	{ 0, "has160", "has160", false, "has160", false },
	{ 'g', "gost12-256", "streebog256", false, "gost12-256", false },
	{ 0, "gost12-512", "streebog512", false, "gost12-512", false },
	{ 0, "sha-224", "sha224", false, "sha224", false },
	{ 0, "sha-256", "sha256", false, "sha256", false },
	{ 0, "sha-384", "sha384", false, "sha384", false },
	{ 0, "sha-512", "sha512", false, "sha512", false },
	{ 0, "edon-r256", "edonr256", false, "edon-r256", false },
	{ 0, "edon-r512", "edonr512", false, "edon-r512", false },
	{ 0, "sha3-224", "sha3-224", false, "sha3-224", false },
	{ 0, "sha3-256", "sha3-256", false, "sha3-256", false },
	{ 0, "sha3-384", "sha3-384", false, "sha3-384", false },
	{ 0, "sha3-512", "sha3-512", false, "sha3-512", false },
	{ 0, "crc32c", "crc32c", false, "crc32c", false },
	{ 0, "snefru128", "snefru128", false, "snefru128", false },
	{ 0, "snefru256", "snefru256", false, "snefru256", false },
	{ 0, "blake2s", "blake2s", false, "blake2s", false },
	{ 0, "blake2b", "blake2b", false, "blake2b", false },
};
#define RH_COUNT	(sizeof(rh_algos) / sizeof(rh_algos[0]))
#define RH_ED2K		7
#define RH_AICH		8

enum kind { K_TEXT, K_PATH, K_NAME, K_SIZE, K_MTIME, K_DIGEST, K_LINK };

struct item {
	enum kind	 kind;
	size_t		 off, len;	/* K_TEXT: bytes of p->text */
	const struct rh_algo *algo;	/* K_DIGEST */
	char		 enc;		/* 0 (the default), 'x', 'b', 'B', '@' */
	bool		 upper;
	char		 url;		/* 0, 'u' or 'U' (upper-case %XX) */
	unsigned	 width;		/* of %s */
	bool		 zero;		/* pad %s with zeros */
};

struct ms_printf {
	char		*text;
	size_t		 ntext;
	struct item	*items;
	size_t		 n;
};

/* The spec of a RHash digest in multisum; -1 if multisum lacks it. */
static int
rh_spec(const struct rh_algo *r, struct ms_digest_spec *out)
{
	const char *why;

	return ms_algo_resolve(r->ms, 0, out, &why);
}

static const struct rh_algo *
rh_by_ms(const struct ms_digest_spec *s)
{
	struct ms_digest_spec x;

	for (size_t i = 0; i < RH_COUNT; i++)
		if (rh_spec(&rh_algos[i], &x) == 0 && x.algo == s->algo &&
		    x.bits == s->bits)
			return &rh_algos[i];
	return NULL;
}

static void
add_text(struct ms_printf *p, const char *s, size_t n)
{
	struct item *last = p->n > 0 ? &p->items[p->n - 1] : NULL;

	p->text = ms_xrealloc(p->text, p->ntext + n + 1);
	memcpy(p->text + p->ntext, s, n);
	if (last != NULL && last->kind == K_TEXT) {
		last->len += n;
	} else {
		p->items = ms_xrealloc(p->items, (p->n + 1) * sizeof(*p->items));
		p->items[p->n++] = (struct item){ .kind = K_TEXT,
		    .off = p->ntext, .len = n };
	}
	p->ntext += n;
}

static void
add_item(struct ms_printf *p, const struct item *it)
{
	p->items = ms_xrealloc(p->items, (p->n + 1) * sizeof(*p->items));
	p->items[p->n++] = *it;
}

static int
hexval(int c)
{
	return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

/* A \ escape at s (after the backslash); the bytes it took. */
static size_t
escape(struct ms_printf *p, const char *s, const char *end)
{
	static const char from[] = "nrt\\", to[] = "\n\r\t\\";
	const char *c = s < end ? strchr(from, *s) : NULL;
	unsigned v = 0;
	size_t k = 0;
	char b;

	if (s < end && *s != '\0' && c != NULL) {
		add_text(p, &to[c - from], 1);
		return 1;
	}
	if (s < end && *s >= '0' && *s <= '7') {
		for (; k < 3 && s + k < end && s[k] >= '0' && s[k] <= '7'; k++)
			v = v * 8 + (unsigned)(s[k] - '0');
		b = (char)v;
		add_text(p, &b, 1);
		return k;
	}
	if (s < end && *s == 'x') {
		for (k = 1; k < 3 && s + k < end && hexval((unsigned char)s[k]) >= 0;
		    k++)
			v = v * 16 + (unsigned)hexval((unsigned char)s[k]);
		if (k > 1) {
			b = (char)v;
			add_text(p, &b, 1);
			return k;
		}
	}
	/* any other: the backslash and the character, both printed */
	add_text(p, "\\", 1);
	return 0;
}

/* The RHash digest named by n bytes at s (any case); NULL if none. */
static const struct rh_algo *
rh_named(const char *s, size_t n)
{
	for (size_t i = 0; i < RH_COUNT; i++)
		if (strlen(rh_algos[i].name) == n &&
		    strncasecmp(rh_algos[i].name, s, n) == 0)
			return &rh_algos[i];
	return NULL;
}

/* %{NAME} at s ("{"): the item; its length, or 0 if not a directive. */
static size_t
braced(const char *s, const char *end, struct item *it)
{
	const char *q = s + 1;

	while (q < end && (isalnum((unsigned char)*q) || *q == '-'))
		q++;
	if (q >= end || *q != '}')
		return 0;
	it->upper = isupper((unsigned char)s[1]) != 0;
	if ((size_t)(q - s - 1) == 5 && strncasecmp(s + 1, "mtime", 5) == 0)
		it->kind = K_MTIME;
	else if ((it->algo = rh_named(s + 1, (size_t)(q - s - 1))) != NULL)
		it->kind = K_DIGEST;
	else
		return 0;
	return (size_t)(q - s) + 1;
}

/* A letter directive (c, C, p, f, s, l, ...) into it; false if none. */
static bool
letter(char c, struct item *it)
{
	static const char other[] = "pfsLl";
	static const enum kind kinds[] = { K_PATH, K_NAME, K_SIZE, K_LINK,
	    K_LINK };
	const char *o = c != '\0' ? strchr(other, c) : NULL;

	if (o != NULL) {
		it->kind = kinds[o - other];
		it->upper = c == 'L';
		return true;
	}
	for (size_t i = 0; c != '\0' && i < RH_COUNT; i++)
		if (rh_algos[i].letter == tolower((unsigned char)c)) {
			it->kind = K_DIGEST;
			it->algo = &rh_algos[i];
			it->upper = isupper((unsigned char)c) != 0;
			return true;
		}
	return false;
}

/* A % directive at s (after the %); the bytes it took, 0 if not one. */
static size_t
directive(const char *s, const char *end, struct item *it)
{
	const char *q = s;
	size_t k;

	*it = (struct item){ 0 };
	if (q < end && (*q == 'u' || *q == 'U'))
		it->url = *q++;
	if (q < end && *q == '0')
		it->zero = true, q++;
	if (q < end && *q != '\0' && strchr("xbB@", *q) != NULL)
		it->enc = *q++;
	for (; q < end && isdigit((unsigned char)*q); q++)
		it->width = it->width * 10 + (unsigned)(*q - '0');
	if (q < end && *q == '{' && (k = braced(q, end, it)) > 0)
		return (size_t)(q - s) + k;
	if (q < end && letter(*q, it))
		return (size_t)(q - s) + 1;
	if (it->url != 0 && q == s + 1) {
		/* %u alone: the file's name, URL-encoded */
		it->kind = K_NAME;
		return 1;
	}
	return 0;
}

struct ms_printf *
ms_printf_parse(const char *text, size_t len, const char **why)
{
	struct ms_printf *p = ms_xcalloc(1, sizeof(*p));
	const char *s = text, *end = text + len;
	struct ms_digest_spec spec;
	struct item it;
	size_t k;

	while (s < end) {
		if (*s == '\\') {
			s += 1 + escape(p, s + 1, end);
		} else if (*s == '%' && s + 1 < end && s[1] == '%') {
			add_text(p, "%", 1);
			s += 2;
		} else if (*s == '%' && (k = directive(s + 1, end, &it)) > 0) {
			if ((it.kind == K_DIGEST && rh_spec(it.algo, &spec) == -1) ||
			    (it.kind == K_LINK &&
			    (rh_spec(&rh_algos[RH_ED2K], &spec) == -1 ||
			    rh_spec(&rh_algos[RH_AICH], &spec) == -1))) {
				*why = it.kind == K_LINK ? "%l needs ed2k and aich" :
				    ms_xasprintf("%%{%s}: multisum has no %s",
				    it.algo->name, it.algo->name);
				ms_printf_free(p);
				return NULL;
			}
			add_item(p, &it);
			s += 1 + k;
		} else {
			add_text(p, s++, 1);
		}
	}
	return p;
}

void
ms_printf_free(struct ms_printf *p)
{
	if (p == NULL)
		return;
	free(p->text);
	free(p->items);
	free(p);
}

/* Is a the spec of r's row (spec)?  A row has one spec in a run, with
 * the run's parameters (btih's --piece-size). */
static bool
same_row(const struct ms_digest_spec *a, const struct ms_digest_spec *spec)
{
	return a->algo == spec->algo && a->bits == spec->bits;
}

static int
select_one(struct ms_selection *sel, const struct rh_algo *r)
{
	struct ms_digest_spec spec;

	if (rh_spec(r, &spec) == -1)
		return 0;
	for (size_t i = 0; i < sel->cnt; i++)
		if (same_row(&sel->spec[i], &spec))
			return 0;
	return ms_selection_add(sel, &spec);
}

int
ms_printf_select(const struct ms_printf *p, struct ms_selection *sel)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct item *it = &p->items[i];

		if ((it->kind == K_DIGEST && select_one(sel, it->algo) == -1) ||
		    (it->kind == K_LINK &&
		    (select_one(sel, &rh_algos[RH_ED2K]) == -1 ||
		    select_one(sel, &rh_algos[RH_AICH]) == -1)))
			return -1;
	}
	return 0;
}

/* The digest of r in the result; NULL if not computed. */
static const unsigned char *
digest_of(const struct ms_selection *sel, const unsigned char *digest,
    const struct rh_algo *r, size_t *len)
{
	struct ms_digest_spec spec;

	if (rh_spec(r, &spec) == -1)
		return NULL;
	for (size_t i = 0; i < sel->cnt; i++)
		if (same_row(&sel->spec[i], &spec)) {
			*len = ms_spec_len(&sel->spec[i]);
			return digest + sel->offset[i];
		}
	return NULL;
}

/* n bytes of s, URL-encoded ('u': %xx, 'U': %XX) unless url is 0. */
static void
put_url(FILE *out, const char *s, size_t n, char url)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (url == 0 || isalnum(c) || (c != 0 && strchr("-._~", c) != NULL))
			putc(c, out);
		else
			fprintf(out, url == 'U' ? "%%%02X" : "%%%02x", c);
	}
}

/* s, a size padded on the left to it->width with zeros or spaces (RHash
 * reads a width before any directive, and pads the size alone) */
static void
put(FILE *out, const struct item *it, const char *s, size_t n)
{
	for (size_t w = n; it->kind == K_SIZE && w < it->width; w++)
		putc(it->zero ? '0' : ' ', out);
	put_url(out, s, n, it->url);
}

/* A digest as the item encodes it (buf: 2 * len + 8 bytes). */
static size_t
encode(char *buf, const struct item *it, const unsigned char *d, size_t len)
{
	char enc = it->enc != 0 ? it->enc : it->algo->b32 ? 'b' : 'x';
	size_t n;

	if (enc == '@') {
		memcpy(buf, d, len);
		return len;
	}
	if (enc == 'B')
		ms_base64(buf, d, len);
	else if (enc == 'b')
		ms_base32(buf, d, len);
	else
		ms_hex(buf, d, len);
	n = strlen(buf);
	for (size_t i = 0; enc != 'B' && it->upper && i < n; i++)
		buf[i] = (char)toupper((unsigned char)buf[i]);
	return n;
}

static void
put_digest(FILE *out, const struct item *it, const struct ms_selection *sel,
    const unsigned char *digest)
{
	size_t len = 0;
	const unsigned char *d = digest_of(sel, digest, it->algo, &len);
	char *buf;

	if (d == NULL)
		return;
	buf = ms_xmalloc(2 * len + 8);
	put(out, it, buf, encode(buf, it, d, len));
	free(buf);
}

/* "ed2k://|file|NAME|SIZE|ED2K|h=AICH|/" */
static void
put_link(FILE *out, const struct item *it, const char *name,
    const struct ms_selection *sel, const unsigned char *digest, uint64_t size)
{
	struct item e = { .kind = K_DIGEST, .algo = &rh_algos[RH_ED2K],
	    .upper = it->upper };
	struct item a = { .kind = K_DIGEST, .algo = &rh_algos[RH_AICH],
	    .upper = it->upper };

	fputs("ed2k://|file|", out);
	put_url(out, name, strlen(name), it->upper ? 'U' : 'u');
	fprintf(out, "|%llu|", (unsigned long long)size);
	put_digest(out, &e, sel, digest);
	fputs("|h=", out);
	put_digest(out, &a, sel, digest);
	fputs("|/", out);
}

/* The name RHash shows: standard input's "(stdin)", else path as given. */
static const char *
shown(const char *path)
{
	return strcmp(path, "-") == 0 ? "(stdin)" : path;
}

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

void
ms_printf_write(FILE *out, const struct ms_printf *p, const char *path,
    const struct ms_selection *sel, const unsigned char *digest,
    uint64_t size, int64_t mtime)
{
	const char *name = base_name(shown(path));
	char buf[64];
	time_t t = (time_t)mtime;
	struct tm tm;

	for (size_t i = 0; i < p->n; i++) {
		const struct item *it = &p->items[i];

		switch (it->kind) {
		case K_TEXT:
			fwrite(p->text + it->off, 1, it->len, out);
			break;
		case K_PATH:
			put(out, it, shown(path), strlen(shown(path)));
			break;
		case K_NAME:
			put(out, it, name, strlen(name));
			break;
		case K_SIZE:
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)size);
			put(out, it, buf, strlen(buf));
			break;
		case K_MTIME:
			if (localtime_r(&t, &tm) == NULL)
				memset(&tm, 0, sizeof(tm));
			strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
			put(out, it, buf, strlen(buf));
			break;
		case K_DIGEST:
			put_digest(out, it, sel, digest);
			break;
		case K_LINK:
			put_link(out, it, name, sel, digest, size);
			break;
		}
	}
}

const char *
ms_magnet_select(struct ms_selection *sel)
{
	static const size_t defaults[] = { 5, RH_ED2K, RH_AICH };	/* tth */
	bool none = sel->cnt == 0;

	for (size_t i = 0; none && i < MS_ARRAY_LEN(defaults); i++)
		if (select_one(sel, &rh_algos[defaults[i]]) == -1)
			return "too many algorithms";
	for (size_t i = 0; i < sel->cnt; i++)
		if (rh_by_ms(&sel->spec[i]) == NULL)
			return ms_xasprintf("%s: RHash has no magnet link name for "
			    "it", sel->spec[i].algo->name);
	return NULL;
}

void
ms_magnet_write(FILE *out, const char *path, const struct ms_selection *sel,
    const unsigned char *digest, uint64_t size)
{
	const char *name = base_name(shown(path));

	fprintf(out, "magnet:?xl=%llu&dn=", (unsigned long long)size);
	put_url(out, name, strlen(name), 'u');
	/* in RHash's order, whatever the order of -a */
	for (size_t r = 0; r < RH_COUNT; r++) {
		struct item it = { .kind = K_DIGEST, .algo = &rh_algos[r],
		    .enc = rh_algos[r].magnet_b32 ? 'b' : 'x' };
		size_t len;

		if (digest_of(sel, digest, it.algo, &len) == NULL)
			continue;
		fprintf(out, "&xt=urn:%s:", it.algo->urn);
		put_digest(out, &it, sel, digest);
	}
	putc('\n', out);
}

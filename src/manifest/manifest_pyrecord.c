/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * manifest_pyrecord.c - Python's RECORD (PyPA "Recording installed
 * projects", the wheel format): CSV lines "NAME,ALG=DIGEST,SIZE", the
 * digest urlsafe base64 without padding, the name quoted as Python's csv
 * module quotes it ("a,b" and "a""b").  The algorithm must be sha256 or
 * stronger: md5 and sha1 are refused, as the format forbids them.  The
 * RECORD's own line, compiled .pyc files and RECORD.jws / RECORD.p7s may
 * go without a digest and are skipped; another line without one, or
 * with md5 or sha1, names a file not verified, which fails the run.  A name that leaves the root
 * (absolute, or with a ".." component, as pip writes for scripts
 * installed elsewhere) is not verified: nothing outside the root is
 * opened.  Recognised by the list's name (RECORD in a *.dist-info
 * folder) or by its lines.  Pure: it opens and prints nothing.
 */
#include "manifest/manifest_int.h"

#include <stdint.h>
#include <string.h>

#include "base/util.h"

/*
 * What the format allows, sha256 or stronger, by multisum's names: RECORD
 * writes hashlib's, which are the same with '_' for '-' ("sha3_256").
 */
static const char *const algos[] = {
	"sha256", "sha384", "sha512", "sha3-256", "sha3-384", "sha3-512",
	"blake2b", "blake2s",
};

/* The algorithm hashlib calls word[0..n), or NULL if the format forbids
 * it. */
static const char *
allowed(const char *word, size_t n)
{
	for (size_t i = 0; i < MS_ARRAY_LEN(algos); i++) {
		const char *a = algos[i];
		size_t k = 0;

		while (k < n && a[k] != '\0' &&
		    word[k] == (a[k] == '-' ? '_' : a[k]))
			k++;
		if (k == n && a[k] == '\0')
			return a;
	}
	return NULL;
}

/*
 * One CSV field from *p: quoted ("" a quote) or plain, unquoted in place
 * into a NUL-ended string; *p after its comma (or at end).  NULL if a
 * quote is not closed or stray.
 */
static char *
field(char **p, char *end, bool *last)
{
	char *s = *p, *d = *p;

	if (s < end && *s == '"') {
		char *start = s;

		for (s++;; s++) {
			if (s == end)
				return NULL;	/* a line end in a name */
			if (*s == '"') {
				if (s + 1 < end && s[1] == '"') {
					*d++ = '"';
					s++;
					continue;
				}
				s++;
				break;
			}
			*d++ = *s;
		}
		if (s < end && *s != ',')
			return NULL;
		*d = '\0';	/* the unquoted name is shorter: in place */
		*last = s == end;
		*p = s < end ? s + 1 : s;
		return start;
	}
	while (s < end && *s != ',') {
		if (*s == '"')
			return NULL;
		s++;
	}
	*last = s == end;
	*p = s < end ? s + 1 : s;
	*s = '\0';
	return d;
}

/* "ALG=B64" of n bytes into d; why set when the algorithm is refused. */
static bool
digest(const char *s, size_t n, struct ms_manifest_digest *d, const char **why)
{
	const char *eq = memchr(s, '=', n), *algo;
	size_t w, b;
	long got;

	if (eq == NULL)
		return false;
	w = (size_t)(eq - s);
	b = n - w - 1;
	if ((algo = allowed(s, w)) != NULL) {
		/* urlsafe, unpadded */
		if (memchr(eq + 1, '=', b) != NULL)
			return false;
		got = ms_unbase64_loose(d->digest, sizeof(d->digest), eq + 1, b,
		    true);
		if (got <= 0 || !ms_mf_fit(ms_mf_algo_named(algo),
		    (size_t)got, &d->spec))
			return false;
		d->len = (size_t)got;
		return true;
	}
	if ((w == 3 && memcmp(s, "md5", 3) == 0) ||
	    (w == 4 && memcmp(s, "sha1", 4) == 0) ||
	    (w == 6 && memcmp(s, "sha224", 6) == 0))
		*why = "a digest weaker than sha256 (RECORD's format "
		    "forbids md5 and sha1)";
	return false;
}

static bool
ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && memcmp(s + n - t, tail, t) == 0;
}

/* The lines the format lets go without a digest. */
static bool
hashless(const char *name)
{
	return ends_with(name, ".dist-info/RECORD") || strcmp(name, "RECORD") == 0 ||
	    ends_with(name, ".dist-info/RECORD.jws") ||
	    ends_with(name, ".dist-info/RECORD.p7s") ||
	    ends_with(name, ".pyc") || ends_with(name, ".pyo");
}

bool
ms_manifest_pyrecord_named(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (slash == NULL || strcmp(slash + 1, "RECORD") != 0)
		return false;
	n = (size_t)(slash - path);
	return n > strlen(".dist-info") &&
	    memcmp(slash - strlen(".dist-info"), ".dist-info",
	    strlen(".dist-info")) == 0;
}

enum ms_line
ms_mf_pyrecord_parse(struct ms_manifest_state *st, char *s, size_t len,
    struct ms_manifest_entry *e)
{
	char *p = s, *end = s + len, *name, *hash, *size;
	bool last = false;
	const char *why = NULL;
	uint64_t v = 0;

	if ((name = field(&p, end, &last)) == NULL || last ||
	    (hash = field(&p, end, &last)) == NULL || last ||
	    (size = field(&p, end, &last)) == NULL || !last || *name == '\0') {
		e->why = "not a RECORD line (\"NAME,ALG=DIGEST,SIZE\" as CSV)";
		return MS_LINE_BAD;
	}
	e->name = name;
	if (*hash == '\0') {
		if (*size == '\0' && hashless(name))
			return MS_LINE_SKIP;
		/* a file listed and not verified fails the run */
		e->why = "no digest (only RECORD itself and .pyc files may "
		    "have none)";
		return MS_LINE_UNSUPPORTED;
	}
	if (!digest(hash, strlen(hash), &e->d[0], &why)) {
		e->why = why != NULL ? why : "a RECORD digest that is not "
		    "ALG=urlsafe-base64 of sha256 or stronger";
		return why != NULL ? MS_LINE_UNSUPPORTED : MS_LINE_BAD;
	}
	for (const char *c = size; *c != '\0'; c++) {
		if (*c < '0' || *c > '9' || v > (UINT64_MAX - 9) / 10) {
			e->why = "a RECORD size that is not a number";
			return MS_LINE_BAD;
		}
		v = v * 10 + (uint64_t)(*c - '0');
	}
	st->pyrecord = true;
	if (ms_path_leaves(name)) {
		e->why = "outside the root (absolute or with \"..\"): not read";
		return MS_LINE_UNSUPPORTED;
	}
	e->n = 1;
	e->how = MS_BY_TAG;
	e->has_size = *size != '\0';
	e->size = v;
	return MS_LINE_ENTRY;
}

bool
ms_mf_pyrecord_like(const char *s, size_t len)
{
	const char *c1 = NULL, *c2 = NULL, *eq;

	/* the digest field is the last but one, the size the last */
	for (const char *q = s + len; q > s; q--)
		if (q[-1] == ',') {
			if (c2 == NULL) {
				c2 = q - 1;
				continue;
			}
			c1 = q - 1;
			break;
		}
	/* a blank before the digest field: a GNU or BSD line whose name
	 * holds commas ("HEX  a,sha256=x,1"), never taken for a RECORD's
	 * by its shape (one named *.dist-info/RECORD is read as one) */
	if (c1 == NULL || memchr(s, ' ', (size_t)(c1 - s)) != NULL)
		return false;
	eq = memchr(c1, '=', (size_t)(c2 - c1));
	if (eq == NULL)
		return false;
	if (allowed(c1 + 1, (size_t)(eq - c1 - 1)) == NULL)
		return false;
	for (const char *q = c2 + 1; q < s + len; q++)
		if (*q < '0' || *q > '9')
			return false;
	return c2 + 1 < s + len;
}

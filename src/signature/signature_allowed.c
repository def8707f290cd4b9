/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signature_allowed.c - OpenSSH's allowed signers file (ssh-keygen(1),
 * "ALLOWED SIGNERS"): which principal may sign with which key.
 *
 * Each line is "PRINCIPALS [OPTIONS] KEYTYPE BASE64 [COMMENT]": the
 * principals a comma list of patterns (* and ?, ! to exclude), the
 * options a comma list of cert-authority, namespaces="LIST" (patterns
 * too), valid-after="TIME" and valid-before="TIME" (YYYYMMDD[HHMM[SS]],
 * local time, or UTC with a trailing Z).  A line whose key is the
 * signature's, whose principals match (any principal when none was
 * asked for), whose namespaces allow the namespace and whose times hold
 * now is the one that allows the signature.  cert-authority lines trust
 * certificates, which are not supported: they never match, and the
 * reason says so.  Pure text in, no I/O.
 */
#include "signature/signature_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"

/* A part of a line. */
struct span {
	const char	*p;
	size_t		 n;
};

/* The next token of l from *at: up to unquoted blank. */
static struct span
token(struct span l, size_t *at)
{
	struct span t;
	bool quoted = false;

	while (*at < l.n && (l.p[*at] == ' ' || l.p[*at] == '\t'))
		(*at)++;
	t.p = l.p + *at;
	for (; *at < l.n && (quoted || (l.p[*at] != ' ' && l.p[*at] != '\t'));
	    (*at)++)
		if (l.p[*at] == '"')
			quoted = !quoted;
	t.n = (size_t)(l.p + *at - t.p);
	return t;
}

/* Does s match the pattern p (* any run, ? any one character)? */
static bool
match(const char *s, size_t sn, const char *p, size_t pn)
{
	if (pn == 0)
		return sn == 0;
	if (*p == '*') {
		for (size_t i = 0; i <= sn; i++)
			if (match(s + i, sn - i, p + 1, pn - 1))
				return true;
		return false;
	}
	return sn > 0 && (*p == '?' || *p == *s) &&
	    match(s + 1, sn - 1, p + 1, pn - 1);
}

/* OpenSSH's match_pattern_list: a !pattern that matches vetoes. */
static bool
match_list(const char *s, struct span list)
{
	bool yes = false;
	size_t at = 0;

	if (list.n >= 2 && list.p[0] == '"' && list.p[list.n - 1] == '"') {
		list.p++;
		list.n -= 2;
	}
	while (at <= list.n) {
		const char *c = memchr(list.p + at, ',', list.n - at);
		size_t end = c != NULL ? (size_t)(c - list.p) : list.n;
		bool neg = end > at && list.p[at] == '!';
		const char *p = list.p + at + neg;

		if (match(s, strlen(s), p, end - at - neg)) {
			if (neg)
				return false;
			yes = true;
		}
		at = end + 1;
	}
	return yes;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static long long
days_from_civil(long long y, unsigned m, unsigned d)
{
	long long era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long long)doe - 719468;
}

/* valid-after's and valid-before's time; -1 if it is not one. */
static long long
parse_time(struct span v)
{
	int f[6] = { 0 };
	size_t digits = 0;
	bool utc = v.n > 0 && (v.p[v.n - 1] == 'Z' || v.p[v.n - 1] == 'z');
	struct tm tm = { 0 };

	if (utc)
		v.n--;
	if (v.n != 8 && v.n != 12 && v.n != 14)
		return -1;
	for (size_t i = 0; i < v.n; i++) {
		if (v.p[i] < '0' || v.p[i] > '9')
			return -1;
		digits = i < 4 ? 0 : (i - 4) / 2 + 1;
		f[digits] = f[digits] * 10 + (v.p[i] - '0');
	}
	if (f[1] < 1 || f[1] > 12 || f[2] < 1 || f[2] > 31 || f[3] > 23 ||
	    f[4] > 59 || f[5] > 60)
		return -1;
	if (utc)
		return days_from_civil(f[0], (unsigned)f[1], (unsigned)f[2]) *
		    86400 + f[3] * 3600 + f[4] * 60 + f[5];
	tm = (struct tm){ .tm_year = f[0] - 1900, .tm_mon = f[1] - 1,
	    .tm_mday = f[2], .tm_hour = f[3], .tm_min = f[4], .tm_sec = f[5],
	    .tm_isdst = -1 };
	return (long long)mktime(&tm);
}

/* What one line's options say: -1 with *why if they refuse. */
static int
options(struct span o, const char *ns, long long now, bool *ca,
    const char **why)
{
	size_t at = 0;

	while (at < o.n) {
		size_t end = at;
		bool quoted = false;
		struct span name, val = { NULL, 0 };
		const char *eq;

		for (; end < o.n && (quoted || o.p[end] != ','); end++)
			if (o.p[end] == '"')
				quoted = !quoted;
		name = (struct span){ o.p + at, end - at };
		eq = memchr(name.p, '=', name.n);
		if (eq != NULL) {
			val = (struct span){ eq + 1, (size_t)(name.p + name.n -
			    eq - 1) };
			name.n = (size_t)(eq - name.p);
			if (val.n >= 2 && val.p[0] == '"' && val.p[val.n - 1] == '"') {
				val.p++;
				val.n -= 2;
			}
		}
#define IS(s)	(name.n == strlen(s) && strncasecmp(name.p, s, name.n) == 0)
		if (IS("cert-authority") && eq == NULL)
			*ca = true;
		else if (IS("namespaces") && eq != NULL) {
			if (!match_list(ns, val)) {
				*why = "its key is allowed for other namespaces "
				    "only (namespaces=)";
				return -1;
			}
		} else if ((IS("valid-after") || IS("valid-before")) && eq != NULL) {
			long long t = parse_time(val);
			bool after = IS("valid-after");

			if (t == -1) {
				*why = "an invalid time in the allowed signers file";
				return -1;
			}
			if (after ? now < t : now > t) {
				*why = after ? "its key is not valid yet "
				    "(valid-after)" : "its key has expired "
				    "(valid-before)";
				return -1;
			}
		} else {
			*why = "an unknown option in the allowed signers file";
			return -1;
		}
#undef IS
		at = end + 1;
	}
	return 0;
}

/*
 * One line: 1 if it allows the signature, 0 if its key is another, -1
 * with *why if its key is the signature's but it does not allow it.
 */
static int
judge_line(struct span l, const unsigned char *blob, size_t n,
    const char *principal, const char *ns, long long now, const char **why)
{
	size_t at = 0;
	struct span who = token(l, &at), opts = { NULL, 0 }, key;
	unsigned char *kb;
	size_t kn;
	bool ca = false, same;
	const char *pwhy;

	key = token(l, &at);
	if (!ms_ssh_pubkey_shaped(key.p, key.n)) {
		opts = key;
		key = token(l, &at);
	}
	if (ms_ssh_pubkey_text(key.p, l.n - (size_t)(key.p - l.p), &kb, &kn,
	    &pwhy) == -1) {
		*why = "a malformed line";
		return -1;
	}
	same = kn == n && memcmp(kb, blob, n) == 0;
	free(kb);
	if (!same)
		return 0;
	if (options(opts, ns, now, &ca, why) == -1)
		return -1;
	if (ca) {
		*why = "cert-authority lines trust certificates, which are "
		    "not supported";
		return -1;
	}
	if (principal != NULL && !match_list(principal, who)) {
		*why = "its key is another principal's (see --signer)";
		return -1;
	}
	return 1;
}

int
ms_allowed_find(const char *text, size_t len, const unsigned char *blob,
    size_t n, const char *principal, const char *ns, long long now,
    struct ms_allowed_match *m)
{
	struct ms_line_view lv;
	size_t at = 0;
	unsigned long line = 0;

	memset(m, 0, sizeof(*m));
	m->why = "its key is in no line of the allowed signers file";
	while (ms_text_line(text, len, &at, &lv)) {
		struct span l = { lv.p, lv.len };
		size_t i = 0;
		const char *why = NULL;
		int rc;

		line++;
		while (i < l.n && (l.p[i] == ' ' || l.p[i] == '\t'))
			i++;
		if (i == l.n || l.p[i] == '#')
			continue;
		rc = judge_line(l, blob, n, principal, ns, now, &why);
		if (rc == 1) {
			i = 0;
			l = token(l, &i);
			m->principals = ms_xasprintf("%.*s", (int)l.n, l.p);
			return 0;
		}
		/* a line for the key says why; a malformed one only if no other */
		if (rc == -1 && (m->line == 0 || strcmp(why, "a malformed line"))) {
			m->why = why;
			m->line = line;
		}
	}
	return -1;
}

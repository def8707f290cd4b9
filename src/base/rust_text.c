/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rust_text.c - text the way Rust's standard library makes it, so that
 * the b3sum face says what b3sum 1.2 says byte for byte: lossy UTF-8
 * decoding (and b3sum's escaping of \ and newline in names), the text of
 * an io::Error from the OS, and the errors of str::parse for integers.
 *
 * Owns those rules and nothing else: it never prints and knows no file.
 */
#include "base/rust_text.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

/*
 * The length of the valid UTF-8 sequence at p[0] (of n bytes), or 0;
 * *bad then says how many bytes make the maximal invalid subsequence
 * that one U+FFFD replaces (Unicode's "substitution of maximal
 * subparts", which Rust follows).
 */
static size_t
utf8_seq(const unsigned char *p, size_t n, size_t *bad)
{
	unsigned char b = p[0];
	size_t need = b >= 0xF0 && b <= 0xF4 ? 4 : b >= 0xE0 && b < 0xF0 ?
	    3 : b >= 0xC2 && b < 0xE0 ? 2 : 0;
	/* the second byte's range excludes overlong forms, surrogates and
	 * code points past U+10FFFF */
	unsigned char lo = b == 0xE0 ? 0xA0 : b == 0xF0 ? 0x90 : 0x80;
	unsigned char hi = b == 0xED ? 0x9F : b == 0xF4 ? 0x8F : 0xBF;
	size_t k = 1;

	if (b < 0x80)
		return 1;
	for (; k < need && k < n; k++)
		if (p[k] < (k == 1 ? lo : 0x80) || p[k] > (k == 1 ? hi : 0xBF))
			break;
	*bad = k;
	return need != 0 && k == need ? need : 0;
}

bool
ms_rust_utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t bad;

	for (size_t i = 0, k; i < n; i += k)
		if ((k = utf8_seq(p + i, n - i, &bad)) == 0)
			return false;
	return true;
}

char *
ms_rust_lossy(const char *s, bool escape, bool *escaped)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), bad;
	/* at worst each byte is a U+FFFD (3 bytes) or an escape (2) */
	char *out = ms_xmalloc(3 * n + 1), *q = out;
	bool any = false;

	for (size_t i = 0, k; i < n; i += k) {
		if ((k = utf8_seq(p + i, n - i, &bad)) == 0) {
			memcpy(q, "\xEF\xBF\xBD", 3);
			q += 3;
			k = bad;
		} else if (escape && (p[i] == '\\' || p[i] == '\n')) {
			*q++ = '\\';
			*q++ = p[i] == '\n' ? 'n' : '\\';
			any = true;
		} else {
			memcpy(q, p + i, k);
			q += k;
		}
	}
	*q = '\0';
	if (escaped != NULL)
		*escaped = any;
	return out;
}

const char *
ms_rust_os_error(int err)
{
	static char buf[256];

	if (err == MS_ECHANGED)		/* ours: no os error to number */
		return ms_strerror(err);
	snprintf(buf, sizeof(buf), "%s (os error %d)", strerror(err), err);
	return buf;
}

int
ms_rust_parse_u64(const char *s, uint64_t *v, const char **why)
{
	const char *p = s + (*s == '+');

	*v = 0;
	if (*s == '\0') {
		*why = "cannot parse integer from empty string";
		return -1;
	}
	if (*p == '\0') {
		*why = "invalid digit found in string";
		return -1;
	}
	for (; *p != '\0'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (d > 9) {
			*why = "invalid digit found in string";
			return -1;
		}
		if (*v > (UINT64_MAX - d) / 10) {
			*why = "number too large to fit in target type";
			return -1;
		}
		*v = *v * 10 + d;
	}
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signature_minisign.c - minisign's signatures: parsing, checking,
 * writing.
 *
 * A .minisig file is four lines: an untrusted comment; base64 of the
 * algorithm ("ED": the Ed25519 signature is of the file's BLAKE2b-512,
 * minisign's default; "Ed": of the file itself, the legacy form), the
 * signer's 8-byte key number and the 64-byte signature; "trusted comment:
 * TEXT"; and base64 of the global signature, of the first signature and
 * TEXT together.  Both signatures must verify, and the key number must be
 * the public key's, as minisign -V requires (minisign.c, verify()).
 */
#include "signature/signature_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "digest/digest_set.h"
#include "base/rust_text.h"
#include "base/util.h"

#define ALG_LEGACY	"Ed"
#define ALG_HASHED	"ED"
#define TRUSTED_PREFIX	"trusted comment: "
#define SIG_BYTES	(2 + MS_KEYNUM + MS_ED25519_SIG)
#define PREHASH_BITS	512
#define TRUSTED_MAX	8192	/* minisign's TRUSTEDCOMMENTMAXBYTES */

/* The line after the first two, if there is one. */
static bool
third_line(const char *buf, size_t len, struct ms_line_view *l, size_t *at)
{
	struct ms_line_view skip;

	*at = 0;
	return ms_text_line(buf, len, at, &skip) &&
	    ms_text_line(buf, len, at, &skip) && ms_text_line(buf, len, at, l);
}

bool
ms_minisign_shaped(const char *buf, size_t len)
{
	struct ms_line_view l;
	size_t at, plen = strlen(TRUSTED_PREFIX);

	return third_line(buf, len, &l, &at) && l.len >= plen &&
	    memcmp(l.p, TRUSTED_PREFIX, plen) == 0;
}

/*
 * minisign's is_printable: valid UTF-8 (as Rust's str has it: no
 * overlong form, surrogate or code point beyond U+10FFFF) and no control
 * character but tab: no C0 control, DEL or C1 control (c2 80..c2 9f).
 */
static bool
printable(const char *s, size_t n)
{
	if (!ms_rust_utf8_valid(s, n))
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		/* valid UTF-8: a continuation byte follows 0xc2 */
		if ((c < 0x20 && c != '\t') || c == 0x7f ||
		    (c == 0xc2 && (unsigned char)s[i + 1] <= 0x9f))
			return false;
	}
	return true;
}

int
ms_minisign_parse(const char *buf, size_t len, struct ms_minisign_sig *s,
    const char **why)
{
	unsigned char raw[SIG_BYTES];
	size_t at, plen = strlen(TRUSTED_PREFIX);
	struct ms_line_view trusted, global;

	if (ms_block_parse(buf, len, raw, sizeof(raw), why) == -1)
		return -1;
	if (memcmp(raw, ALG_HASHED, 2) == 0)
		s->prehashed = true;
	else if (memcmp(raw, ALG_LEGACY, 2) == 0)
		s->prehashed = false;
	else {
		*why = "its algorithm is neither \"ED\" nor \"Ed\"";
		return -1;
	}
	memcpy(s->keynum, raw + 2, MS_KEYNUM);
	memcpy(s->sig, raw + 2 + MS_KEYNUM, MS_ED25519_SIG);
	if (!third_line(buf, len, &trusted, &at) || trusted.len < plen ||
	    memcmp(trusted.p, TRUSTED_PREFIX, plen) != 0 || !trusted.newline) {
		*why = "its third line is not a \"trusted comment:\"";
		return -1;
	}
	s->trusted = trusted.p + plen;
	s->trusted_len = trusted.len - plen;
	/* minisign refuses a CR inside the line, and anything unprintable */
	if (s->trusted_len >= TRUSTED_MAX - plen ||
	    memchr(s->trusted, '\r', s->trusted_len) != NULL ||
	    !printable(s->trusted, s->trusted_len)) {
		*why = "its trusted comment is too long or not printable text";
		return -1;
	}
	if (!ms_text_line(buf, len, &at, &global) ||
	    ms_unbase64(s->global, sizeof(s->global), global.p, global.len) !=
	    MS_ED25519_SIG) {
		*why = "its fourth line is not base64 of a signature";
		return -1;
	}
	return 0;
}

int
ms_minisign_verify(const struct ms_minisign_sig *s, const struct ms_pubkey *k,
    const char *msg, size_t len, char **said)
{
	unsigned char hash[PREHASH_BITS / 8], *both;
	int rc;

	if (s->prehashed) {
		if (ms_digest_buffer("blake2b", PREHASH_BITS, msg, len, hash) == -1) {
			*said = ms_xstrdup("BLAKE2b-512 is not available");
			return -1;
		}
		msg = (const char *)hash;
		len = sizeof(hash);
	}
	if (ms_pubkey_verify(k, s->keynum, s->sig, msg, len, "the list",
	    said) == -1)
		return -1;
	/* the global signature: of the signature and the trusted comment */
	both = ms_xmalloc(MS_ED25519_SIG + s->trusted_len);
	memcpy(both, s->sig, MS_ED25519_SIG);
	memcpy(both + MS_ED25519_SIG, s->trusted, s->trusted_len);
	rc = ms_pubkey_verify(k, NULL, s->global, both, MS_ED25519_SIG +
	    s->trusted_len, "the trusted comment", said);
	free(both);
	return rc;
}

char *
ms_minisign_sign(const struct ms_signer *s, const char *msg, size_t len,
    const char *file)
{
	unsigned char raw[SIG_BYTES], hash[PREHASH_BITS / 8];
	unsigned char global[MS_ED25519_SIG];
	char b64[4 * ((SIG_BYTES + 2) / 3) + 1];
	char gb64[4 * ((MS_ED25519_SIG + 2) / 3) + 1];
	const char *base = strrchr(file, '/');
	char *trusted, *both, *out;
	size_t tlen;

	/* minisign's own default trusted comment, for a prehashed file */
	trusted = ms_xasprintf("timestamp:%lld\tfile:%s\thashed",
	    (long long)time(NULL), base != NULL ? base + 1 : file);
	tlen = strlen(trusted);
	for (size_t i = 0; i < tlen; i++)
		if ((unsigned char)trusted[i] < 0x20 && trusted[i] != '\t')
			trusted[i] = '?';	/* a newline in the name */
	memcpy(raw, ALG_HASHED, 2);
	memcpy(raw + 2, s->keynum, MS_KEYNUM);
	both = ms_xmalloc(MS_ED25519_SIG + tlen);
	out = NULL;
	if (ms_digest_buffer("blake2b", PREHASH_BITS, msg, len, hash) == 0 &&
	    ms_ed25519_sign(s->seed, hash, sizeof(hash), raw + 2 + MS_KEYNUM) == 0) {
		memcpy(both, raw + 2 + MS_KEYNUM, MS_ED25519_SIG);
		memcpy(both + MS_ED25519_SIG, trusted, tlen);
		if (ms_ed25519_sign(s->seed, both, MS_ED25519_SIG + tlen,
		    global) == 0) {
			ms_base64(b64, raw, sizeof(raw));
			ms_base64(gb64, global, sizeof(global));
			out = ms_xasprintf(MS_COMMENT_PREFIX "signature from "
			    "minisign secret key\n%s\n" TRUSTED_PREFIX "%s\n%s\n",
			    b64, trusted, gb64);
		}
	}
	free(both);
	free(trusted);
	return out;
}

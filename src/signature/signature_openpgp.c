/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signature_openpgp.c - the OpenPGP texts multisum takes apart itself:
 * ASCII-armoured public keys, decoded for gpgv (which reads only binary
 * keyrings: what `gpg --dearmor` does, done here in C), and clear-signed
 * messages (RFC 4880, 7), split into the signed text and the signature.
 *
 * The signed text is given back as the signature covers it: dash-escapes
 * removed, each line's trailing spaces and tabs dropped, lines joined by
 * newlines and no newline after the last (the one before the signature
 * belongs to the armour).  gpgv then checks the signature over exactly
 * those bytes, and they are what the list parser reads.  A message with
 * text outside its signed part, or two messages, is refused.  Pure.
 */
#include "signature/signature_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define KEY_BEGIN	"-----BEGIN PGP PUBLIC KEY BLOCK-----"
#define KEY_END		"-----END PGP PUBLIC KEY BLOCK-----"
#define CLEAR_BEGIN	"-----BEGIN PGP SIGNED MESSAGE-----"
#define SIG_BEGIN	"-----BEGIN PGP SIGNATURE-----"
#define SIG_END		"-----END PGP SIGNATURE-----"

/* The line without trailing spaces and tabs. */
static size_t
trimmed(const struct ms_line_view *l)
{
	size_t n = l->len;

	while (n > 0 && (l->p[n - 1] == ' ' || l->p[n - 1] == '\t'))
		n--;
	return n;
}

/* Is the line the armour line text (trailing white space allowed)? */
static bool
is_line(const struct ms_line_view *l, const char *text)
{
	return trimmed(l) == strlen(text) && memcmp(l->p, text, trimmed(l)) == 0;
}

/* Is one of text's lines the armour line line? */
static bool
has_line(const char *text, size_t len, const char *line)
{
	struct ms_line_view l;
	size_t at = 0;

	while (ms_text_line(text, len, &at, &l))
		if (is_line(&l, line))
			return true;
	return false;
}

bool
ms_pgp_armored_key(const char *text, size_t len)
{
	return has_line(text, len, KEY_BEGIN);
}

/* OpenPGP's armour checksum (RFC 4880, 6.1). */
static uint32_t
crc24(const unsigned char *p, size_t n)
{
	uint32_t crc = 0xb704ce;

	for (size_t i = 0; i < n; i++) {
		crc ^= (uint32_t)p[i] << 16;
		for (int k = 0; k < 8; k++) {
			crc <<= 1;
			if (crc & 0x1000000)
				crc ^= 0x1864cfb;
		}
	}
	return crc & 0xffffff;
}

/* One armoured block from the line after its BEGIN; appended to *out. */
static int
one_block(const char *text, size_t len, size_t *at, unsigned char **out,
    size_t *outlen, const char **why)
{
	struct ms_line_view l;
	char *b64 = ms_xmalloc(len + 1);
	unsigned char *dec = ms_xmalloc(len / 4 * 3 + 3), sum[3];
	size_t n = 0;
	bool body = false, ended = false, have_sum = false;
	long got;
	int rc = -1;

	while (!ended && ms_text_line(text, len, at, &l)) {
		size_t t = trimmed(&l);

		if (is_line(&l, KEY_END))
			ended = true;
		else if (!body && t == 0)
			body = true;		/* the end of the headers */
		else if (!body && memchr(l.p, ':', t) != NULL)
			continue;		/* "Comment: ...", "Version: ..." */
		else if (t == 5 && l.p[0] == '=') {
			have_sum = ms_unbase64(sum, 3, l.p + 1, 4) == 3;
			body = true;
		} else {
			body = true;
			memcpy(b64 + n, l.p, t);
			n += t;
		}
	}
	got = ended && n > 0 ? ms_unbase64(dec, len / 4 * 3 + 3, b64, n) : -1;
	if (got <= 0)
		*why = ended ? "its armoured key block is not base64" :
		    "its armoured key block has no END line";
	else if (have_sum && crc24(dec, (size_t)got) !=
	    ((uint32_t)sum[0] << 16 | (uint32_t)sum[1] << 8 | sum[2]))
		*why = "its armoured key block fails its checksum";
	else {
		*out = ms_xrealloc(*out, *outlen + (size_t)got);
		memcpy(*out + *outlen, dec, (size_t)got);
		*outlen += (size_t)got;
		rc = 0;
	}
	free(b64);
	free(dec);
	return rc;
}

int
ms_pgp_dearmor(const char *text, size_t len, unsigned char **out,
    size_t *outlen, const char **why)
{
	struct ms_line_view l;
	size_t at = 0;

	*out = NULL;
	*outlen = 0;
	while (ms_text_line(text, len, &at, &l))
		if (is_line(&l, KEY_BEGIN) &&
		    one_block(text, len, &at, out, outlen, why) == -1) {
			free(*out);
			*out = NULL;
			return -1;
		}
	if (*outlen == 0) {
		*why = "it holds no armoured public key block";
		return -1;
	}
	return 0;
}

bool
ms_pgp_clear_present(const char *buf, size_t len)
{
	return has_line(buf, len, CLEAR_BEGIN);
}

/* Where the parts of a clear-signed message begin and end. */
enum part { BEFORE, HEADERS, BODY, SIGNATURE, AFTER };

int
ms_pgp_clear_parse(const char *buf, size_t len, struct ms_pgp_clear *c,
    const char **why, unsigned long *line)
{
	struct ms_line_view l;
	enum part part = BEFORE;
	size_t at = 0, n = 0, sig_at = 0;
	unsigned long no = 0;
	bool first = true;

	memset(c, 0, sizeof(*c));
	if (!ms_pgp_clear_present(buf, len))
		return 0;
	c->body = ms_xmalloc(len + 1);
	*why = NULL;
	while (*why == NULL && ms_text_line(buf, len, &at, &l)) {
		size_t t = trimmed(&l);

		no++;
		switch (part) {
		case BEFORE:
			if (is_line(&l, CLEAR_BEGIN))
				part = HEADERS;
			else if (t != 0)
				*why = "text outside the signed message";
			break;
		case HEADERS:
			if (t == 0)
				part = BODY;
			else if (memchr(l.p, ':', t) == NULL)
				*why = "a header line of the signed message is "
				    "not \"Key: value\"";
			break;
		case BODY:
			if (is_line(&l, SIG_BEGIN)) {
				part = SIGNATURE;
				sig_at = (size_t)(l.p - buf);
				break;
			}
			if (t > 0 && l.p[0] == '-' && (t < 2 || l.p[1] != ' ')) {
				*why = "a line of the signed text begins with '-' "
				    "and is not dash-escaped";
				break;
			}
			if (!first)
				c->body[n++] = '\n';
			first = false;
			if (t >= 2 && l.p[0] == '-') {
				memcpy(c->body + n, l.p + 2, t - 2);
				n += t - 2;
			} else {
				memcpy(c->body + n, l.p, t);
				n += t;
			}
			break;
		case SIGNATURE:
			if (is_line(&l, SIG_END)) {
				part = AFTER;
				c->sig = buf + sig_at;
				c->sig_len = at - sig_at;
			}
			break;
		case AFTER:
			if (is_line(&l, CLEAR_BEGIN))
				*why = "a second signed message";
			else if (t != 0)
				*why = "text outside the signed message";
			break;
		}
	}
	if (*why == NULL && part != AFTER)
		*why = part == SIGNATURE ? "its signature has no END line" :
		    "the signed message has no signature";
	if (*why != NULL) {
		*line = no;
		free(c->body);
		memset(c, 0, sizeof(*c));
		return -1;
	}
	c->body_len = n;
	c->body[n] = '\0';
	return 1;
}

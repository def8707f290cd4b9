/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signature_signify.c - OpenBSD signify's signatures: parsing, checking,
 * writing.
 *
 * A signify signature file is an untrusted comment line and one line of
 * base64 of "Ed", the signer's 8-byte key number and a 64-byte Ed25519
 * signature of the whole message; the embedded form (signify -e, OpenBSD's
 * SHA256.sig) is those two lines followed by the message itself.  The key
 * number must be the public key's (signify's "checked against wrong key")
 * and the signature must verify over exactly the message bytes.
 */
#include "signature/signature_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define SIGNIFY_ALG	"Ed"
#define SIG_BYTES	(2 + MS_KEYNUM + MS_ED25519_SIG)

int
ms_signify_parse(const char *buf, size_t len, struct ms_signify_sig *s,
    const char **why)
{
	unsigned char raw[SIG_BYTES];
	long used = ms_block_parse(buf, len, raw, sizeof(raw), why);

	if (used == -1)
		return -1;
	/* signify refuses an empty comment, and so do we. */
	if (memchr(buf, '\n', len) == buf + strlen(MS_COMMENT_PREFIX)) {
		*why = "its comment is empty";
		return -1;
	}
	if (memcmp(raw, SIGNIFY_ALG, 2) != 0) {
		*why = "it is not an Ed25519 signature (\"Ed\")";
		return -1;
	}
	memcpy(s->keynum, raw + 2, MS_KEYNUM);
	memcpy(s->sig, raw + 2 + MS_KEYNUM, MS_ED25519_SIG);
	s->used = (size_t)used;
	return 0;
}

int
ms_signify_verify(const struct ms_signify_sig *s, const struct ms_pubkey *k,
    const char *msg, size_t len, char **said)
{
	return ms_pubkey_verify(k, s->keynum, s->sig, msg, len, "the list", said);
}

char *
ms_signify_sign(const struct ms_signer *s, const char *msg, size_t len)
{
	unsigned char raw[SIG_BYTES];
	char b64[4 * ((SIG_BYTES + 2) / 3) + 1];

	memcpy(raw, SIGNIFY_ALG, 2);
	memcpy(raw + 2, s->keynum, MS_KEYNUM);
	if (ms_ed25519_sign(s->seed, msg, len, raw + 2 + MS_KEYNUM) == -1)
		return NULL;
	ms_base64(b64, raw, sizeof(raw));
	return ms_xasprintf(MS_COMMENT_PREFIX "%s\n%s\n", s->comment, b64);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * unit-signature.c - the signature layer's pure parts on inputs whose
 * verdict is known: gpgv's status lines, clear-signed messages, armoured
 * keys, signify and minisign blocks, minisign's scrypt cost (libsodium's
 * rule), and Ed25519 through libcrypto on RFC 8032's first test vector.
 * The real tools' files are tests/signature.sh's.
 */
#include <stdlib.h>
#include <string.h>

#include "signature/signature_int.h"
#include "tap.h"
#include "base/util.h"

#define FPR	"EC9630B94D14ACE6AB5B096A81564A4BE90205BB"
#define FPR2	"1F3E51CDF74F885F9AA296A11C96FB471F7C5827"
#define GOOD(fpr, id)	"[GNUPG:] NEWSIG\n" \
	"[GNUPG:] KEY_CONSIDERED " fpr " 0\n" \
	"[GNUPG:] GOODSIG " id " Test <t@example.org>\n" \
	"[GNUPG:] VALIDSIG " fpr " 2026-12-01 1796151177 0 4 0 22 8 00 " fpr "\n"

static const struct {
	const char	*what;
	const char	*status;
	const char	*signer;
	int		 good;
	const char	*why;		/* a part of the reason, if not good */
} gpgv_cases[] = {
	{ "GOODSIG and VALIDSIG: good", GOOD(FPR, "81564A4BE90205BB"), NULL, 1, NULL },
	{ "pinned to its primary key: good", GOOD(FPR, "81564A4BE90205BB"),
	    FPR, 1, NULL },
	{ "pinned in lower case: good", GOOD(FPR, "81564A4BE90205BB"),
	    "ec9630b94d14ace6ab5b096a81564a4be90205bb", 1, NULL },
	{ "pinned to another key: refused", GOOD(FPR, "81564A4BE90205BB"),
	    FPR2, 0, "not by --signer" },
	{ "VALIDSIG without GOODSIG: refused",
	    "[GNUPG:] NEWSIG\n[GNUPG:] VALIDSIG " FPR " 2026-12-01 1 0 4 0 22 8 00 "
	    FPR "\n", NULL, 0, "did not call good" },
	{ "expired key (gpgv exits 0): refused",
	    "[GNUPG:] NEWSIG\n[GNUPG:] KEYEXPIRED 1591012800\n"
	    "[GNUPG:] EXPKEYSIG A6DC0EB4B32F61DC Old <o@example.org>\n"
	    "[GNUPG:] VALIDSIG " FPR " 2020-03-01 1 0 4 0 22 8 00 " FPR "\n",
	    NULL, 0, "expired" },
	{ "revoked key (gpgv exits 0): refused",
	    "[GNUPG:] NEWSIG\n[GNUPG:] REVKEYSIG 1C96FB471F7C5827 Rev <r@example.org>\n"
	    "[GNUPG:] VALIDSIG " FPR2 " 2026-12-01 1 0 4 0 22 8 00 " FPR2 "\n",
	    NULL, 0, "revoked" },
	{ "expired signature: refused",
	    "[GNUPG:] NEWSIG\n[GNUPG:] EXPSIG 81564A4BE90205BB Test\n",
	    NULL, 0, "has expired" },
	{ "unknown key: refused",
	    "[GNUPG:] NEWSIG\n[GNUPG:] ERRSIG 81564A4BE90205BB 22 8 00 1796151177 9 "
	    FPR "\n[GNUPG:] NO_PUBKEY 81564A4BE90205BB\n", NULL, 0,
	    "not in the keyring" },
	{ "BADSIG: refused",
	    "[GNUPG:] NEWSIG\n[GNUPG:] BADSIG 81564A4BE90205BB Test <t@example.org>\n",
	    NULL, 0, "BAD signature" },
	{ "one good, one by an unknown key (Ubuntu's two): good",
	    GOOD(FPR, "81564A4BE90205BB") "[GNUPG:] NEWSIG\n"
	    "[GNUPG:] ERRSIG 46181433FBB75451 17 2 00 1 9 -\n"
	    "[GNUPG:] NO_PUBKEY 46181433FBB75451\n", NULL, 1, NULL },
	{ "one good, one BAD: refused",
	    GOOD(FPR, "81564A4BE90205BB") "[GNUPG:] NEWSIG\n"
	    "[GNUPG:] BADSIG 1C96FB471F7C5827 Rev\n", NULL, 0, "BAD signature" },
	{ "one BAD, then one good: refused",
	    "[GNUPG:] NEWSIG\n[GNUPG:] BADSIG 1C96FB471F7C5827 Rev\n"
	    GOOD(FPR, "81564A4BE90205BB"), NULL, 0, "BAD signature" },
	{ "no status line at all: refused", "", NULL, 0, "no signature" },
	{ "only gpgv's words, no status: refused",
	    "gpgv: Good signature from \"Test\"\n", NULL, 0, "no signature" },
	{ "a forged status line inside a user id stays one signature's uid",
	    "[GNUPG:] NEWSIG\n[GNUPG:] BADSIG 81564A4BE90205BB x [GNUPG:] GOODSIG y\n",
	    NULL, 0, "BAD signature" },
};

static void
test_gpgv(void)
{
	for (size_t i = 0; i < MS_ARRAY_LEN(gpgv_cases); i++) {
		struct ms_gpgv_verdict v;

		ms_gpgv_judge(gpgv_cases[i].status, strlen(gpgv_cases[i].status),
		    gpgv_cases[i].signer, &v);
		tap_ok(v.good == (gpgv_cases[i].good != 0), "gpgv: %s",
		    gpgv_cases[i].what);
		if (!v.good && gpgv_cases[i].why != NULL &&
		    strstr(v.why, gpgv_cases[i].why) == NULL)
			tap_ok(0, "gpgv: %s: reason '%s' lacks '%s'",
			    gpgv_cases[i].what, v.why, gpgv_cases[i].why);
		if (v.good)
			tap_is_str(v.fpr, FPR, "gpgv: the signer's fingerprint");
	}
}

#define CLEAR_HEAD	"-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n"
#define CLEAR_SIG	"-----BEGIN PGP SIGNATURE-----\n\niHUE\n=abcd\n" \
	"-----END PGP SIGNATURE-----\n"

static const struct {
	const char	*what;
	const char	*text;
	int		 rc;
	const char	*body;		/* rc 1 */
	unsigned long	 line;		/* rc -1 */
} clear_cases[] = {
	{ "no message", "abc  a\n", 0, NULL, 0 },
	{ "a message: its body as signed", CLEAR_HEAD "one  a\ntwo  b\n" CLEAR_SIG,
	    1, "one  a\ntwo  b", 0 },
	{ "dash-escapes removed, trailing blanks dropped",
	    CLEAR_HEAD "- -x  a \t\nplain  b  \n" CLEAR_SIG, 1, "-x  a\nplain  b", 0 },
	{ "CRLF lines", "-----BEGIN PGP SIGNED MESSAGE-----\r\nHash: SHA256\r\n\r\n"
	    "one  a\r\n-----BEGIN PGP SIGNATURE-----\r\n\r\niHUE\r\n"
	    "-----END PGP SIGNATURE-----\r\n", 1, "one  a", 0 },
	{ "blank lines around it are allowed", "\n\n" CLEAR_HEAD "x  a\n" CLEAR_SIG "\n",
	    1, "x  a", 0 },
	{ "a line before the header: refused", "abc  c\n" CLEAR_HEAD "x  a\n" CLEAR_SIG,
	    -1, NULL, 1 },
	{ "a line after the signature: refused", CLEAR_HEAD "x  a\n" CLEAR_SIG "y  b\n",
	    -1, NULL, 10 },
	{ "two messages: refused", CLEAR_HEAD "x  a\n" CLEAR_SIG CLEAR_HEAD "y  b\n"
	    CLEAR_SIG, -1, NULL, 10 },
	{ "an unescaped dash line: refused", CLEAR_HEAD "-x  a\n" CLEAR_SIG, -1, NULL, 4 },
	{ "no signature: refused", CLEAR_HEAD "x  a\n", -1, NULL, 4 },
	{ "a signature without END: refused", CLEAR_HEAD "x  a\n"
	    "-----BEGIN PGP SIGNATURE-----\n\niHUE\n", -1, NULL, 7 },
	{ "a header that is not Key: value: refused",
	    "-----BEGIN PGP SIGNED MESSAGE-----\nnonsense\n\nx  a\n" CLEAR_SIG,
	    -1, NULL, 2 },
};

static void
test_clear(void)
{
	for (size_t i = 0; i < MS_ARRAY_LEN(clear_cases); i++) {
		struct ms_pgp_clear c;
		const char *why = NULL;
		unsigned long line = 0;
		int rc = ms_pgp_clear_parse(clear_cases[i].text,
		    strlen(clear_cases[i].text), &c, &why, &line);

		tap_is_int(rc, clear_cases[i].rc, clear_cases[i].what);
		if (rc == 1 && clear_cases[i].rc == 1) {
			tap_is_str(c.body, clear_cases[i].body, "  the body");
			tap_ok(c.sig_len > 0 && strncmp(c.sig,
			    "-----BEGIN PGP SIGNATURE-----", 29) == 0,
			    "  the signature block");
			free(c.body);
		}
		if (rc == -1 && clear_cases[i].rc == -1)
			tap_is_int((long)line, (long)clear_cases[i].line, "  its line");
	}
}

/* An armoured block of "hello" (aGVsbG8=), with its CRC24 (=ZFyS, hand-made). */
static void
test_dearmor(void)
{
	static const char good[] = "-----BEGIN PGP PUBLIC KEY BLOCK-----\n"
	    "Comment: a test\n\naGVs\nbG8=\n=%s\n-----END PGP PUBLIC KEY BLOCK-----\n";
	unsigned char *out;
	size_t n;
	const char *why;
	char text[256];
	uint32_t crc = 0xb704ce;
	unsigned char sum[3];
	char b64[5];

	/* CRC-24 of "hello", computed here the RFC's way */
	for (const char *p = "hello"; *p; p++) {
		crc ^= (uint32_t)(unsigned char)*p << 16;
		for (int k = 0; k < 8; k++) {
			crc <<= 1;
			if (crc & 0x1000000)
				crc ^= 0x1864cfb;
		}
	}
	sum[0] = (unsigned char)(crc >> 16);
	sum[1] = (unsigned char)(crc >> 8);
	sum[2] = (unsigned char)crc;
	ms_base64(b64, sum, 3);
	snprintf(text, sizeof(text), good, b64);
	tap_ok(ms_pgp_armored_key(text, strlen(text)), "armour: recognised");
	tap_ok(ms_pgp_dearmor(text, strlen(text), &out, &n, &why) == 0 && n == 5 &&
	    memcmp(out, "hello", 5) == 0, "armour: decoded, checksum holds");
	free(out);
	snprintf(text, sizeof(text), good, "AAAA");
	tap_ok(ms_pgp_dearmor(text, strlen(text), &out, &n, &why) == -1,
	    "armour: a wrong checksum is refused");
	tap_ok(!ms_pgp_armored_key("\x99\x01\x33", 3), "armour: binary is not");
}

static void
test_blocks(void)
{
	/* signify -G -n's public key and signify -S's signature of "hello\n" */
	static const char pub[] = "untrusted comment: signify public key\n"
	    "RWTafeqCCy6O2wDbwrOS8S28ESmijkoeF394FcpzqvMYMgGKMjAclxm+\n";
	static const char sig[] = "untrusted comment: verify with k.pub\n"
	    "RWTafeqCCy6O253BFjjH8/icLqwrqIW8j/jq5f4SYU4vxqkavZ557M4iMp26fA6JcZkWCJjEiy+q9+l3FeEw58ROnafTtrQw7AU=\n";
	struct ms_pubkey k;
	struct ms_signify_sig s;
	struct ms_minisign_sig m;
	const char *why;
	char kn[2 * MS_KEYNUM + 1];

	tap_ok(ms_pubkey_parse(pub, strlen(pub), &k, &why) == 0, "pubkey: parsed");
	ms_keynum_text(kn, k.keynum);
	tap_is_str(kn, "DB8E2E0B82EA7DDA", "pubkey: its key id as minisign prints it");
	tap_ok(ms_signify_parse(sig, strlen(sig), &s, &why) == 0 &&
	    s.used == strlen(sig), "signify: parsed, two lines");
	tap_ok(memcmp(s.keynum, k.keynum, MS_KEYNUM) == 0, "signify: the key's number");
	tap_ok(ms_signify_parse(sig, strlen(sig) - 3, &s, &why) == -1,
	    "signify: a truncated signature is refused");
	tap_ok(ms_signify_parse("untrusted comment: x\nRWT*\n", 26, &s, &why) == -1,
	    "signify: a line that is not base64 is refused");
	tap_ok(ms_signify_parse("untrusted comment: \n" "RWTafeqCCy6O253BFjjH8/"
	    "icLqwrqIW8j/jq5f4SYU4vxqkavZ557M4iMp26fA6JcZkWCJjEiy+q9+l3FeEw58ROnafTtrQw7AU=\n",
	    120, &s, &why) == -1, "signify: an empty comment is refused, as signify does");
	tap_ok(!ms_minisign_shaped(sig, strlen(sig)), "minisign: a signify file is not");
	tap_ok(ms_minisign_parse(sig, strlen(sig), &m, &why) == -1,
	    "minisign: no trusted comment: refused");
}

static void
test_cost(void)
{
	struct ms_scrypt_cost c;

	/* minisign -G's SENSITIVE limits, then libsodium's INTERACTIVE ones */
	tap_ok(ms_seckey_cost(33554432, 1073741824, &c) == 0 && c.n == 1u << 20 &&
	    c.r == 8 && c.p == 1, "scrypt cost of minisign -G: N=2^20, r=8, p=1");
	tap_ok(ms_seckey_cost(524288, 16777216, &c) == 0 && c.n == 1u << 14 &&
	    c.r == 8 && c.p == 1, "scrypt cost of INTERACTIVE: N=2^14, r=8, p=1");
	tap_ok(ms_seckey_cost(UINT64_C(1) << 50, UINT64_C(1) << 50, &c) == -1,
	    "a cost beyond 4 GiB is refused");
}

/* RFC 8032, 7.1, TEST 1: the empty message. */
static void
test_ed25519(void)
{
	unsigned char seed[32], pub[32], want[32], sig[64], got[64];

	ms_unhex(seed, "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", 32);
	ms_unhex(want, "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", 32);
	ms_unhex(sig, "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
	    "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b", 64);
	tap_ok(ms_ed25519_public(seed, pub) == 0 && memcmp(pub, want, 32) == 0,
	    "ed25519: the public key of RFC 8032's seed");
	tap_ok(ms_ed25519_sign(seed, "", 0, got) == 0 && memcmp(got, sig, 64) == 0,
	    "ed25519: RFC 8032's signature of the empty message");
	tap_is_int(ms_ed25519_verify(pub, sig, "", 0), 1, "ed25519: it verifies");
	sig[0] ^= 1;
	tap_is_int(ms_ed25519_verify(pub, sig, "", 0), 0,
	    "ed25519: one bit changed: it does not");
	sig[0] ^= 1;
	tap_is_int(ms_ed25519_verify(pub, sig, "x", 1), 0,
	    "ed25519: another message: it does not");
}

int
main(void)
{
	test_gpgv();
	test_clear();
	test_dearmor();
	test_blocks();
	test_cost();
	test_ed25519();
	return tap_done();
}

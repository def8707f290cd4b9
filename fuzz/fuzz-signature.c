/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-signature.c - libFuzzer target: the signature layer's parsers of
 * outside input, each over the same bytes: signify signatures (detached
 * and embedded), minisign signatures, signify and minisign public and
 * secret keys (parsing only, and minisign's scrypt cost from what was
 * parsed: never the KDF itself), gpgv's status lines (judged with and
 * without --signer), clear-signed messages and armoured keys, SSH
 * signatures with the key inside them, and allowed signers files (looked
 * up for a fixed key, with and without a principal).  Checks:
 * no crash, no sanitizer report, and what each parser hands back lies
 * inside the input (a signed part, a trusted comment), a clear-signed
 * body has no trailing blank on a line, and a status text with a BADSIG
 * line is never judged good.
 */
#include "fuzz.h"

#include "signature/signature_int.h"

/* Does any line of s begin with "[GNUPG:] BADSIG "? */
static bool
has_badsig(const char *s, size_t n)
{
	static const char tag[] = "[GNUPG:] BADSIG ";
	size_t t = sizeof(tag) - 1;

	for (size_t i = 0; i + t <= n; i++)
		if ((i == 0 || s[i - 1] == '\n') && memcmp(s + i, tag, t) == 0)
			return true;
	return false;
}

static void
check_clear(const char *s, size_t n)
{
	struct ms_pgp_clear c;
	const char *why;
	unsigned long line;

	if (ms_pgp_clear_parse(s, n, &c, &why, &line) != 1)
		return;
	if (c.body_len > n || c.sig < s || c.sig + c.sig_len > s + n)
		abort();
	for (size_t i = 0; i < c.body_len; i++)
		if ((c.body[i] == ' ' || c.body[i] == '\t') &&
		    (i + 1 == c.body_len || c.body[i + 1] == '\n'))
			abort();	/* a trailing blank OpenPGP does not sign */
	free(c.body);
}

/* An SSH signature, its key, and s as an allowed signers file. */
static void
check_ssh(const char *s, size_t n)
{
	static const unsigned char ed[] = {
		0, 0, 0, 11, 's', 's', 'h', '-', 'e', 'd', '2', '5', '5', '1',
		'9', 0, 0, 0, 32, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
		14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
		30, 31, 32,
	};
	struct ms_allowed_match m;
	struct ms_sshsig sig;
	struct ms_ssh_key k;
	const char *why;

	if (ms_sshsig_parse(s, n, &sig, &why) == 0) {
		if (ms_ssh_key_parse(sig.pubkey.p, sig.pubkey.n, &k, &why) == 0)
			ms_ssh_key_free(&k);
		ms_sshsig_free(&sig);
	}
	for (int i = 0; i < 2; i++)
		if (ms_allowed_find(s, n, ed, sizeof(ed), i ? "me@example.org" :
		    NULL, "file", 1700000000, &m) == 0)
			free(m.principals);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_text(data, size);
	struct ms_signify_sig ss;
	struct ms_minisign_sig ms;
	struct ms_pubkey pk;
	struct ms_seckey sk;
	struct ms_scrypt_cost cost;
	struct ms_gpgv_verdict v;
	unsigned char *bin;
	size_t binlen;
	const char *why;

	if (ms_signify_parse(s, size, &ss, &why) == 0 && ss.used > size)
		abort();
	if (ms_minisign_parse(s, size, &ms, &why) == 0 &&
	    (ms.trusted < s || ms.trusted + ms.trusted_len > s + size))
		abort();
	(void)ms_minisign_shaped(s, size);
	(void)ms_pubkey_parse(s, size, &pk, &why);
	(void)ms_pubkey_base64(s, size, &pk);
	if (ms_seckey_parse(s, size, &sk, &why) == 0 &&
	    sk.kind == MS_SECKEY_MINISIGN && sk.encrypted &&
	    ms_seckey_cost(sk.opslimit, sk.memlimit, &cost) == 0 &&
	    (cost.p == 0 || 128 * (uint64_t)cost.r * cost.n > (UINT64_C(1) << 32)))
		abort();	/* a cost the KDF would be run with must be bounded */
	check_ssh(s, size);
	ms_gpgv_judge(s, size, NULL, &v);
	if (v.good && (has_badsig(s, size) || v.fpr[0] == '\0'))
		abort();
	ms_gpgv_judge(s, size, "EC9630B94D14ACE6AB5B096A81564A4BE90205BB", &v);
	if (v.good && has_badsig(s, size))
		abort();
	check_clear(s, size);
	(void)ms_pgp_clear_present(s, size);
	if (ms_pgp_armored_key(s, size) &&
	    ms_pgp_dearmor(s, size, &bin, &binlen, &why) == 0) {
		if (binlen > size)
			abort();
		free(bin);
	}
	free(s);
	return 0;
}

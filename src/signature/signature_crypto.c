/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signature_crypto.c - the primitives signed lists need, from libcrypto:
 * Ed25519 signing and verifying, scrypt, a digest of a buffer, and
 * random bytes.
 *
 * Owns the table of libcrypto's public-key and KDF functions, resolved
 * through lazylib.c as the digest backends resolve theirs (so a run that
 * checks no signature never maps them, and --disable-lazy-loading links
 * them); libcrypto is initialised by digest/openssl.h's one routine.
 * Digests (BLAKE2b for minisign, SHA-512 for signify's key checksum) go
 * through the digest layer's rows, never a second copy of a hash.  Knows
 * nothing of any file format.
 */
#include "signature/signature_int.h"

#include <openssl/evp.h>

#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "digest/digest_set.h"
#include "digest/openssl.h"
#include "base/lazylib.h"
#include "base/util.h"

static struct {
	__typeof__(EVP_PKEY_new_raw_public_key)	*EVP_PKEY_new_raw_public_key;
	__typeof__(EVP_PKEY_new_raw_private_key) *EVP_PKEY_new_raw_private_key;
	__typeof__(EVP_PKEY_get_raw_public_key)	*EVP_PKEY_get_raw_public_key;
	__typeof__(EVP_PKEY_free)		*EVP_PKEY_free;
	__typeof__(EVP_MD_CTX_new)		*EVP_MD_CTX_new;
	__typeof__(EVP_MD_CTX_free)		*EVP_MD_CTX_free;
	__typeof__(EVP_DigestVerifyInit)	*EVP_DigestVerifyInit;
	__typeof__(EVP_DigestVerify)		*EVP_DigestVerify;
	__typeof__(EVP_DigestSignInit)		*EVP_DigestSignInit;
	__typeof__(EVP_DigestSign)		*EVP_DigestSign;
	__typeof__(EVP_PBE_scrypt)		*EVP_PBE_scrypt;
} pk;

static const struct ms_lazy_sym syms[] = {
	MS_LAZY_SYM(pk, EVP_PKEY_new_raw_public_key),
	MS_LAZY_SYM(pk, EVP_PKEY_new_raw_private_key),
	MS_LAZY_SYM(pk, EVP_PKEY_get_raw_public_key),
	MS_LAZY_SYM(pk, EVP_PKEY_free),
	MS_LAZY_SYM(pk, EVP_MD_CTX_new),
	MS_LAZY_SYM(pk, EVP_MD_CTX_free),
	MS_LAZY_SYM(pk, EVP_DigestVerifyInit),
	MS_LAZY_SYM(pk, EVP_DigestVerify),
	MS_LAZY_SYM(pk, EVP_DigestSignInit),
	MS_LAZY_SYM(pk, EVP_DigestSign),
	MS_LAZY_SYM(pk, EVP_PBE_scrypt),
};

static struct ms_lazy_lib libcrypto = {
	.soname = MS_SONAME_CRYPTO, .syms = syms, .cnt = MS_ARRAY_LEN(syms),
};

/* libcrypto set up and the table filled; -1 after a message. */
static int
load(void)
{
	if (ms_openssl_initialise() == -1)
		return -1;
	return ms_lazy_load(&libcrypto);
}

int
ms_ed25519_verify(const unsigned char pub[MS_ED25519_PUBLIC],
    const unsigned char sig[MS_ED25519_SIG], const void *msg, size_t len)
{
	EVP_PKEY *key;
	EVP_MD_CTX *ctx;
	int ok = 0;

	if (load() == -1)
		return -1;
	key = pk.EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pub,
	    MS_ED25519_PUBLIC);
	/* A point that does not decode verifies nothing. */
	if (key == NULL)
		return 0;
	ctx = pk.EVP_MD_CTX_new();
	if (ctx == NULL) {
		pk.EVP_PKEY_free(key);
		ms_warn("%s", strerror(ENOMEM));
		return -1;
	}
	if (pk.EVP_DigestVerifyInit(ctx, NULL, NULL, NULL, key) == 1)
		ok = pk.EVP_DigestVerify(ctx, sig, MS_ED25519_SIG, msg, len) == 1;
	pk.EVP_MD_CTX_free(ctx);
	pk.EVP_PKEY_free(key);
	return ok;
}

/* The key of a 32-byte seed (RFC 8032's private key); NULL if refused. */
static EVP_PKEY *
private_key(const unsigned char seed[MS_ED25519_SEED])
{
	return pk.EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed,
	    MS_ED25519_SEED);
}

int
ms_ed25519_public(const unsigned char seed[MS_ED25519_SEED],
    unsigned char pub[MS_ED25519_PUBLIC])
{
	EVP_PKEY *key;
	size_t n = MS_ED25519_PUBLIC;
	int rc = -1;

	if (load() == -1)
		return -1;
	key = private_key(seed);
	if (key != NULL && pk.EVP_PKEY_get_raw_public_key(key, pub, &n) == 1 &&
	    n == MS_ED25519_PUBLIC)
		rc = 0;
	else
		ms_warn("libcrypto refused an Ed25519 key");
	pk.EVP_PKEY_free(key);
	return rc;
}

int
ms_ed25519_sign(const unsigned char seed[MS_ED25519_SEED], const void *msg,
    size_t len, unsigned char sig[MS_ED25519_SIG])
{
	EVP_PKEY *key;
	EVP_MD_CTX *ctx;
	size_t n = MS_ED25519_SIG;
	int rc = -1;

	if (load() == -1)
		return -1;
	key = private_key(seed);
	ctx = pk.EVP_MD_CTX_new();
	if (key != NULL && ctx != NULL &&
	    pk.EVP_DigestSignInit(ctx, NULL, NULL, NULL, key) == 1 &&
	    pk.EVP_DigestSign(ctx, sig, &n, msg, len) == 1 &&
	    n == MS_ED25519_SIG)
		rc = 0;
	else
		ms_warn("libcrypto could not make an Ed25519 signature");
	pk.EVP_MD_CTX_free(ctx);
	pk.EVP_PKEY_free(key);
	return rc;
}

int
ms_scrypt(const char *pass, size_t passlen, const unsigned char *salt,
    size_t saltlen, const struct ms_scrypt_cost *cost, unsigned char *out,
    size_t outlen)
{
	/* scrypt's two buffers, as libcrypto counts them (B and V). */
	uint64_t need = 128 * (uint64_t)cost->r * cost->p +
	    128 * (uint64_t)cost->r * (cost->n + 2);

	if (load() == -1)
		return -1;
	if (pk.EVP_PBE_scrypt(pass, passlen, salt, saltlen, cost->n, cost->r,
	    cost->p, need, out, outlen) != 1) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int
ms_digest_buffer(const char *name, unsigned bits, const void *p, size_t n,
    unsigned char *out)
{
	struct ms_selection sel = { 0 };
	struct ms_digest_set set;
	struct ms_digest_spec spec = { 0 };	/* no key, no parameter */
	const char *why;

	if (ms_algo_resolve(name, bits, &spec, &why) == -1) {
		ms_warn("%s-%u: %s", name, bits, why);
		return -1;
	}
	ms_selection_add(&sel, &spec);
	if (ms_selection_load(&sel) == -1)
		return -1;
	ms_digest_set_create(&set, &sel);
	ms_digest_set_init(&set);
	ms_digest_set_update(&set, p, n);
	ms_digest_set_final(&set, out);
	ms_digest_set_destroy(&set);
	return 0;
}

int
ms_random(void *p, size_t n)
{
	unsigned char *b = p;

	while (n > 0) {
		ssize_t got = getrandom(b, n, 0);

		if (got == -1 && errno == EINTR)
			continue;
		if (got <= 0) {
			ms_warn("no random bytes: %s", strerror(errno));
			return -1;
		}
		b += got;
		n -= (size_t)got;
	}
	return 0;
}

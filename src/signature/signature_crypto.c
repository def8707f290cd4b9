/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signature_crypto.c - the primitives signed lists need, from libcrypto:
 * Ed25519 signing and verifying, any key libcrypto reads as DER
 * (SubjectPublicKeyInfo to verify, a private key to sign: SSH's ECDSA and
 * RSA keys; an ECDSA P-256 or Ed25519 key of a PEM file), scrypt, a
 * digest of a buffer, and random bytes.
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

#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "digest/digest_set.h"
#include "digest/openssl.h"
#include "base/lazylib.h"
#include "base/portable.h"
#include "base/util.h"

/* The libcrypto functions this file calls, resolved on first use. */
#define PK_FUNCS(X, t) \
	X(t, EVP_PKEY_new_raw_public_key) \
	X(t, EVP_PKEY_new_raw_private_key) \
	X(t, EVP_PKEY_get_raw_public_key) X(t, EVP_PKEY_free) \
	X(t, EVP_MD_CTX_new) X(t, EVP_MD_CTX_free) \
	X(t, EVP_DigestVerifyInit) X(t, EVP_DigestVerify) \
	X(t, EVP_DigestSignInit) X(t, EVP_DigestSign) X(t, EVP_PBE_scrypt) \
	X(t, EVP_MD_fetch) X(t, EVP_MD_free) X(t, d2i_PUBKEY) \
	X(t, d2i_PrivateKey) X(t, EVP_CIPHER_fetch) X(t, EVP_CIPHER_free) \
	X(t, EVP_CIPHER_CTX_new) X(t, EVP_CIPHER_CTX_free) \
	X(t, EVP_DecryptInit_ex) X(t, EVP_DecryptUpdate) X(t, BN_bin2bn) \
	X(t, BN_bn2bin) X(t, BN_num_bits) X(t, BN_sub_word) X(t, BN_div) \
	X(t, BN_new) X(t, BN_clear_free) X(t, BN_CTX_new) X(t, BN_CTX_free) \
	X(t, EVP_PKEY_get_base_id) X(t, EVP_PKEY_get_group_name) \
	X(t, EVP_sha256)
MS_LAZY_LIB(libcrypto, MS_SONAME_CRYPTO, pk, PK_FUNCS);

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

/* md's digest (NULL: none, as Ed25519 wants); false if it is unknown. */
static bool
fetch_md(const char *md, EVP_MD **out)
{
	*out = NULL;
	if (md == NULL)
		return true;
	*out = pk.EVP_MD_fetch(NULL, md, NULL);
	return *out != NULL;
}

int
ms_pkey_verify(const unsigned char *spki, size_t n, const char *md,
    const unsigned char *sig, size_t siglen, const void *msg, size_t len)
{
	const unsigned char *p = spki;
	EVP_PKEY *key;
	EVP_MD_CTX *ctx;
	EVP_MD *alg;
	int ok = 0;

	if (load() == -1)
		return -1;
	/* A key libcrypto cannot read verifies nothing. */
	key = pk.d2i_PUBKEY(NULL, &p, (long)n);
	if (key == NULL)
		return 0;
	ctx = pk.EVP_MD_CTX_new();
	if (ctx != NULL && fetch_md(md, &alg)) {
		if (pk.EVP_DigestVerifyInit(ctx, NULL, alg, NULL, key) == 1)
			ok = pk.EVP_DigestVerify(ctx, sig, siglen, msg, len) == 1;
		pk.EVP_MD_free(alg);
	}
	pk.EVP_MD_CTX_free(ctx);
	pk.EVP_PKEY_free(key);
	return ok;
}

/*
 * msg signed with key (freed here; NULL: refused) and md's digest (NULL:
 * none, as Ed25519 wants): a new buffer of *siglen bytes, or NULL.
 */
static unsigned char *
sign_with(EVP_PKEY *key, const char *md, const void *msg, size_t len,
    size_t *siglen)
{
	unsigned char *sig = NULL;
	EVP_MD_CTX *ctx;
	EVP_MD *alg = NULL;
	size_t cap = 0;

	ctx = pk.EVP_MD_CTX_new();
	if (key != NULL && ctx != NULL && fetch_md(md, &alg) &&
	    pk.EVP_DigestSignInit(ctx, NULL, alg, NULL, key) == 1 &&
	    pk.EVP_DigestSign(ctx, NULL, &cap, msg, len) == 1) {
		sig = ms_xmalloc(cap);
		if (pk.EVP_DigestSign(ctx, sig, &cap, msg, len) != 1) {
			free(sig);
			sig = NULL;
		}
	}
	*siglen = cap;
	pk.EVP_MD_free(alg);
	pk.EVP_MD_CTX_free(ctx);
	pk.EVP_PKEY_free(key);
	return sig;
}

int
ms_ed25519_sign(const unsigned char seed[MS_ED25519_SEED], const void *msg,
    size_t len, unsigned char sig[MS_ED25519_SIG])
{
	unsigned char *made;
	size_t n;

	if (load() == -1)
		return -1;
	made = sign_with(private_key(seed), NULL, msg, len, &n);
	if (made == NULL || n != MS_ED25519_SIG) {
		free(made);
		ms_warn("libcrypto could not make an Ed25519 signature");
		return -1;
	}
	memcpy(sig, made, MS_ED25519_SIG);
	free(made);
	return 0;
}

unsigned char *
ms_pkey_sign(int type, const unsigned char *der, size_t n, const char *md,
    const void *msg, size_t len, size_t *siglen)
{
	const unsigned char *p = der;
	unsigned char *sig;

	if (load() == -1)
		return NULL;
	sig = sign_with(pk.d2i_PrivateKey(type, NULL, &p, (long)n), md, msg,
	    len, siglen);
	if (sig == NULL)
		ms_warn("libcrypto could not make a signature with this key");
	return sig;
}

int
ms_aes256_ctr(const unsigned char key[32], const unsigned char iv[16],
    unsigned char *buf, size_t n)
{
	EVP_CIPHER *c;
	EVP_CIPHER_CTX *ctx;
	int out = 0, rc = -1;

	if (load() == -1)
		return -1;
	c = pk.EVP_CIPHER_fetch(NULL, "AES-256-CTR", NULL);
	ctx = pk.EVP_CIPHER_CTX_new();
	if (c != NULL && ctx != NULL && n <= INT32_MAX &&
	    pk.EVP_DecryptInit_ex(ctx, c, NULL, key, iv) == 1 &&
	    pk.EVP_DecryptUpdate(ctx, buf, &out, buf, (int)n) == 1 &&
	    (size_t)out == n)
		rc = 0;
	else
		ms_warn("libcrypto could not run AES-256-CTR");
	pk.EVP_CIPHER_CTX_free(ctx);
	pk.EVP_CIPHER_free(c);
	return rc;
}

unsigned char *
ms_mod_less_one(const unsigned char *a, size_t an, const unsigned char *m,
    size_t mn, size_t *outn)
{
	BIGNUM *x, *y, *r;
	BN_CTX *ctx;
	unsigned char *out = NULL;

	if (load() == -1)
		return NULL;
	x = pk.BN_new();
	y = pk.BN_new();
	r = pk.BN_new();
	ctx = pk.BN_CTX_new();
	if (x != NULL && y != NULL && r != NULL && ctx != NULL &&
	    pk.BN_bin2bn(a, (int)an, x) != NULL &&
	    pk.BN_bin2bn(m, (int)mn, y) != NULL && pk.BN_sub_word(y, 1) == 1 &&
	    pk.BN_div(NULL, r, x, y, ctx) == 1) {
		/* a leading zero keeps it positive as DER reads it */
		*outn = (size_t)(pk.BN_num_bits(r) + 7) / 8 + 1;
		out = ms_xcalloc(*outn, 1);
		pk.BN_bn2bin(r, out + 1);
	} else
		ms_warn("libcrypto could not compute an RSA key's exponents");
	pk.BN_clear_free(x);
	pk.BN_clear_free(y);
	pk.BN_clear_free(r);
	pk.BN_CTX_free(ctx);
	return out;
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
ms_random(void *p, size_t n)
{
	if (ms_os_random(p, n) == -1) {
		ms_warn("no random bytes: %s", strerror(errno));
		return -1;
	}
	return 0;
}

void *
ms_der_pubkey(const unsigned char *der, size_t len, const char **why)
{
	const unsigned char *p = der;
	EVP_PKEY *key;
	char group[32];
	size_t n;
	int id;

	if (load() == -1) {
		*why = "libcrypto could not be loaded";
		return NULL;
	}
	if ((key = pk.d2i_PUBKEY(NULL, &p, (long)len)) == NULL ||
	    p != der + len) {
		if (key != NULL)
			pk.EVP_PKEY_free(key);
		*why = "not a public key (SubjectPublicKeyInfo)";
		return NULL;
	}
	id = pk.EVP_PKEY_get_base_id(key);
	if (id == EVP_PKEY_ED25519)
		return key;
	if (id == EVP_PKEY_EC && pk.EVP_PKEY_get_group_name(key, group,
	    sizeof(group), &n) == 1 && strcmp(group, "prime256v1") == 0)
		return key;
	pk.EVP_PKEY_free(key);
	*why = "neither an ECDSA P-256 nor an Ed25519 key";
	return NULL;
}

const char *
ms_der_pubkey_kind(void *key)
{
	return pk.EVP_PKEY_get_base_id(key) == EVP_PKEY_ED25519 ? "Ed25519" :
	    "ECDSA P-256";
}

int
ms_der_pubkey_verify(void *key, const unsigned char *sig, size_t siglen,
    const void *msg, size_t len)
{
	EVP_MD_CTX *ctx = pk.EVP_MD_CTX_new();
	bool ed = pk.EVP_PKEY_get_base_id(key) == EVP_PKEY_ED25519;
	int ok = 0;

	if (ctx == NULL) {
		ms_warn("%s", strerror(ENOMEM));
		return -1;
	}
	if (pk.EVP_DigestVerifyInit(ctx, NULL, ed ? NULL : pk.EVP_sha256(),
	    NULL, key) == 1)
		ok = pk.EVP_DigestVerify(ctx, sig, siglen, msg, len) == 1;
	pk.EVP_MD_CTX_free(ctx);
	return ok;
}

void
ms_der_pubkey_free(void *key)
{
	if (key != NULL)
		pk.EVP_PKEY_free(key);
}

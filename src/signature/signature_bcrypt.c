/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signature_bcrypt.c - bcrypt_pbkdf, the KDF of OpenSSH's encrypted
 * private keys (and of signify's), from its definition.
 *
 * bcrypt_pbkdf (OpenBSD, 2013) runs a PBKDF2-like loop whose PRF is
 * "bcrypt_hash": Blowfish's expensive key schedule (EksBlowfish, Provos
 * and Mazieres 1999) keyed with SHA-512 of the passphrase and of the
 * salt, 64 rounds, then 64 encryptions of "OxychromaticBlowfishSwatDynamite"
 * written out as little-endian words; the output bytes are spread over
 * the key with a stride, as OpenSSH's bcrypt_pbkdf.c does.  libcrypto's
 * Blowfish lives in OpenSSL 3's legacy provider and offers no raw key
 * schedule, so the cipher is here: its initial state is the fractional
 * part of pi in hexadecimal (Schneier, 1993), 18 + 4 * 256 words computed
 * once with Machin's formula in fixed point rather than pasted as a table.
 */
#include "signature/signature_int.h"

#include <stdlib.h>
#include <string.h>

#include "digest/digest_set.h"
#include "base/bytes.h"
#include "base/util.h"

#define BF_WORDS	(18 + 4 * 256)
#define PI_LIMBS	(BF_WORDS + 4)	/* fraction words, and guard words */
#define BCRYPT_WORDS	8

struct blowfish {
	uint32_t	 p[18];
	uint32_t	 s[4 * 256];
};

/* q = a / d, limb by limb (fixed point: limb 0 is the whole part). */
static void
div_small(uint32_t *q, const uint32_t *a, uint32_t d)
{
	uint64_t r = 0;

	for (size_t i = 0; i < PI_LIMBS; i++) {
		uint64_t cur = r << 32 | a[i];

		q[i] = (uint32_t)(cur / d);
		r = cur % d;
	}
}

/* x += mult * a, or x -= mult * a when sub. */
static void
add_sub(uint32_t *x, const uint32_t *a, unsigned mult, bool sub)
{
	uint64_t carry = 0;

	for (size_t i = PI_LIMBS; i-- > 0;) {
		uint64_t v = (uint64_t)a[i] * mult + carry;

		carry = v >> 32;
		v &= 0xffffffff;
		if (sub) {
			uint64_t b = (uint64_t)x[i] - v;

			x[i] = (uint32_t)b;
			carry += (b >> 32) & 1;
		} else {
			uint64_t s = (uint64_t)x[i] + v;

			x[i] = (uint32_t)s;
			carry += s >> 32;
		}
	}
}

/* x += mult * atan(1/k), Taylor's series in fixed point. */
static void
atan_inv(uint32_t *x, uint32_t k, unsigned mult)
{
	uint32_t *pow = ms_xcalloc(PI_LIMBS, sizeof(uint32_t));
	uint32_t *term = ms_xcalloc(PI_LIMBS, sizeof(uint32_t));
	bool zero;

	pow[0] = 1;
	div_small(pow, pow, k);			/* 1/k */
	for (uint32_t n = 1, i = 0;; n += 2, i++) {
		div_small(term, pow, n);
		add_sub(x, term, mult, i % 2 == 1);
		div_small(pow, pow, k * k);
		zero = true;
		for (size_t j = 0; j < PI_LIMBS && zero; j++)
			zero = pow[j] == 0;
		if (zero)
			break;
	}
	free(pow);
	free(term);
}

/* Blowfish's initial state: pi's hexadecimal fraction, P first then S. */
static void
initial_state(struct blowfish *bf)
{
	static uint32_t words[BF_WORDS];
	static bool done;

	if (!done) {
		uint32_t *pi = ms_xcalloc(PI_LIMBS, sizeof(uint32_t));
		uint32_t *neg = ms_xcalloc(PI_LIMBS, sizeof(uint32_t));

		/* pi = 16 atan(1/5) - 4 atan(1/239); limb 0 holds the 3 */
		atan_inv(pi, 5, 16);
		atan_inv(neg, 239, 4);
		add_sub(pi, neg, 1, true);
		memcpy(words, pi + 1, sizeof(words));
		free(pi);
		free(neg);
		done = true;
	}
	memcpy(bf->p, words, sizeof(bf->p));
	memcpy(bf->s, words + 18, sizeof(bf->s));
}

static uint32_t
f(const struct blowfish *bf, uint32_t x)
{
	return ((bf->s[x >> 24] + bf->s[0x100 | (x >> 16 & 0xff)]) ^
	    bf->s[0x200 | (x >> 8 & 0xff)]) + bf->s[0x300 | (x & 0xff)];
}

static void
encipher(const struct blowfish *bf, uint32_t *xl, uint32_t *xr)
{
	uint32_t l = *xl ^ bf->p[0], r = *xr, t;

	for (int i = 1; i <= 16; i++) {
		r ^= f(bf, l) ^ bf->p[i];
		t = l;
		l = r;
		r = t;
	}
	*xl = r ^ bf->p[17];
	*xr = l;
}

/* The next four bytes of a cyclic stream, big-endian. */
static uint32_t
stream_word(const unsigned char *d, size_t n, size_t *at)
{
	uint32_t w = 0;

	for (int i = 0; i < 4; i++) {
		if (*at >= n)
			*at = 0;
		w = w << 8 | d[(*at)++];
	}
	return w;
}

/* EksBlowfish's ExpandKey(state, data, key); data NULL: its 0 variant. */
static void
expand(struct blowfish *bf, const unsigned char *data, size_t dn,
    const unsigned char *key, size_t kn)
{
	uint32_t l = 0, r = 0;
	size_t at = 0;

	for (int i = 0; i < 18; i++)
		bf->p[i] ^= stream_word(key, kn, &at);
	at = 0;
	for (int i = 0; i < BF_WORDS; i += 2) {
		if (data != NULL) {
			l ^= stream_word(data, dn, &at);
			r ^= stream_word(data, dn, &at);
		}
		encipher(bf, &l, &r);
		if (i < 18) {
			bf->p[i] = l;
			bf->p[i + 1] = r;
		} else {
			bf->s[i - 18] = l;
			bf->s[i - 18 + 1] = r;
		}
	}
}

static void
bcrypt_hash(const unsigned char pass[64], const unsigned char salt[64],
    unsigned char out[4 * BCRYPT_WORDS])
{
	static const char magic[] = "OxychromaticBlowfishSwatDynamite";
	struct blowfish bf;
	uint32_t c[BCRYPT_WORDS];
	size_t at = 0;

	initial_state(&bf);
	expand(&bf, salt, 64, pass, 64);
	for (int i = 0; i < 64; i++) {
		expand(&bf, NULL, 0, salt, 64);
		expand(&bf, NULL, 0, pass, 64);
	}
	for (int i = 0; i < BCRYPT_WORDS; i++)
		c[i] = stream_word((const unsigned char *)magic, 32, &at);
	for (int i = 0; i < 64; i++)
		for (int j = 0; j < BCRYPT_WORDS; j += 2)
			encipher(&bf, &c[j], &c[j + 1]);
	for (int i = 0; i < BCRYPT_WORDS; i++)
		ms_store_le32(out + 4 * i, c[i]);
	explicit_bzero(&bf, sizeof(bf));
}

int
ms_bcrypt_pbkdf(const char *pass, size_t passlen, const unsigned char *salt,
    size_t saltlen, unsigned rounds, unsigned char *key, size_t keylen)
{
	enum { OUT = 4 * BCRYPT_WORDS };
	unsigned char sp[64], ss[64], tmp[OUT], out[OUT];
	unsigned char *cs = ms_xmalloc(saltlen + 4);
	size_t stride = (keylen + OUT - 1) / OUT, amt = (keylen + stride - 1) /
	    stride, left = keylen;
	int rc = -1;

	if (rounds < 1 || keylen == 0 || keylen > OUT * OUT)
		goto out;
	if (ms_digest_buffer("sha512", 0, pass, passlen, sp) == -1)
		goto out;
	memcpy(cs, salt, saltlen);
	for (uint32_t count = 1; left > 0; count++) {
		size_t i;

		ms_store_be32(cs + saltlen, count);
		if (ms_digest_buffer("sha512", 0, cs, saltlen + 4, ss) == -1)
			goto out;
		bcrypt_hash(sp, ss, tmp);
		memcpy(out, tmp, OUT);
		for (unsigned r = 1; r < rounds; r++) {
			if (ms_digest_buffer("sha512", 0, tmp, OUT, ss) == -1)
				goto out;
			bcrypt_hash(sp, ss, tmp);
			for (size_t j = 0; j < OUT; j++)
				out[j] ^= tmp[j];
		}
		amt = amt < left ? amt : left;
		for (i = 0; i < amt; i++) {
			size_t dest = i * stride + (count - 1);

			if (dest >= keylen)
				break;
			key[dest] = out[i];
		}
		left -= i;
	}
	rc = 0;
out:
	explicit_bzero(sp, sizeof(sp));
	explicit_bzero(out, sizeof(out));
	explicit_bzero(tmp, sizeof(tmp));
	free(cs);
	return rc;
}

/*
 * algorithm.c - the descriptor table and name lookup.
 *
 * Owns every algorithm's names, tag, length rules, class and backend.
 * Adding an algorithm is adding a row here (and, for a new library, a
 * backend file); nothing else in the program lists algorithms.
 */
#include "algorithm.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "util.h"

#define FIXED(b)	.bits = (b), .min_bits = (b), .max_bits = (b)

const struct ms_algo ms_algos[] = {
	{ "md5", "MD5", "", NULL, "MD5", FIXED(128),
	  MS_CLASS_BROKEN, MS_LEGACY_NONE, true, &ms_ops_openssl },
	{ "sha1", "SHA1", "sha-1", NULL, "SHA1", FIXED(160),
	  MS_CLASS_BROKEN, MS_LEGACY_NONE, true, &ms_ops_openssl },
	{ "sha224", "SHA224", "sha-224 sha2-224", "sha2", "SHA2-224", FIXED(224),
	  MS_CLASS_SECURE, MS_LEGACY_NONE, true, &ms_ops_openssl },
	{ "sha256", "SHA256", "sha-256 sha2-256", "sha2", "SHA2-256", FIXED(256),
	  MS_CLASS_SECURE, MS_LEGACY_NONE, true, &ms_ops_openssl },
	{ "sha384", "SHA384", "sha-384 sha2-384", "sha2", "SHA2-384", FIXED(384),
	  MS_CLASS_SECURE, MS_LEGACY_NONE, true, &ms_ops_openssl },
	{ "sha512", "SHA512", "sha-512 sha2-512", "sha2", "SHA2-512", FIXED(512),
	  MS_CLASS_SECURE, MS_LEGACY_NONE, true, &ms_ops_openssl },
	{ "sha512-224", "SHA512-224", "sha-512/224 sha512/224 sha2-512/224",
	  NULL, "SHA2-512/224", FIXED(224),
	  MS_CLASS_SECURE, MS_LEGACY_NONE, true, &ms_ops_openssl },
	{ "sha512-256", "SHA512-256", "sha-512/256 sha512/256 sha2-512/256",
	  NULL, "SHA2-512/256", FIXED(256),
	  MS_CLASS_SECURE, MS_LEGACY_NONE, true, &ms_ops_openssl },
	{ "sha3-224", "SHA3-224", "sha3_224", "sha3", "SHA3-224", FIXED(224),
	  MS_CLASS_SECURE, MS_LEGACY_NONE, true, &ms_ops_openssl },
	{ "sha3-256", "SHA3-256", "sha3_256", "sha3", "SHA3-256", FIXED(256),
	  MS_CLASS_SECURE, MS_LEGACY_NONE, true, &ms_ops_openssl },
	{ "sha3-384", "SHA3-384", "sha3_384", "sha3", "SHA3-384", FIXED(384),
	  MS_CLASS_SECURE, MS_LEGACY_NONE, true, &ms_ops_openssl },
	{ "sha3-512", "SHA3-512", "sha3_512", "sha3", "SHA3-512", FIXED(512),
	  MS_CLASS_SECURE, MS_LEGACY_NONE, true, &ms_ops_openssl },
	{ "shake128", "SHAKE128", "shake-128", "shake128", "SHAKE128",
	  .bits = 256, .min_bits = 8, .max_bits = 4096,
	  MS_CLASS_SECURE, MS_LEGACY_NONE, true, &ms_ops_openssl },
	{ "shake256", "SHAKE256", "shake-256", "shake256", "SHAKE256",
	  .bits = 512, .min_bits = 8, .max_bits = 4096,
	  MS_CLASS_SECURE, MS_LEGACY_NONE, true, &ms_ops_openssl },
	/* Full-length BLAKE2 through EVP: 2.3x faster than Debian's libb2. */
	{ "blake2b", "BLAKE2b", "blake2b512 blake2b-512 blake2", "blake2b",
	  "BLAKE2B-512", FIXED(512),
	  MS_CLASS_SECURE, MS_LEGACY_NONE, true, &ms_ops_openssl },
	{ "blake2b-N", "BLAKE2b", "", "blake2b", "blake2b",
	  .bits = 256, .min_bits = 8, .max_bits = 512,
	  MS_CLASS_SECURE, MS_LEGACY_NONE, false, &ms_ops_blake2 },
	{ "blake2s", "BLAKE2s", "blake2s256 blake2s-256", "blake2s",
	  "BLAKE2S-256", FIXED(256),
	  MS_CLASS_SECURE, MS_LEGACY_NONE, true, &ms_ops_openssl },
	{ "blake2s-N", "BLAKE2s", "", "blake2s", "blake2s",
	  .bits = 128, .min_bits = 8, .max_bits = 256,
	  MS_CLASS_SECURE, MS_LEGACY_NONE, false, &ms_ops_blake2 },
	{ "blake2bp", "BLAKE2bp", "blake2bp512 blake2bp-512", NULL, "blake2bp",
	  FIXED(512), MS_CLASS_SECURE, MS_LEGACY_NONE, true, &ms_ops_blake2 },
	{ "blake2sp", "BLAKE2sp", "blake2sp256 blake2sp-256", NULL, "blake2sp",
	  FIXED(256), MS_CLASS_SECURE, MS_LEGACY_NONE, true, &ms_ops_blake2 },
	{ "sm3", "SM3", "", NULL, "SM3", FIXED(256),
	  MS_CLASS_SECURE, MS_LEGACY_NONE, true, &ms_ops_openssl },
	{ "ripemd160", "RIPEMD160", "ripemd-160 rmd160 ripemd", NULL,
	  "RIPEMD-160", FIXED(160),
	  MS_CLASS_LEGACY, MS_LEGACY_NONE, true, &ms_ops_openssl },
	{ "crc32", "CRC32", "crc32b crc-32", NULL, "crc32", FIXED(32),
	  MS_CLASS_NONCRYPTO, MS_LEGACY_NONE, true, &ms_ops_crc },
	{ "crc32c", "CRC32C", "crc-32c", NULL, "crc32c", FIXED(32),
	  MS_CLASS_NONCRYPTO, MS_LEGACY_NONE, true, &ms_ops_crc },
	{ "cksum", "CRC", "crc posix", NULL, "cksum", FIXED(32),
	  MS_CLASS_NONCRYPTO, MS_LEGACY_CKSUM, true, &ms_ops_crc },
	{ "xxh32", "XXH32", "xxhash32", NULL, "xxh32", FIXED(32),
	  MS_CLASS_NONCRYPTO, MS_LEGACY_NONE, true, &ms_ops_xxhash },
	{ "xxh64", "XXH64", "xxhash64 xxhash", NULL, "xxh64", FIXED(64),
	  MS_CLASS_NONCRYPTO, MS_LEGACY_NONE, true, &ms_ops_xxhash },
	{ "xxh3", "XXH3", "xxh3_64 xxh3-64 xxh364", NULL, "xxh3", FIXED(64),
	  MS_CLASS_NONCRYPTO, MS_LEGACY_NONE, true, &ms_ops_xxhash },
	{ "xxh128", "XXH128", "xxh3_128 xxh3-128", NULL, "xxh128", FIXED(128),
	  MS_CLASS_NONCRYPTO, MS_LEGACY_NONE, true, &ms_ops_xxhash },
	/* The sums of `cksum -a bsd|sysv`: kept for the cksum personality. */
	{ "bsd", "BSD", "", NULL, "bsd", FIXED(16),
	  MS_CLASS_NONCRYPTO, MS_LEGACY_BSD, false, &ms_ops_crc },
	{ "sysv", "SYSV", "", NULL, "sysv", FIXED(16),
	  MS_CLASS_NONCRYPTO, MS_LEGACY_SYSV, false, &ms_ops_crc },
};

const size_t ms_algo_count = MS_ARRAY_LEN(ms_algos);

/* Does word occur in the space-separated list? (case-insensitive) */
static bool
in_list(const char *list, const char *word)
{
	size_t wl = strlen(word);

	while (*list) {
		size_t l = strcspn(list, " ");
		char tmp[64];

		if (l == wl && l < sizeof(tmp)) {
			memcpy(tmp, list, l);
			tmp[l] = '\0';
			if (ms_strcaseeq(tmp, word))
				return true;
		}
		list += l;
		list += *list == ' ';
	}
	return false;
}

static bool
is_variable(const struct ms_algo *a)
{
	return a->min_bits != a->max_bits;
}

/* The row whose family is fam and which can make bits, fixed rows first. */
static const struct ms_algo *
by_family(const char *fam, unsigned bits)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < ms_algo_count; i++) {
			const struct ms_algo *a = &ms_algos[i];

			if (a->family == NULL || !ms_strcaseeq(a->family, fam))
				continue;
			if (pass == 0 && !is_variable(a) && a->bits == bits)
				return a;
			if (pass == 1 && is_variable(a) && bits >= a->min_bits &&
			    bits <= a->max_bits && bits % 8 == 0)
				return a;
		}
	return NULL;
}

static bool
family_exists(const char *fam)
{
	for (size_t i = 0; i < ms_algo_count; i++)
		if (ms_algos[i].family && ms_strcaseeq(ms_algos[i].family, fam))
			return true;
	return false;
}

static const struct ms_algo *
by_name(const char *name)
{
	for (size_t i = 0; i < ms_algo_count; i++) {
		const struct ms_algo *a = &ms_algos[i];

		/* "blake2b-N" is reached through its family only. */
		if (!is_variable(a) || a->family == NULL ||
		    strcmp(a->name, a->family) == 0)
			if (ms_strcaseeq(a->name, name) || in_list(a->aliases, name))
				return a;
	}
	return NULL;
}

int
ms_algo_resolve(const char *name, unsigned bits, struct ms_digest_spec *out,
    const char **why)
{
	const struct ms_algo *a = by_name(name);

	if (a == NULL) {
		/* "blake2b-256", "sha3-512" spelled as family-length */
		const char *dash = strrchr(name, '-');
		char fam[32];
		char *end;
		unsigned long n;

		if (dash != NULL && dash != name &&
		    (size_t)(dash - name) < sizeof(fam) && dash[1] >= '0' &&
		    dash[1] <= '9') {
			errno = 0;
			n = strtoul(dash + 1, &end, 10);
			memcpy(fam, name, (size_t)(dash - name));
			fam[dash - name] = '\0';
			if (*end == '\0' && errno == 0 && n <= UINT_MAX &&
			    family_exists(fam) && (bits == 0 || bits == n)) {
				a = by_family(fam, (unsigned)n);
				if (a == NULL) {
					*why = "invalid length";
					return -1;
				}
				out->algo = a;
				out->bits = (unsigned)n;
				return 0;
			}
		}
		if (family_exists(name)) {
			if (bits == 0) {
				*why = "needs a length (-l)";
				return -1;
			}
			a = by_family(name, bits);
			if (a == NULL) {
				*why = "invalid length";
				return -1;
			}
			out->algo = a;
			out->bits = bits;
			return 0;
		}
		*why = "unknown algorithm";
		return -1;
	}
	if (bits == 0 || bits == a->bits) {
		out->algo = a;
		out->bits = a->bits;
		return 0;
	}
	if (is_variable(a) && bits >= a->min_bits && bits <= a->max_bits &&
	    bits % 8 == 0) {
		out->algo = a;
		out->bits = bits;
		return 0;
	}
	/* "blake2b" is also its family: -l 256 moves to the libb2 row.
	 * "sha256 -l 512" must not silently become sha512. */
	if (a->family != NULL && ms_strcaseeq(name, a->family) &&
	    (a = by_family(a->family, bits)) != NULL) {
		out->algo = a;
		out->bits = bits;
		return 0;
	}
	*why = "invalid length";
	return -1;
}

bool
ms_algo_takes_length(const char *name)
{
	const struct ms_algo *a = by_name(name);

	if (a != NULL)
		return is_variable(a) || (a->family && strcmp(a->family, a->name) == 0);
	return family_exists(name);
}

const char *
ms_spec_tag(const struct ms_digest_spec *s, char *buf, size_t cap)
{
	if (s->bits == s->algo->bits && !is_variable(s->algo))
		return s->algo->tag;
	if (s->bits == s->algo->bits && strcmp(s->algo->name, s->algo->family) == 0)
		return s->algo->tag;
	snprintf(buf, cap, "%s-%u", s->algo->tag, s->bits);
	return buf;
}

const char *
ms_spec_name(const struct ms_digest_spec *s, char *buf, size_t cap)
{
	const struct ms_algo *a = s->algo;

	if (!is_variable(a))
		return a->name;
	if (strcmp(a->name, a->family) == 0 && s->bits == a->bits)
		return a->name;
	snprintf(buf, cap, "%s-%u", a->family, s->bits);
	return buf;
}

const char *
ms_class_name(enum ms_class c)
{
	switch (c) {
	case MS_CLASS_SECURE:	return "secure";
	case MS_CLASS_LEGACY:	return "legacy";
	case MS_CLASS_BROKEN:	return "broken";
	case MS_CLASS_NONCRYPTO: return "non-cryptographic";
	}
	return "?";
}

int
ms_spec_load(const struct ms_digest_spec *s)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	int rc;

	pthread_mutex_lock(&lock);
	rc = s->algo->ops->load(s->algo);
	pthread_mutex_unlock(&lock);
	return rc;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * algorithm.c - the descriptor table and name lookup.
 *
 * Owns every algorithm's names, tag, length rules, class and backend.
 * Adding an algorithm is adding a row here (and, for a new library, a
 * backend file), plus its known answer in kat.c and its digests in
 * tests/algo-vectors.h; the only other list of names, the cksum face's
 * -a arguments, is here too (ms_cksum_algos, which personality.c reads).
 */
#include "digest/algorithm.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest/backend.h"
#include "base/util.h"

#define FIXED(b)	.bits = (b), .min_bits = (b), .max_bits = (b)
#define VARIABLE(def, lo, hi) .bits = (def), .min_bits = (lo), .max_bits = (hi)

const struct ms_algo ms_algos[] = {
	{ .name = "md5", .tag = "MD5", .impl = "MD5",
	  FIXED(128), .class = MS_CLASS_BROKEN,
	  .in_all = true, .ops = &ms_ops_md5 },
	{ .name = "sha1", .tag = "SHA1", .impl = "SHA1",
	  .aliases = "sha-1",
	  FIXED(160), .class = MS_CLASS_BROKEN,
	  .in_all = true, .ops = &ms_ops_sha1 },
	{ .name = "sha224", .tag = "SHA224", .impl = "SHA2-224",
	  .aliases = "sha-224 sha2-224", .family = "sha2",
	  FIXED(224), .class = MS_CLASS_SECURE,
	  .in_all = true, .ops = &ms_ops_sha2 },
	{ .name = "sha256", .tag = "SHA256", .impl = "SHA2-256",
	  .aliases = "sha-256 sha2-256", .family = "sha2",
	  FIXED(256), .class = MS_CLASS_SECURE,
	  .in_all = true, .ops = &ms_ops_sha2 },
	{ .name = "sha384", .tag = "SHA384", .impl = "SHA2-384",
	  .aliases = "sha-384 sha2-384", .family = "sha2",
	  FIXED(384), .class = MS_CLASS_SECURE,
	  .in_all = true, .ops = &ms_ops_openssl },
	{ .name = "sha512", .tag = "SHA512", .impl = "SHA2-512",
	  .aliases = "sha-512 sha2-512", .family = "sha2",
	  FIXED(512), .class = MS_CLASS_SECURE,
	  .in_all = true, .ops = &ms_ops_openssl },
	{ .name = "sha512-224", .tag = "SHA2-512/224", .impl = "SHA2-512/224",
	  .aliases = "sha-512/224 sha512/224 sha2-512/224",
	  FIXED(224), .class = MS_CLASS_SECURE,
	  .in_all = true, .ops = &ms_ops_openssl },
	{ .name = "sha512-256", .tag = "SHA2-512/256", .impl = "SHA2-512/256",
	  .aliases = "sha-512/256 sha512/256 sha2-512/256",
	  FIXED(256), .class = MS_CLASS_SECURE,
	  .in_all = true, .ops = &ms_ops_openssl },
	{ .name = "sha3-224", .tag = "SHA3-224", .impl = "SHA3-224",
	  .aliases = "sha3_224", .family = "sha3",
	  FIXED(224), .class = MS_CLASS_SECURE,
	  .in_all = true, .ops = &ms_ops_openssl },
	{ .name = "sha3-256", .tag = "SHA3-256", .impl = "SHA3-256",
	  .aliases = "sha3_256", .family = "sha3",
	  FIXED(256), .class = MS_CLASS_SECURE,
	  .in_all = true, .ops = &ms_ops_openssl },
	{ .name = "sha3-384", .tag = "SHA3-384", .impl = "SHA3-384",
	  .aliases = "sha3_384", .family = "sha3",
	  FIXED(384), .class = MS_CLASS_SECURE,
	  .in_all = true, .ops = &ms_ops_openssl },
	{ .name = "sha3-512", .tag = "SHA3-512", .impl = "SHA3-512",
	  .aliases = "sha3_512", .family = "sha3",
	  FIXED(512), .class = MS_CLASS_SECURE,
	  .in_all = true, .ops = &ms_ops_openssl },
	{ .name = "shake128", .tag = "SHAKE128", .impl = "SHAKE128",
	  .aliases = "shake-128", .family = "shake128",
	  VARIABLE(256, 8, 4096), .class = MS_CLASS_SECURE,
	  .in_all = true, .ops = &ms_ops_openssl },
	{ .name = "shake256", .tag = "SHAKE256", .impl = "SHAKE256",
	  .aliases = "shake-256", .family = "shake256",
	  VARIABLE(512, 8, 4096), .class = MS_CLASS_SECURE,
	  .in_all = true, .ops = &ms_ops_openssl },
	/* Full-length BLAKE2 through EVP: 2.3x faster than Debian's libb2. */
	{ .name = "blake2b", .tag = "BLAKE2b", .impl = "BLAKE2B-512",
	  .aliases = "blake2b512 blake2b-512 blake2", .family = "blake2b",
	  FIXED(512), .class = MS_CLASS_SECURE,
	  .in_all = true, .ops = &ms_ops_openssl },
	{ .name = "blake2b-N", .tag = "BLAKE2b", .impl = "blake2b",
	  .family = "blake2b",
	  VARIABLE(256, 8, 512), .class = MS_CLASS_SECURE,
	  .in_all = false, .ops = &ms_ops_blake2b },
	{ .name = "blake2s", .tag = "BLAKE2s", .impl = "BLAKE2S-256",
	  .aliases = "blake2s256 blake2s-256", .family = "blake2s",
	  FIXED(256), .class = MS_CLASS_SECURE,
	  .in_all = true, .ops = &ms_ops_openssl },
	{ .name = "blake2s-N", .tag = "BLAKE2s", .impl = "blake2s",
	  .family = "blake2s",
	  VARIABLE(128, 8, 256), .class = MS_CLASS_SECURE,
	  .in_all = false, .ops = &ms_ops_blake2s },
	{ .name = "blake2bp", .tag = "BLAKE2bp", .impl = "blake2bp",
	  .aliases = "blake2bp512 blake2bp-512",
	  FIXED(512), .class = MS_CLASS_SECURE,
	  .in_all = true, .ops = &ms_ops_blake2bp },
	{ .name = "blake2sp", .tag = "BLAKE2sp", .impl = "blake2sp",
	  .aliases = "blake2sp256 blake2sp-256",
	  FIXED(256), .class = MS_CLASS_SECURE,
	  .in_all = true, .ops = &ms_ops_blake2sp },
	/* Built in (no library), SIMD chosen at run time; -l as b3sum's -l. */
	{ .name = "blake3", .tag = "BLAKE3", .impl = "blake3",
	  .aliases = "b3", .family = "blake3",
	  VARIABLE(256, 8, 4096), .class = MS_CLASS_SECURE,
	  .in_all = true, .params = MS_PARAM_KEY,
	  .ops = &ms_ops_blake3, .tree = &ms_tree_blake3,
	  .compose = &ms_compose_blake3 },
	{ .name = "sm3", .tag = "SM3", .impl = "SM3",
	  FIXED(256), .class = MS_CLASS_SECURE,
	  .in_all = true, .ops = &ms_ops_openssl },
	{ .name = "ripemd160", .tag = "RIPEMD160", .impl = "RIPEMD-160",
	  .aliases = "ripemd-160 rmd160 ripemd",
	  FIXED(160), .class = MS_CLASS_LEGACY,
	  .in_all = true, .ops = &ms_ops_openssl },
	/* Through OpenSSL's legacy provider, loaded only for it: not in
	 * "-a all", which must work where that provider is not installed. */
	{ .name = "md4", .tag = "MD4", .impl = "MD4",
	  FIXED(128), .class = MS_CLASS_BROKEN,
	  .in_all = false, .ops = &ms_ops_openssl_legacy },
	/* Built in (whirlpool.c), its code level chosen at run time.  Still
	 * not in "-a all", whose output stays as it was. */
	{ .name = "whirlpool", .tag = "WHIRLPOOL", .impl = "whirlpool",
	  FIXED(512), .class = MS_CLASS_LEGACY,
	  .in_all = false, .ops = &ms_ops_whirlpool },
	/*
	 * RHash's GOST, EDON-R and Snefru digests, built in (backend_
	 * kernels.c), named and tagged as rhash --bsd names them; not in
	 * "-a all".  GOST R 34.11-94 is withdrawn (a 2^105 collision attack
	 * is published); EDON-R left the SHA-3 contest with published
	 * weaknesses; Snefru's reduced passes are broken and its 8 passes
	 * only theoretically: legacy, none with known collisions.
	 */
	{ .name = "gost94", .tag = "GOST94", .impl = "gost94",
	  .aliases = "gost gost-94 gostr3411-94",
	  FIXED(256), .class = MS_CLASS_LEGACY,
	  .in_all = false, .ops = &ms_ops_gost94 },
	{ .name = "gost94-cryptopro", .tag = "GOST94-CRYPTOPRO",
	  .impl = "gost94-cryptopro", .aliases = "gost-cryptopro",
	  FIXED(256), .class = MS_CLASS_LEGACY,
	  .in_all = false, .ops = &ms_ops_gost94 },
	/* GOST R 34.11-2012, RFC 6986: the current Russian standard. */
	{ .name = "streebog256", .tag = "GOST12-256", .impl = "streebog",
	  .aliases = "gost12-256 streebog-256 gost2012-256",
	  .family = "streebog",
	  FIXED(256), .class = MS_CLASS_SECURE,
	  .in_all = false, .ops = &ms_ops_streebog },
	{ .name = "streebog512", .tag = "GOST12-512", .impl = "streebog",
	  .aliases = "gost12-512 streebog-512 gost2012-512",
	  .family = "streebog",
	  FIXED(512), .class = MS_CLASS_SECURE,
	  .in_all = false, .ops = &ms_ops_streebog },
	{ .name = "edonr256", .tag = "EDON-R256", .impl = "edonr",
	  .aliases = "edon-r256", .family = "edonr",
	  FIXED(256), .class = MS_CLASS_LEGACY,
	  .in_all = false, .ops = &ms_ops_edonr },
	{ .name = "edonr512", .tag = "EDON-R512", .impl = "edonr",
	  .aliases = "edon-r512", .family = "edonr",
	  FIXED(512), .class = MS_CLASS_LEGACY,
	  .in_all = false, .ops = &ms_ops_edonr },
	{ .name = "snefru128", .tag = "SNEFRU-128", .impl = "snefru",
	  .aliases = "snefru-128", .family = "snefru",
	  FIXED(128), .class = MS_CLASS_LEGACY,
	  .in_all = false, .ops = &ms_ops_snefru },
	{ .name = "snefru256", .tag = "SNEFRU-256", .impl = "snefru",
	  .aliases = "snefru-256", .family = "snefru",
	  FIXED(256), .class = MS_CLASS_LEGACY,
	  .in_all = false, .ops = &ms_ops_snefru },
	{ .name = "crc32", .tag = "CRC32", .impl = "crc32",
	  .aliases = "crc32b crc-32",
	  FIXED(32), .class = MS_CLASS_NONCRYPTO,
	  .in_all = true, .ops = &ms_ops_crc_inverted32,
	  .tree = &ms_tree_crc, .compose = &ms_compose_crc },
	{ .name = "crc32c", .tag = "CRC32C", .impl = "crc32c",
	  .aliases = "crc-32c",
	  FIXED(32), .class = MS_CLASS_NONCRYPTO,
	  .in_all = true, .ops = &ms_ops_crc_inverted32,
	  .tree = &ms_tree_crc, .compose = &ms_compose_crc },
	{ .name = "cksum", .tag = "CRC", .impl = "cksum",
	  .aliases = "crc posix",
	  FIXED(32), .class = MS_CLASS_NONCRYPTO,
	  .legacy = MS_LEGACY_CKSUM, .in_all = true, .ops = &ms_ops_crc_cksum,
	  .tree = &ms_tree_crc, .compose = &ms_compose_crc },
	/* Amazon S3's default object checksum: reflected, all ones in
	 * and out, check value ae8b14860a799888. */
	{ .name = "crc64nvme", .tag = "CRC64NVME", .impl = "crc64nvme",
	  .aliases = "crc64-nvme crc-64/nvme",
	  FIXED(64), .class = MS_CLASS_NONCRYPTO,
	  .in_all = true, .ops = &ms_ops_crc_inverted64,
	  .tree = &ms_tree_crc, .compose = &ms_compose_crc },
	{ .name = "xxh32", .tag = "XXH32", .impl = "xxh32",
	  .aliases = "xxhash32",
	  FIXED(32), .class = MS_CLASS_NONCRYPTO,
	  .in_all = true, .ops = &ms_ops_xxh32 },
	{ .name = "xxh64", .tag = "XXH64", .impl = "xxh64",
	  .aliases = "xxhash64 xxhash",
	  FIXED(64), .class = MS_CLASS_NONCRYPTO,
	  .in_all = true, .ops = &ms_ops_xxh64 },
	{ .name = "xxh3", .tag = "XXH3", .impl = "xxh3", .gnu_prefix = "XXH3_",
	  .aliases = "xxh3_64 xxh3-64 xxh364",
	  FIXED(64), .class = MS_CLASS_NONCRYPTO,
	  .in_all = true, .ops = &ms_ops_xxh3 },
	{ .name = "xxh128", .tag = "XXH128", .impl = "xxh128",
	  .aliases = "xxh3_128 xxh3-128",
	  FIXED(128), .class = MS_CLASS_NONCRYPTO,
	  .in_all = true, .ops = &ms_ops_xxh128 },
	/* Amazon S3's checksums of an object uploaded in parts of
	 * --part-size bytes (backend_s3.c): impl names the inner row; the raw
	 * digest is the inner one and a 4-byte part count. */
	{ .name = "s3etag", .tag = "S3ETAG", .impl = "md5",
	  FIXED(160), .class = MS_CLASS_BROKEN,
	  .in_all = false, .params = MS_PARAM_PART_SIZE,
	  .ops = &ms_ops_s3etag, .compose = &ms_compose_s3 },
	{ .name = "s3-crc32", .tag = "S3-CRC32", .impl = "crc32",
	  FIXED(64), .class = MS_CLASS_NONCRYPTO,
	  .in_all = false, .params = MS_PARAM_PART_SIZE,
	  .ops = &ms_ops_s3composite, .compose = &ms_compose_s3 },
	{ .name = "s3-crc32c", .tag = "S3-CRC32C", .impl = "crc32c",
	  FIXED(64), .class = MS_CLASS_NONCRYPTO,
	  .in_all = false, .params = MS_PARAM_PART_SIZE,
	  .ops = &ms_ops_s3composite, .compose = &ms_compose_s3 },
	{ .name = "s3-sha1", .tag = "S3-SHA1", .impl = "sha1",
	  FIXED(192), .class = MS_CLASS_BROKEN,
	  .in_all = false, .params = MS_PARAM_PART_SIZE,
	  .ops = &ms_ops_s3composite, .compose = &ms_compose_s3 },
	{ .name = "s3-sha256", .tag = "S3-SHA256", .impl = "sha256",
	  FIXED(288), .class = MS_CLASS_SECURE,
	  .in_all = false, .params = MS_PARAM_PART_SIZE,
	  .ops = &ms_ops_s3composite, .compose = &ms_compose_s3 },
	/* Dropbox's content_hash: SHA-256 of the SHA-256s of 4 MiB blocks
	 * (backend_s3.c). */
	{ .name = "dropbox", .tag = "DROPBOX", .impl = "sha256",
	  .aliases = "dropboxhash content-hash content_hash",
	  FIXED(256), .class = MS_CLASS_SECURE,
	  .in_all = false, .ops = &ms_ops_dropbox,
	  .compose = &ms_compose_dropbox },
	/* HDFS's file checksums, printed as `hadoop fs -checksum` prints
	 * them (backend_hdfs.c); impl names the chunks' CRC.  The MD5 of the
	 * blocks' MD5s of the chunks' CRCs (dfs.checksum.combine.mode
	 * MD5MD5CRC, the default) takes --bytes-per-crc and --block-size,
	 * its raw digest the 28 bytes HDFS prints; the composite CRC
	 * (COMPOSITE_CRC) is the CRC of the whole file, as Google Cloud
	 * Storage's crc32c is. */
	{ .name = "hdfs-md5md5crc32c", .tag = "HDFS-MD5MD5CRC32C",
	  .impl = "crc32c", .aliases = "hdfs",
	  FIXED(224), .class = MS_CLASS_BROKEN, .legacy = MS_LEGACY_HADOOP,
	  .in_all = false, .params = MS_PARAM_HDFS,
	  .ops = &ms_ops_hdfs_md5md5, .compose = &ms_compose_hdfs },
	{ .name = "hdfs-composite-crc32c", .tag = "HDFS-COMPOSITE-CRC32C",
	  .impl = "crc32c",
	  FIXED(32), .class = MS_CLASS_NONCRYPTO, .legacy = MS_LEGACY_HADOOP,
	  .in_all = false, .ops = &ms_ops_crc_inverted32,
	  .tree = &ms_tree_crc, .compose = &ms_compose_crc },
	/* The sums of `cksum -a bsd|sysv`: kept for the cksum personality. */
	{ .name = "bsd", .tag = "BSD", .impl = "bsd",
	  FIXED(16), .class = MS_CLASS_NONCRYPTO,
	  .legacy = MS_LEGACY_BSD, .in_all = false, .ops = &ms_ops_bsd },
	{ .name = "sysv", .tag = "SYSV", .impl = "sysv",
	  FIXED(16), .class = MS_CLASS_NONCRYPTO,
	  .legacy = MS_LEGACY_SYSV, .in_all = false, .ops = &ms_ops_sysv },
	/* RHash's file-sharing digests and HAS-160, built in
	 * (backend_p2p.c), named and tagged as `rhash --bsd` writes them;
	 * TTH and AICH print in base32 as rhash does.  Classed by what
	 * they rest on: Tiger and HAS-160 are unbroken but outdated, ED2K
	 * is MD4's and AICH SHA-1's. */
	{ .name = "tiger", .tag = "TIGER", .impl = "tiger",
	  .aliases = "tiger192 tiger1",
	  FIXED(192), .class = MS_CLASS_LEGACY,
	  .in_all = false, .ops = &ms_ops_tiger },
	{ .name = "tth", .tag = "TTH", .impl = "tiger",
	  .aliases = "tiger-tree tigertree",
	  FIXED(192), .class = MS_CLASS_LEGACY,
	  .in_all = false, .ops = &ms_ops_tth },
	/* eMule's convention for an exact multiple of the 9,728,000-byte
	 * chunk (RHash's); ed2k-edonkey is the original client's. */
	{ .name = "ed2k", .tag = "ED2K", .impl = "md4",
	  .aliases = "ed2k-emule edonkey",
	  FIXED(128), .class = MS_CLASS_BROKEN,
	  .in_all = false, .ops = &ms_ops_ed2k },
	{ .name = "ed2k-edonkey", .tag = "ED2K-EDONKEY", .impl = "md4",
	  FIXED(128), .class = MS_CLASS_BROKEN,
	  .in_all = false, .ops = &ms_ops_ed2k_edonkey },
	{ .name = "aich", .tag = "AICH", .impl = "sha1",
	  FIXED(160), .class = MS_CLASS_BROKEN,
	  .in_all = false, .ops = &ms_ops_aich },
	{ .name = "has160", .tag = "HAS-160", .impl = "has160",
	  .aliases = "has-160",
	  FIXED(160), .class = MS_CLASS_LEGACY,
	  .in_all = false, .ops = &ms_ops_has160 },
	/* BitTorrent: a file's v2 root (BEP 52's "pieces root", the SHA-256
	 * Merkle root over 16 KiB blocks; backend_btv2.c, merkle.c). */
	{ .name = "btv2", .tag = "BTV2", .impl = "sha256",
	  .aliases = "bittorrent-v2 pieces-root",
	  FIXED(256), .class = MS_CLASS_SECURE,
	  .in_all = false, .ops = &ms_ops_btv2 },
	/* BitTorrent v1: the info hash of a one-file torrent of the file,
	 * as `rhash --btih` computes it (backend_btih.c). */
	{ .name = "btih", .tag = "BTIH", .impl = "sha1",
	  .aliases = "bittorrent infohash",
	  FIXED(160), .class = MS_CLASS_BROKEN,
	  .in_all = false, .params = MS_PARAM_BTIH, .ops = &ms_ops_btih },
};

const size_t ms_algo_count = MS_ARRAY_LEN(ms_algos);

/* The one list of cksum's algorithms (9.11's, in its -a order):
 * personality.c parses -a with it, manifest_coreutils.c reads `cksum -c`
 * tags with it.  sha2 and sha3 name their 512-bit rows; -l or a tag's
 * "-BITS" picks the family's row of that length. */
#define SUM(a, r, t)	{ .arg = (a), .algo = (r), .tag = (t), .sum = true }
#define DIGEST(a, r, t)	{ .arg = (a), .algo = (r), .tag = (t) }
const struct ms_cksum_algo ms_cksum_algos[] = {
	SUM("bsd", "bsd", "BSD"), SUM("sysv", "sysv", "SYSV"),
	SUM("crc", "cksum", "CRC"), SUM("crc32b", "crc32", "CRC32B"),
	DIGEST("md5", "md5", "MD5"), DIGEST("sha1", "sha1", "SHA1"),
	DIGEST("sha224", "sha224", "SHA224"),
	DIGEST("sha256", "sha256", "SHA256"),
	DIGEST("sha384", "sha384", "SHA384"),
	DIGEST("sha512", "sha512", "SHA512"),
	{ .arg = "sha2", .algo = "sha512", .tag = "SHA2", .family = "sha2" },
	{ .arg = "sha3", .algo = "sha3-512", .tag = "SHA3", .family = "sha3" },
	DIGEST("blake2b", "blake2b", "BLAKE2b"), DIGEST("sm3", "sm3", "SM3"),
};
#undef SUM
#undef DIGEST

const size_t ms_cksum_algo_count = MS_ARRAY_LEN(ms_cksum_algos);

const struct ms_algo *
ms_algo_named(const char *name)
{
	for (size_t i = 0; i < ms_algo_count; i++)
		if (strcmp(ms_algos[i].name, name) == 0)
			return &ms_algos[i];
	return NULL;
}

const struct ms_algo *
ms_algo_row(const char *name)
{
	const struct ms_algo *a = ms_algo_named(name);

	if (a == NULL)
		ms_bug("algorithm table: a row a backend needs is missing");
	return a;
}

const struct ms_algo *
ms_algo_inner(const struct ms_algo *a)
{
	return ms_algo_row(a->impl);
}

int
ms_algo_inner_load(const struct ms_algo *a)
{
	return ms_algo_load(ms_algo_inner(a));
}

/* Does word occur in the space-separated list? (case-insensitive) */
static bool
in_list(const char *list, const char *word)
{
	size_t wl = strlen(word);

	while (list != NULL && *list) {
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

/* A spec of row a at bits, with the row's default parameters. */
static int
found(struct ms_digest_spec *out, const struct ms_algo *a, unsigned bits)
{
	*out = (struct ms_digest_spec){ .algo = a, .bits = bits };
	return 0;
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
				return found(out, a, (unsigned)n);
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
			return found(out, a, bits);
		}
		*why = "unknown algorithm";
		return -1;
	}
	if (bits == 0 || bits == a->bits)
		return found(out, a, a->bits);
	if (is_variable(a) && bits >= a->min_bits && bits <= a->max_bits &&
	    bits % 8 == 0)
		return found(out, a, bits);
	/* "blake2b" is also its family: -l 256 moves to the libb2 row.
	 * "sha256 -l 512" must not silently become sha512. */
	if (a->family != NULL && ms_strcaseeq(name, a->family) &&
	    (a = by_family(a->family, bits)) != NULL)
		return found(out, a, bits);
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
ms_algo_lengths(const char *name, char *buf, size_t cap)
{
	const struct ms_algo *a = by_name(name);
	unsigned lo = 0, hi = 0, fixed[16];
	size_t nfixed = 0, used = 0;

	/* "sha256" has one length; its family "sha2" has the rows' */
	if (a != NULL && (a->family == NULL || !ms_strcaseeq(name, a->family)))
		name = NULL;
	for (size_t i = 0; i < ms_algo_count; i++) {
		const struct ms_algo *r = &ms_algos[i];
		size_t k = 0;

		if (r != a && (name == NULL || r->family == NULL ||
		    !ms_strcaseeq(r->family, name)))
			continue;
		if (is_variable(r)) {
			lo = r->min_bits;
			hi = r->max_bits;
			continue;
		}
		while (k < nfixed && fixed[k] < r->bits)
			k++;
		if (nfixed < MS_ARRAY_LEN(fixed) && (k == nfixed ||
		    fixed[k] != r->bits)) {
			memmove(fixed + k + 1, fixed + k,
			    (nfixed++ - k) * sizeof(*fixed));
			fixed[k] = r->bits;
		}
	}
	if (hi != 0) {
		snprintf(buf, cap, "%u to %u bits, a multiple of 8", lo, hi);
		return buf;
	}
	buf[0] = '\0';
	for (size_t k = 0; k < nfixed && used < cap; k++)
		used += (size_t)snprintf(buf + used, cap - used, "%s%u",
		    k == 0 ? "" : k + 1 == nfixed ? " or " : ", ", fixed[k]);
	if (used < cap)
		snprintf(buf + used, cap - used, " bits");
	return buf;
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

const char *
ms_spec_variant(const struct ms_digest_spec *s)
{
	const struct ms_digest_ops *ops = s->algo->ops;

	if (ops->variant != NULL)
		return ops->variant(s);
	return ops->levels != NULL ? ms_level_name(ops->levels) : NULL;
}

const struct ms_digest_ops *
ms_spec_stream_ops(const struct ms_digest_spec *s)
{
	const struct ms_digest_ops *ops = s->algo->ops;

	return ops->stream != NULL ? ops->stream(s) : ops;
}

const char *
ms_algo_backend(const struct ms_algo *a, char *buf, size_t cap)
{
	struct ms_digest_spec s = { .algo = a, .bits = a->bits };
	const char *v = ms_spec_variant(&s);
	const char *backend = ms_spec_stream_ops(&s)->backend;

	if (v == NULL)
		return backend;
	snprintf(buf, cap, "%s/%s", backend, v);
	return buf;
}

void
ms_spec_set_params(struct ms_digest_spec *s, const struct ms_digest_params *p)
{
	unsigned takes = s->algo->params;

	s->param = (struct ms_digest_params){ 0 };
	if (takes & MS_PARAM_PART_SIZE)
		s->param.part_size = p->part_size;
	if (takes & MS_PARAM_HDFS) {
		s->param.bytes_per_crc = p->bytes_per_crc;
		s->param.block_size = p->block_size;
	}
	if (takes & MS_PARAM_BTIH) {
		s->param.piece_length = p->piece_length;
		s->param.bt_private = p->bt_private;
	}
	if ((takes & MS_PARAM_KEY) && p->key_mode != MS_KEY_NONE) {
		s->param.key_mode = p->key_mode;
		s->param.key_len = p->key_len;
		memcpy(s->param.key, p->key, p->key_len);
		s->param.context = p->context;
	}
}

bool
ms_spec_same(const struct ms_digest_spec *a, const struct ms_digest_spec *b)
{
	const struct ms_digest_params *p = &a->param, *q = &b->param;

	return a->algo == b->algo && a->bits == b->bits &&
	    p->part_size == q->part_size && p->bytes_per_crc == q->bytes_per_crc &&
	    p->block_size == q->block_size && p->key_mode == q->key_mode &&
	    p->piece_length == q->piece_length &&
	    p->bt_private == q->bt_private &&
	    p->key_len == q->key_len && memcmp(p->key, q->key, p->key_len) == 0 &&
	    (p->context == q->context || (p->context != NULL &&
	    q->context != NULL && strcmp(p->context, q->context) == 0));
}

int
ms_algo_load(const struct ms_algo *a)
{
	if (a->ops->levels != NULL && ms_level_load(a->ops->levels) == -1)
		return -1;
	return a->ops->load != NULL ? a->ops->load(a) : 0;
}

int
ms_spec_load(const struct ms_digest_spec *s)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	int rc;

	pthread_mutex_lock(&lock);
	rc = ms_algo_load(s->algo);
	pthread_mutex_unlock(&lock);
	return rc;
}

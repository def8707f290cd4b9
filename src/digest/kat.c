/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * kat.c - known-answer vectors and the self-test built on them.
 *
 * Owns one table: the digest of the three bytes "abc" for every row at
 * its default length (and a few common BLAKE2 lengths), in the byte order
 * the reference tools print.  It computes digests only through a row's
 * ops, so the test covers exactly the path the program uses, and it
 * never prints: callers decide what a failure means.
 *
 * Where the answers come from: MD5 RFC 1321; SHA-1, SHA-2 and SHA-3 the
 * NIST examples for FIPS 180-4 and FIPS 202; BLAKE2b-512 and BLAKE2s-256
 * RFC 7693 appendix A; SM3 GB/T 32905 example 1.  The other lengths and
 * the tree modes BLAKE2bp/BLAKE2sp were computed with Python's hashlib
 * (its BLAKE2 tree parameters), SHAKE with hashlib and openssl dgst,
 * RIPEMD-160 with openssl dgst,
 * GOST, Streebog, EDON-R and Snefru with RHash 1.4.3 (tests/algo-vectors.h
 * says which are also published), BLAKE3 with b3sum 1.x, CRC-32 with
 * zlib, CRC-32C with a bitwise
 * implementation (check value of "123456789": e3069283), cksum and the
 * BSD and System V sums with coreutils cksum and sum, XXH* with
 * xxhsum 0.8.1, Dropbox's and HDFS's with tests/storage-ref.py, a
 * model written from their specifications; Tiger the NESSIE vectors,
 * HAS-160 TTAS.KO-12.0011/R2, TTH RHash 1.4.3 (ED2K and AICH of "abc"
 * are its MD4 and SHA-1, a single chunk and block).
 */
#include "digest/kat.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

static const struct {
	const char	*name;		/* as ms_spec_name prints it */
	const char	*hex;		/* digest of "abc" */
} vectors[] = {
	{ .name = "md5", .hex = "900150983cd24fb0d6963f7d28e17f72" },
	{ .name = "sha1", .hex = "a9993e364706816aba3e25717850c26c9cd0d89d" },
	{ .name = "sha224", .hex = "23097d223405d8228642a477bda255b3"
	    "2aadbce4bda0b3f7e36c9da7" },
	{ .name = "sha256", .hex = "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad" },
	{ .name = "sha384", .hex = "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded163"
	    "1a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7" },
	{ .name = "sha512", .hex = "ddaf35a193617abacc417349ae204131"
	    "12e6fa4e89a97ea20a9eeee64b55d39a"
	    "2192992a274fc1a836ba3c23a3feebbd"
	    "454d4423643ce80e2a9ac94fa54ca49f" },
	{ .name = "sha512-224", .hex = "4634270f707b6a54daae7530460842e2"
	    "0e37ed265ceee9a43e8924aa" },
	{ .name = "sha512-256", .hex = "53048e2681941ef99b2e29b76b4c7dab"
	    "e4c2d0c634fc6d46e0e2f13107e7af23" },
	{ .name = "sha3-224", .hex = "e642824c3f8cf24ad09234ee7d3c766f"
	    "c9a3a5168d0c94ad73b46fdf" },
	{ .name = "sha3-256", .hex = "3a985da74fe225b2045c172d6bd390bd"
	    "855f086e3e9d525b46bfe24511431532" },
	{ .name = "sha3-384", .hex = "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c25"
	    "96da7cf0e49be4b298d88cea927ac7f539f1edf228376d25" },
	{ .name = "sha3-512", .hex = "b751850b1a57168a5693cd924b6b096e"
	    "08f621827444f70d884f5d0240d2712e"
	    "10e116e9192af3c91a7ec57647e39340"
	    "57340b4cf408d5a56592f8274eec53f0" },
	{ .name = "shake128", .hex = "5881092dd818bf5cf8a3ddb793fbcba7"
	    "4097d5c526a6d35f97b83351940f2cc8" },
	{ .name = "shake128-128", .hex = "5881092dd818bf5cf8a3ddb793fbcba7" },
	{ .name = "shake256", .hex = "483366601360a8771c6863080cc4114d"
	    "8db44530f8f1e1ee4f94ea37e78b5739"
	    "d5a15bef186a5386c75744c0527e1faa"
	    "9f8726e462a12a4feb06bd8801e751e4" },
	{ .name = "blake2b", .hex = "ba80a53f981c4d0d6a2797b69f12f6e9"
	    "4c212f14685ac4b74b12bb6fdbffa2d1"
	    "7d87c5392aab792dc252d5de4533cc95"
	    "18d38aa8dbf1925ab92386edd4009923" },
	{ .name = "blake2b-160", .hex = "384264f676f39536840523f284921cdc68b6846b" },
	{ .name = "blake2b-256", .hex = "bddd813c634239723171ef3fee98579b"
	    "94964e3bb1cb3e427262c8c068d52319" },
	{ .name = "blake2b-384", .hex = "6f56a82c8e7ef526dfe182eb5212f7db9df1317e57815dbd"
	    "a46083fc30f54ee6c66ba83be64b302d7cba6ce15bb556f4" },
	{ .name = "blake2b-512", .hex = "ba80a53f981c4d0d6a2797b69f12f6e9"	/* the -N row */
	    "4c212f14685ac4b74b12bb6fdbffa2d1"
	    "7d87c5392aab792dc252d5de4533cc95"
	    "18d38aa8dbf1925ab92386edd4009923" },
	{ .name = "blake2s", .hex = "508c5e8c327c14e2e1a72ba34eeb452f"
	    "37458b209ed63a294d999b4c86675982" },
	{ .name = "blake2s-128", .hex = "aa4938119b1dc7b87cbad0ffd200d0ae" },
	{ .name = "blake2s-160", .hex = "5ae3b99be29b01834c3b508521ede60438f8de17" },
	{ .name = "blake2s-224", .hex = "0b033fc226df7abde29f67a05d3dc62c"
	    "f271ef3dfea4d387407fbd55" },
	{ .name = "blake2s-256", .hex = "508c5e8c327c14e2e1a72ba34eeb452f"	/* the -N row */
	    "37458b209ed63a294d999b4c86675982" },
	{ .name = "blake2bp", .hex = "b91a6b66ae87526c400b0a8b53774dc6"
	    "5284ad8f6575f8148ff93dff943a6ecd"
	    "8362130f22d6dae633aa0f91df4ac89a"
	    "aff31d0f1b923c898e82025dedbdad6e" },
	{ .name = "blake2sp", .hex = "70f75b58f1fecab821db43c88ad84edd"
	    "e5a52600616cd22517b7bb14d440a7d5" },
	{ .name = "blake3", .hex = "6437b3ac38465133ffb63b75273a8db5"
	    "48c558465d79db03fd359c6cd5bd9d85" },
	{ .name = "sm3", .hex = "66c7f0f462eeedd9d1f2d46bdc10e4e2"
	    "4167c4875cf2f7a2297da02b8f4ba8e0" },
	{ .name = "ripemd160", .hex = "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc" },
	{ .name = "md4", .hex = "a448017aaf21d8525fc10ae87aa6729d" },
	{ .name = "whirlpool", .hex = "4e2448a4c6f486bb16b6562c73b4020b"
	    "f3043e3a731bce721ae1b303d97e6d4c7181eebdb6c57e277d0e34957114cbd6"
	    "c797fc9d95d8b582d225292076d4eef5" },
	{ .name = "tiger", .hex = "2aab1484e8c158f2bfb8c5ff41b57a52"
	    "5129131c957b5f93" },
	{ .name = "tth", .hex = "0487ca26443f59cfbc780f3ca0ce509c"
	    "8c352c27c5dcca20" },
	{ .name = "ed2k", .hex = "a448017aaf21d8525fc10ae87aa6729d" },
	{ .name = "ed2k-edonkey", .hex = "a448017aaf21d8525fc10ae87aa6729d" },
	{ .name = "aich", .hex = "a9993e364706816aba3e25717850c26c9cd0d89d" },
	{ .name = "has160", .hex = "975e810488cf2a3d49838478124afce4b1c78804" },
	{ .name = "gost94", .hex = "f3134348c44fb1b2a277729e2285ebb5"
	    "cb5e0f29c975bc753b70497c06a4d51d" },
	{ .name = "gost94-cryptopro", .hex = "b285056dbf18d7392d7677369524dd14"
	    "747459ed8143997e163b2986f92fd42c" },
	{ .name = "streebog256", .hex = "4e2919cf137ed41ec4fb6270c61826cc"
	    "4fffb660341e0af3688cd0626d23b481" },
	{ .name = "streebog512", .hex = "28156e28317da7c98f4fe2bed6b542d0"
	    "dab85bb224445fcedaf75d46e26d7eb8d5997f3e0915dd6b7f0aab08d9c8beb0"
	    "d8c64bae2ab8b3c8c6bc53b3bf0db728" },
	{ .name = "edonr256", .hex = "0360f65d97c2152ea6ebe3d462bf4983"
	    "1e2d5f67b6140992320585d89fd271ce" },
	{ .name = "edonr512", .hex = "fe79bcfa310245d9139da8bc91b99fd0"
	    "22326f7f3aca1dfdfb6c84e4125d71fe9bb6a1d41afce358f8472835220a7829"
	    "d5146b2bbfc8e5c2627f60a9b517c1a4" },
	{ .name = "snefru128", .hex = "553d0648928299a0f22a275a02c83b10" },
	{ .name = "snefru256", .hex = "7d033205647a2af3dc8339f6cb25643c"
	    "33ebc622d32979c4b612b02c4903031b" },
	{ .name = "crc32", .hex = "352441c2" },
	{ .name = "crc32c", .hex = "364b3fb7" },
	{ .name = "cksum", .hex = "48aa78a2" },		/* cksum prints 1219131554 */
	{ .name = "crc64nvme", .hex = "05e5cabb3fc1faeb" },
	{ .name = "xxh32", .hex = "32d153ff" },
	{ .name = "xxh64", .hex = "44bc2cf5ad770999" },
	{ .name = "xxh3", .hex = "78af5f94892f3950" },
	{ .name = "xxh128", .hex = "06b05ab6733a618578af5f94892f3950" },
	{ .name = "s3etag", .hex = "900150983cd24fb0d6963f7d28e17f7200000000" },
	{ .name = "s3-crc32", .hex = "352441c200000000" },
	{ .name = "s3-crc32c", .hex = "364b3fb700000000" },
	{ .name = "s3-sha1", .hex = "a9993e364706816aba3e25717850c26c9cd0d89d00000000" },
	{ .name = "s3-sha256", .hex = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	    "00000000" },
	{ .name = "dropbox", .hex = "4f8b42c22dd3729b519ba6f68d2da7cc"
	    "5b2d606d05daed5ad5128cc03e6c6358" },
	{ .name = "hdfs-md5md5crc32c", .hex = "000002000000000000000000"
	    "648db27a367e242e5349fe9ccfdab0ea" },
	{ .name = "hdfs-composite-crc32c", .hex = "364b3fb7" },
	{ .name = "bsd", .hex = "40ac" },			/* sum -r prints 16556 */
	{ .name = "sysv", .hex = "0126" },			/* sum -s prints 294 */
	/* one block: its tree is the leaf, SHA-256 itself */
	{ .name = "btv2", .hex = "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad" },
	/* one piece, no name: d6:lengthi3e4:name0:12:piece lengthi16384e
	 * 6:pieces20:SHA1("abc")e */
	{ .name = "btih", .hex = "3e327a9b91782471e5d4d994e467f26a56fbaf6e" },
};

const char *
ms_kat_name(size_t i)
{
	return i < MS_ARRAY_LEN(vectors) ? vectors[i].name : NULL;
}

/* The consistency message: long enough to cross every block size. */
#define MSG_LEN		3001

const char *
ms_kat_abc(const struct ms_digest_spec *s)
{
	char buf[64];
	const char *name = ms_spec_name(s, buf, sizeof(buf));

	for (size_t i = 0; i < MS_ARRAY_LEN(vectors); i++)
		if (strcmp(vectors[i].name, name) == 0)
			return vectors[i].hex;
	return NULL;
}

/* Feed p to a fresh cycle of state, in pieces of the given lengths. */
static void
digest(const struct ms_digest_spec *s, void *state, const unsigned char *p,
    size_t n, const size_t *pieces, unsigned char *out)
{
	const struct ms_digest_ops *ops = s->algo->ops;

	ops->init(state);
	for (; pieces != NULL && *pieces != 0 && *pieces < n; pieces++) {
		ops->update(state, p, *pieces);
		p += *pieces;
		n -= *pieces;
	}
	ops->update(state, p, n);
	ops->final(state, out);
}

enum ms_kat_result
ms_kat_check(const struct ms_digest_spec *s, char *why, size_t cap)
{
	/* Odd pieces straddle the 64- and 128-byte blocks and the
	 * 256-byte stripes of the tree modes and XXH3. */
	static const size_t pieces[] = { 1, 63, 64, 129, 255, 1000, 0 };
	const struct ms_digest_ops *ops = s->algo->ops;
	const char *want = ms_kat_abc(s);
	size_t len = ms_spec_len(s);
	unsigned char msg[MSG_LEN];
	unsigned char one[MS_DIGEST_MAX], split[MS_DIGEST_MAX];
	char hex[2 * MS_DIGEST_MAX + 1];
	uint32_t x = 2463534242u;
	void *state;
	enum ms_kat_result rc = want ? MS_KAT_PASS : MS_KAT_NO_VECTOR;

	for (size_t i = 0; i < sizeof(msg); i++) {
		x ^= x << 13;		/* xorshift32: fixed bytes will do */
		x ^= x >> 17;
		x ^= x << 5;
		msg[i] = (unsigned char)x;
	}
	state = ops->create(s);
	if (state == NULL) {
		snprintf(why, cap, "cannot create a state");
		return MS_KAT_FAIL;
	}
	digest(s, state, (const unsigned char *)"abc", 3, NULL, one);
	ms_hex(hex, one, len);
	if (want != NULL && strcmp(hex, want) != 0) {
		snprintf(why, cap, "digest of \"abc\" is %s, expected %s", hex,
		    want);
		rc = MS_KAT_FAIL;
		goto out;
	}
	digest(s, state, msg, sizeof(msg), NULL, one);
	digest(s, state, msg, sizeof(msg), pieces, split);
	if (memcmp(one, split, len) != 0) {
		snprintf(why, cap, "a message in pieces digests differently");
		rc = MS_KAT_FAIL;
	}
out:
	ops->destroy(state);
	return rc;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * backend.h - the operation tables each backend file exports.
 *
 * algorithm.c points its rows at these; nobody else should need them.
 * Each variant has its own table, so a backtrace names the function that
 * runs and no call looks a variant up by name; the CRC rows, which differ
 * only in their polynomial, share theirs and name their CRC (crc.c) in
 * the row's impl field.
 */
#ifndef MS_BACKEND_H
#define MS_BACKEND_H

#include "digest/algorithm.h"

/*
 * The init, update and final of a row (v_init, v_update, v_final) whose
 * state is a built-in kernel's own struct: they call the kernel's INIT,
 * UPDATE and FINAL on it (tiger, has160, whirlpool).  The row's calls
 * take a void *, the kernel's its struct, hence a function each.
 */
#define MS_KERNEL_CALLS(v, INIT, UPDATE, FINAL)				\
static void								\
v##_init(void *state)							\
{									\
	INIT(state);							\
}									\
									\
static void								\
v##_update(void *state, const void *p, size_t n)			\
{									\
	UPDATE(state, p, n);						\
}									\
									\
static void								\
v##_final(void *state, unsigned char *out)				\
{									\
	FINAL(state, out);						\
}

extern const struct ms_digest_ops ms_ops_openssl;	/* backend_openssl.c */
extern const struct ms_digest_ops ms_ops_openssl_legacy;	/* MD4 */

extern const struct ms_digest_ops ms_ops_md5;		/* backend_md.c */
extern const struct ms_digest_ops ms_ops_sha1;
extern const struct ms_digest_ops ms_ops_sha2;		/* SHA-224, SHA-256 */

extern const struct ms_digest_ops ms_ops_blake2b;	/* backend_blake2.c */
extern const struct ms_digest_ops ms_ops_blake2s;
extern const struct ms_digest_ops ms_ops_blake2bp;
extern const struct ms_digest_ops ms_ops_blake2sp;

extern const struct ms_digest_ops ms_ops_xxh32;		/* backend_xxhash.c */
extern const struct ms_digest_ops ms_ops_xxh64;
extern const struct ms_digest_ops ms_ops_xxh3;
extern const struct ms_digest_ops ms_ops_xxh128;

/* backend_crc.c: crc32 and crc32c; cksum; crc64nvme; the two sums */
extern const struct ms_digest_ops ms_ops_crc_inverted32;
extern const struct ms_digest_ops ms_ops_crc_cksum;
extern const struct ms_digest_ops ms_ops_crc_inverted64;
extern const struct ms_digest_ops ms_ops_bsd;
extern const struct ms_digest_ops ms_ops_sysv;
extern const struct ms_tree_ops ms_tree_crc;		/* the four CRCs */
extern const struct ms_compose_ops ms_compose_crc;

extern const struct ms_digest_ops ms_ops_s3etag;	/* backend_s3.c */
extern const struct ms_digest_ops ms_ops_s3composite;
extern const struct ms_digest_ops ms_ops_dropbox;
extern const struct ms_compose_ops ms_compose_s3;
extern const struct ms_compose_ops ms_compose_dropbox;

/* backend_hdfs.c: HDFS's MD5 of block MD5s of chunk CRC-32Cs */
extern const struct ms_digest_ops ms_ops_hdfs_md5md5;
extern const struct ms_compose_ops ms_compose_hdfs;

extern const struct ms_digest_ops ms_ops_blake3;	/* backend_blake3.c */
extern const struct ms_tree_ops ms_tree_blake3;
extern const struct ms_compose_ops ms_compose_blake3;

extern const struct ms_digest_ops ms_ops_whirlpool;	/* backend_whirlpool.c */

/* backend_p2p.c: Tiger, TTH, ED2K, AICH, HAS-160 */
extern const struct ms_digest_ops ms_ops_tiger;
extern const struct ms_digest_ops ms_ops_tth;
extern const struct ms_digest_ops ms_ops_ed2k;		/* eMule's */
extern const struct ms_digest_ops ms_ops_ed2k_edonkey;
extern const struct ms_digest_ops ms_ops_aich;
extern const struct ms_digest_ops ms_ops_has160;

/* backend_kernels.c: GOST R 34.11-94 (both S-box sets), Streebog,
 * EDON-R, Snefru */
extern const struct ms_digest_ops ms_ops_gost94;
extern const struct ms_digest_ops ms_ops_streebog;
extern const struct ms_digest_ops ms_ops_edonr;
extern const struct ms_digest_ops ms_ops_snefru;

/* backend_btv2.c: BitTorrent v2's per-file Merkle root (merkle.c) */
extern const struct ms_digest_ops ms_ops_btv2;
/* backend_btih.c: BitTorrent v1's info hash of a one-file torrent */
extern const struct ms_digest_ops ms_ops_btih;

#endif

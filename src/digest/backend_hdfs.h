/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * backend_hdfs.h - the HDFS file checksums (backend_hdfs.c) as `hadoop fs
 * -checksum` prints and reads them: an algorithm name and hex bytes.
 */
#ifndef MS_BACKEND_HDFS_H
#define MS_BACKEND_HDFS_H

#include <stddef.h>
#include <stdint.h>

#include "digest/algorithm.h"

/* HDFS's defaults: dfs.bytes-per-checksum and dfs.blocksize. */
#define MS_HDFS_BYTES_PER_CRC	512u
#define MS_HDFS_BLOCK_SIZE	(128ull << 20)

/* A spec's bytes per CRC and block size, the defaults for 0. */
uint32_t ms_hdfs_bpc(const struct ms_digest_spec *s);
uint64_t ms_hdfs_block(const struct ms_digest_spec *s);

/* "ALGORITHM\tHEX" of `hadoop fs -checksum`: 107 bytes at most (a 20-digit
 * CRCs-per-block), with room. */
#define MS_HDFS_VALUE_MAX	128

/*
 * What `hadoop fs -checksum` prints after the path for the raw digest d
 * of spec s (an HDFS row) over a file of size bytes: "MD5-of-0MD5-of-
 * 512CRC32C\t0000020000000000...", "COMPOSITE-CRC32C\t1a2b3c4d", or for
 * an empty file, which HDFS answers the same in either mode, its fixed
 * "MD5-of-0MD5-of-0CRC32\t000000000000000000000000<md5>".
 */
void	 ms_hdfs_value(const struct ms_digest_spec *s, const unsigned char *d,
	    uint64_t size, char buf[MS_HDFS_VALUE_MAX]);

/*
 * The other way: ALGORITHM (alg, n bytes) and HEX (hex, hn bytes) of a
 * `hadoop fs -checksum` line.  Returns 1 with the spec (its parameters
 * from the bytes: bytes per CRC, and CRCs per block times that for a
 * file of several blocks) and the digest in out[*len], 0 if alg is no
 * HDFS algorithm name, -1 if it is one this build cannot verify (*why
 * says which) or hex is not its digest.
 */
int	 ms_hdfs_decode(const char *alg, size_t n, const char *hex, size_t hn,
	    struct ms_digest_spec *spec, unsigned char *out, size_t *len,
	    const char **why);

#endif

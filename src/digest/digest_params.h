/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * digest_params.h - the per-run parameters of a digest (a key, a
 * context, a part size), which travel in its spec (algorithm.h), and
 * reading a key from a file into them.
 */
#ifndef MS_DIGEST_PARAMS_H
#define MS_DIGEST_PARAMS_H

#include <stddef.h>
#include <stdint.h>

/* The longest key a row may take (BLAKE2b's; BLAKE3's is 32 bytes). */
#define MS_KEY_MAX	64

enum ms_key_mode {
	MS_KEY_NONE,		/* the plain hash */
	MS_KEY_KEYED,		/* keyed by key[0, key_len) */
	MS_KEY_DERIVE,		/* BLAKE3's derive_key under context */
};

/*
 * What one run asks of a digest beside its row and length: the command
 * line's --part-size, --key-file, --keyed, --derive-key, --bytes-per-crc,
 * --block-size and, for btih, --piece-size and --private.  A row
 * takes only the parameters its params field names (MS_PARAM_*), and
 * those alone are set in its specs, the others zero, so that two specs
 * of a row differ exactly where the row would compute differently; zero
 * is the row's default.  A keyed BLAKE2 is its row with MS_PARAM_KEY
 * and a backend that reads key; a seeded xxh3 is its row with a new
 * MS_PARAM_SEED and one field here, uint64_t seed.
 */
struct ms_digest_params {
	uint64_t	 part_size;	/* PART_SIZE: bytes per S3 part, 0: 8 MiB */
	enum ms_key_mode key_mode;	/* KEY: the mode, */
	size_t		 key_len;	/* its key (KEYED), */
	unsigned char	 key[MS_KEY_MAX];
	const char	*context;	/* its context (DERIVE; not owned) */
	uint32_t	 bytes_per_crc;	/* HDFS: bytes per CRC, 0: 512 */
	uint64_t	 block_size;	/* HDFS: bytes per block, 0: 128 MiB;
					   MS_BLOCK_WHOLE: one block */
	uint64_t	 piece_length;	/* BTIH: bytes per piece, 0: RHash's
					   default for the file's size */
	int		 bt_private;	/* BTIH: 1: the info dict's private */
};

/* An HDFS block size that makes any file one block: what a line of
 * `hadoop fs -checksum` for a file of one block implies. */
#define MS_BLOCK_WHOLE	UINT64_MAX

/* The parameters a row takes: bits of its params field. */
enum ms_param {
	MS_PARAM_PART_SIZE = 1 << 0,
	MS_PARAM_KEY = 1 << 1,		/* key_mode, key_len, key, context */
	MS_PARAM_HDFS = 1 << 2,		/* bytes_per_crc, block_size */
	MS_PARAM_BTIH = 1 << 3,		/* piece_length, bt_private */
};

/* The length of the one key a row takes today, BLAKE3's. */
#define MS_KEY_BLAKE3	32

/*
 * Keyed mode with exactly MS_KEY_BLAKE3 bytes read from path (NULL:
 * standard input, as b3sum --keyed); -1 after a message naming it.
 */
int	 ms_params_key_file(struct ms_digest_params *p, const char *path);

#endif

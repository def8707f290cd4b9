/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * blake3.h - BLAKE3, written here from the BLAKE3 paper: the three modes
 * (hash, keyed_hash, derive_key), incremental input in any split, and
 * extendable output of any length.
 *
 * A hasher is a plain struct (no allocation).  The compression of many
 * chunks at once runs at the SIMD level chosen once per process by CPU
 * features (or forced by MULTISUM_BLAKE3_LEVEL); every level gives the
 * same bytes.
 */
#ifndef MS_BLAKE3_H
#define MS_BLAKE3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cpulevel.h"

#define MS_BLAKE3_KEY_LEN	32
#define MS_BLAKE3_OUT_LEN	32
#define MS_BLAKE3_BLOCK_LEN	64
#define MS_BLAKE3_CHUNK_LEN	1024
/* 2^64 bytes are at most 2^54 chunks: one stack entry per level. */
#define MS_BLAKE3_MAX_DEPTH	54

struct ms_blake3 {
	uint32_t	 key[8];	/* IV, the key, or the context key */
	uint64_t	 chunk_counter;	/* index of the open chunk */
	/* The open chunk, not yet compressed: it may be the last. */
	uint8_t		 buf[MS_BLAKE3_CHUNK_LEN];
	uint16_t	 buf_len;
	uint8_t		 flags;		/* the mode's flag, on every compression */
	uint8_t		 stack_len;
	uint8_t		 stack[MS_BLAKE3_MAX_DEPTH][MS_BLAKE3_OUT_LEN];
};

void	 ms_blake3_init(struct ms_blake3 *h);
void	 ms_blake3_init_keyed(struct ms_blake3 *h,
	    const uint8_t key[MS_BLAKE3_KEY_LEN]);
/* derive_key: context is a string that names the application. */
void	 ms_blake3_init_derive_key(struct ms_blake3 *h, const char *context,
	    size_t context_len);
void	 ms_blake3_update(struct ms_blake3 *h, const void *p, size_t n);
/* derive_key in two steps: the context key once, then any number of
 * hashers of key material under it. */
void	 ms_blake3_context_key(const char *context, size_t context_len,
	    uint8_t out[MS_BLAKE3_KEY_LEN]);
void	 ms_blake3_init_derived(struct ms_blake3 *h,
	    const uint8_t context_key[MS_BLAKE3_KEY_LEN]);
/*
 * One input hashed in parts, on several threads: ms_blake3_part gives the
 * chaining value of len bytes at p that start at byte off of the input,
 * under the mode of proto (a hasher just initialised), when len is a
 * power of two from 1 KiB to MS_BLAKE3_PART_MAX, off a multiple of len,
 * and more input follows; ms_blake3_join then feeds it to a hasher that
 * has seen exactly off bytes, in order.
 */
#define MS_BLAKE3_PART_MAX	(16u << 20)
int	 ms_blake3_part_ok(uint64_t off, size_t len);
void	 ms_blake3_part(const struct ms_blake3 *proto, const void *p, size_t len,
	    uint64_t off, uint8_t out[MS_BLAKE3_OUT_LEN]);
void	 ms_blake3_join(struct ms_blake3 *h, const uint8_t cv[MS_BLAKE3_OUT_LEN],
	    uint64_t off, size_t len);
/*
 * The 32-byte digests of cnt whole messages under the mode of proto (a
 * hasher just initialised), their chunks side by side in the lanes of the
 * active SIMD level: done[i] says which were hashed (those of up to 16
 * chunks, and none at the portable level); the rest are the caller's.
 */
void	 ms_blake3_many(const struct ms_blake3 *proto, size_t cnt,
	    const uint8_t *const msg[], const size_t len[], uint8_t *const out[],
	    bool done[]);
/*
 * One input hashed as parts by separate runs (--part): a run hashes the
 * part [off, off + len) with a hasher begun at off (ms_blake3_begin_at,
 * after its init), off a multiple of 1 KiB and of the smallest power of
 * two chunks that holds len, and saves what the hasher holds
 * (ms_blake3_save: the part's subtrees' chaining values and its open
 * chunk, at most MS_BLAKE3_SAVED_MAX bytes); ms_blake3_restore feeds
 * those bytes to a hasher that has seen exactly off bytes, which then
 * holds what one hasher over all the bytes so far would: -1 if they
 * cannot be those of such a part.
 */
#define MS_BLAKE3_SAVED_MAX	(MS_BLAKE3_MAX_DEPTH * MS_BLAKE3_OUT_LEN + \
				    MS_BLAKE3_CHUNK_LEN)
void	 ms_blake3_begin_at(struct ms_blake3 *h, uint64_t off);
size_t	 ms_blake3_save(const struct ms_blake3 *h, uint64_t off, uint8_t *out);
int	 ms_blake3_restore(struct ms_blake3 *h, const uint8_t *saved, size_t n,
	    uint64_t off, uint64_t len);
/* Any length, and the hasher stays usable: more input may follow. */
void	 ms_blake3_final(const struct ms_blake3 *h, uint8_t *out, size_t len);

/*
 * The SIMD levels (portable, sse41, avx2, avx512; neon on aarch64),
 * read through cpulevel.h: the widest this CPU runs is chosen on first
 * use, unless MULTISUM_BLAKE3_LEVEL (or its old name
 * MULTISUM_BLAKE3_SIMD) names another; ms_level_setup reports a name
 * it refuses.
 */
extern struct ms_level_family ms_blake3_levels;

#endif

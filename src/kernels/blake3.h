/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * blake3.h - BLAKE3, written here from the BLAKE3 paper: the three modes
 * (hash, keyed_hash, derive_key), incremental input in any split, and
 * extendable output of any length.
 *
 * A hasher is a plain struct (no allocation).  The compression of many
 * chunks at once runs at the SIMD level chosen once per process by CPU
 * features (or forced by MULTISUM_BLAKE3_SIMD); every level gives the
 * same bytes.
 */
#ifndef MS_BLAKE3_H
#define MS_BLAKE3_H

#include <stddef.h>
#include <stdint.h>

#define MS_BLAKE3_KEY_LEN	32
#define MS_BLAKE3_OUT_LEN	32
#define MS_BLAKE3_BLOCK_LEN	64
#define MS_BLAKE3_CHUNK_LEN	1024
/* 2^64 bytes are at most 2^54 chunks: one stack entry per level. */
#define MS_BLAKE3_MAX_DEPTH	54

enum ms_blake3_simd {
	MS_BLAKE3_PORTABLE,
	MS_BLAKE3_SSE41,
	MS_BLAKE3_AVX2,
	MS_BLAKE3_AVX512,
	MS_BLAKE3_SIMD_COUNT
};

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
/* Any length, and the hasher stays usable: more input may follow. */
void	 ms_blake3_final(const struct ms_blake3 *h, uint8_t *out, size_t len);

/*
 * The SIMD level in use.  It is chosen on first use from the CPU and
 * MULTISUM_BLAKE3_SIMD (portable, sse41, avx2, avx512); ms_blake3_simd_setup
 * returns -1 with *why set if that variable names an unknown level or one
 * this CPU lacks (the choice then stays automatic).
 */
int	 ms_blake3_simd_setup(const char **why);
enum ms_blake3_simd ms_blake3_simd(void);
const char *ms_blake3_simd_name(enum ms_blake3_simd level);
int	 ms_blake3_simd_supported(enum ms_blake3_simd level);
/* Tests force each level in turn; -1 if the CPU lacks it. */
int	 ms_blake3_simd_force(enum ms_blake3_simd level);

#endif

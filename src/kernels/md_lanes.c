/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * md_lanes.c - many whole messages through a lanes kernel (md_kernels.h):
 * MD5, SHA-1, SHA-224 and SHA-256 of a batch of small files side by side.
 *
 * Owns the Merkle-Damgard padding (0x80, zeros, the length in bits, 64
 * bits little-endian for MD5 and big-endian for SHA) and the keeping of
 * the lanes filled: each lane runs one message, its whole blocks where
 * they lie and its last one or two blocks from a padded copy; every call
 * of the kernel runs as many blocks as the lane nearest the end of its
 * part has left, then lanes that finished take the next message, longest
 * first.  When fewer than a quarter of the lanes would still have work,
 * the messages left (those long beside the rest) are not finished here:
 * their done flag stays false, for the caller's one-stream path, which is
 * faster than a kernel running mostly idle lanes.  It reads no byte past
 * any message's end.  Owns too the three families' tables of levels
 * (cpulevel.h), whose x86-64 kernels (md_avx2.c, sha1_shani.c,
 * sha256_shani.c, md_avx512.c) are built on x86-64 hosts only,
 * md_avx512.c unless configure --disable-avx512, and whose aarch64 one
 * (sha_armv8.c) on aarch64 hosts only, and the choice of the built-in
 * one stream (ms_md_stream: MD5's md5_portable.c, the SHA-NI kernels,
 * the ARMv8 SHA ones).
 */
#include "kernels/md_lanes.h"

#include <string.h>

#include "base/bytes.h"
#include "base/cpulevel.h"

#define LANES_MAX	16

const struct ms_md_shape ms_md5_shape = {
	{ 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 }, 4, false,
};
const struct ms_md_shape ms_sha1_shape = {
	{ 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 }, 5, true,
};
const struct ms_md_shape ms_sha224_shape = {
	{ 0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31,
	  0x68581511, 0x64f98fa7, 0xbefa4fa4 }, 7, true,
};
const struct ms_md_shape ms_sha256_shape = {
	{ 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f,
	  0x9b05688c, 0x1f83d9ab, 0x5be0cd19 }, 8, true,
};

/* ------------------------------------------------------------ levels */

/* Level 0 of every family: no lanes (one stream, through libcrypto or,
 * for SHA-256 on SHA-NI, the built-in stream of backend_md.c). */
#define ROW_NONE	{ .name = "libcrypto", .needs = 0,		\
	.kernel = &(const struct ms_md_kernel){ NULL, 0 } },

/* A row of level name_ that needs needs_: fn_, lanes_ lanes; the rows
 * of the x86-64 kernels (md_avx2.c, sha256_shani.c), the AVX-512 ones
 * (md_avx512.c) and the aarch64 ones (sha_armv8.c) are empty where this
 * build has none. */
#define ROW(name_, needs_, fn_, lanes_)	{ .name = name_, .needs = needs_, \
	.kernel = &(const struct ms_md_kernel){ fn_, lanes_ } },
#define NEEDS_AVX2	(MS_CPU(AVX) | MS_CPU(AVX2))
#define NEEDS_SHANI	(MS_CPU(SHA_NI) | MS_CPU(SSSE3) | MS_CPU(SSE41))
#define NEEDS_AVX512	(MS_CPU(AVX512F) | MS_CPU(AVX512BW))
#if MS_SIMD_X86_64
#define ROW_AVX2(fn)	ROW("avx2", NEEDS_AVX2, fn, 8)
#define ROW_SHANI(fn)	ROW("shani", NEEDS_SHANI, fn, 2)
#else
#define ROW_AVX2(fn)
#define ROW_SHANI(fn)
#endif
#if MS_SIMD_AARCH64
#define ROW_ARMV8SHA(fn, needs)	ROW("armv8sha", MS_CPU(needs), fn, 2)
#else
#define ROW_ARMV8SHA(fn, needs)
#endif
#if MS_AVX512
#define ROW_AVX512(fn)	ROW("avx512", NEEDS_AVX512, fn, 16)
#else
#define ROW_AVX512(fn)
#endif

/* Each family's rows, slowest first, in the order they won on the
 * development machine (bench/README.md). */
static const struct ms_level md5_rows[] = {
	ROW_NONE ROW_AVX2(ms_md5_avx2) ROW_AVX512(ms_md5_avx512)
};
static const struct ms_level sha1_rows[] = {
	ROW_NONE ROW_AVX2(ms_sha1_avx2) ROW_ARMV8SHA(ms_sha1_armv8_x2, ARM_SHA1)
	ROW_AVX512(ms_sha1_avx512)
};
static const struct ms_level sha256_rows[] = {
	ROW_NONE ROW_AVX2(ms_sha256_avx2) ROW_SHANI(ms_sha256_shani_x2)
	ROW_ARMV8SHA(ms_sha256_armv8_x2, ARM_SHA2) ROW_AVX512(ms_sha256_avx512)
};

struct ms_level_family ms_md5_levels = MS_LEVEL_FAMILY(
    "MULTISUM_MD5_LEVEL", NULL, md5_rows, "libcrypto", "avx2", "avx512");
struct ms_level_family ms_sha1_levels = MS_LEVEL_FAMILY(
    "MULTISUM_SHA1_LEVEL", NULL, sha1_rows, "libcrypto", "avx2", "armv8sha",
    "avx512");
struct ms_level_family ms_sha256_levels = MS_LEVEL_FAMILY(
    "MULTISUM_SHA256_LEVEL", NULL, sha256_rows, "libcrypto", "avx2",
    "shani", "armv8sha", "avx512");

ms_md_stream_fn *
ms_md_stream(struct ms_level_family *fam, const char **name)
{
	if (ms_level_get(fam) == 0)
		return NULL;	/* libcrypto's level: its stream too */
	if (fam == &ms_md5_levels) {
		*name = "portable";
		return ms_md5_portable;
	}
#if MS_SIMD_X86_64
	if ((ms_cpu_features() & NEEDS_SHANI) == NEEDS_SHANI) {
		*name = "shani";
		return fam == &ms_sha256_levels ? ms_sha256_shani :
		    ms_sha1_shani;
	}
#elif MS_SIMD_AARCH64
	if (ms_cpu_has(fam == &ms_sha256_levels ? MS_CPU_ARM_SHA2 :
	    MS_CPU_ARM_SHA1)) {
		*name = "armv8sha";
		return fam == &ms_sha256_levels ? ms_sha256_armv8 :
		    ms_sha1_armv8;
	}
#endif
	return NULL;
}

/* ------------------------------------------------------------ lanes */

/* A lane: the message it runs, and the part of it the kernel reads next. */
struct lane {
	size_t		 msg;		/* index, or SIZE_MAX while idle */
	const uint8_t	*p;		/* the next block */
	size_t		 left;		/* blocks left in this part */
	bool		 in_tail;	/* the part is the padded copy */
	size_t		 tail_blocks;
	uint8_t		 tail[128];	/* the last bytes, padded */
};

/* Word stores, not bytes shifted one by one: the byte loops were half
 * of this file's time beside the kernels (perf, 20,000 files of 1 KiB,
 * -a md5,sha1,sha256,blake3). */
static void
put32(uint8_t *p, uint32_t v, bool be)
{
	if (be)
		ms_store_be32(p, v);
	else
		ms_store_le32(p, v);
}

/* Lane l starts message i: its state, its whole blocks, its padded tail. */
static void
start(struct lane *l, uint32_t h[8], const struct ms_md_shape *a, size_t i,
    const uint8_t *msg, size_t len)
{
	size_t whole = len / 64, rest = len % 64;
	uint64_t bits = (uint64_t)len * 8;

	memcpy(h, a->iv, sizeof(a->iv));
	l->msg = i;
	l->tail_blocks = rest + 9 > 64 ? 2 : 1;
	memset(l->tail, 0, 64 * l->tail_blocks);
	memcpy(l->tail, msg + whole * 64, rest);
	l->tail[rest] = 0x80;
	if (a->big_endian)
		ms_store_be64(l->tail + 64 * l->tail_blocks - 8, bits);
	else
		ms_store_le64(l->tail + 64 * l->tail_blocks - 8, bits);
	l->in_tail = whole == 0;
	l->p = whole == 0 ? l->tail : msg;
	l->left = whole == 0 ? l->tail_blocks : whole;
}

void
ms_md_lanes(const struct ms_md_shape *a, ms_md_lanes_fn *fn, unsigned lanes,
    size_t cnt, const uint8_t *const msg[], const size_t len[],
    uint8_t *const out[], bool done[])
{
	struct lane lane[LANES_MAX];
	uint32_t h[LANES_MAX][8];
	const uint8_t *in[LANES_MAX];
	size_t order[cnt > 0 ? cnt : 1], next = 0;

	if (lanes > LANES_MAX || lanes == 0)
		lanes = 1;
	/* longest first, so that the lanes tend to finish together */
	for (size_t i = 0; i < cnt; i++) {
		size_t j = i;

		done[i] = false;
		for (; j > 0 && len[order[j - 1]] < len[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (unsigned j = 0; j < lanes; j++) {
		lane[j].msg = SIZE_MAX;
		if (next < cnt) {
			size_t i = order[next++];

			start(&lane[j], h[j], a, i, msg[i], len[i]);
		}
	}
	for (;;) {
		unsigned active = 0, first = 0;
		size_t k = SIZE_MAX;

		for (unsigned j = lanes; j-- > 0;)
			if (lane[j].msg != SIZE_MAX) {
				active++;
				first = j;
				if (lane[j].left < k)
					k = lane[j].left;
			}
		if (active == 0 || (next == cnt && active * 4 < lanes))
			return;
		/* idle lanes read an active lane's blocks; their state is
		 * thrown away */
		for (unsigned j = 0; j < lanes; j++)
			in[j] = lane[j].msg != SIZE_MAX ? lane[j].p : lane[first].p;
		fn(h, in, k);
		for (unsigned j = 0; j < lanes; j++) {
			struct lane *l = &lane[j];

			if (l->msg == SIZE_MAX)
				continue;
			l->p += 64 * k;
			l->left -= k;
			if (l->left > 0)
				continue;
			if (!l->in_tail) {
				l->in_tail = true;
				l->p = l->tail;
				l->left = l->tail_blocks;
				continue;
			}
			for (unsigned w = 0; w < a->out_words; w++)
				put32(out[l->msg] + 4 * w, h[j][w], a->big_endian);
			done[l->msg] = true;
			l->msg = SIZE_MAX;
			if (next < cnt) {
				size_t i = order[next++];

				start(l, h[j], a, i, msg[i], len[i]);
			}
		}
	}
}

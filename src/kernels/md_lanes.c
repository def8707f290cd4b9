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
 * any message's end.
 */
#include "kernels/md_lanes.h"

#include <cpuid.h>
#include <pthread.h>
#include <string.h>

#include "base/cpulevel.h"

#define LANES_MAX	16

const uint32_t ms_md5_k[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a,
	0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
	0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340,
	0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8,
	0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
	0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
	0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92,
	0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
	0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

const uint32_t ms_sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

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

enum { L_NONE, L_AVX2, L_SHANI, L_AVX512, L_COUNT };

static const char *const level_names[L_COUNT] = {
	"libcrypto", "avx2", "shani", "avx512",
};

static const struct {
	const char	*var;
	struct ms_md_kernel kernel[L_COUNT];	/* fn NULL: not a level */
} family[MS_MD_FAMILIES] = {
	[MS_MD_MD5] = { "MULTISUM_MD5_LEVEL", {
	    [L_AVX2] = { ms_md5_avx2, 8 }, [L_AVX512] = { ms_md5_avx512, 16 } } },
	[MS_MD_SHA1] = { "MULTISUM_SHA1_LEVEL", {
	    [L_AVX2] = { ms_sha1_avx2, 8 }, [L_AVX512] = { ms_sha1_avx512, 16 } } },
	[MS_MD_SHA256] = { "MULTISUM_SHA256_LEVEL", {
	    [L_AVX2] = { ms_sha256_avx2, 8 }, [L_SHANI] = { ms_sha256_shani_x2, 2 },
	    [L_AVX512] = { ms_sha256_avx512, 16 } } },
};

static unsigned chosen[MS_MD_FAMILIES];
static char refusal[MS_MD_FAMILIES][160];
static bool sha_ni;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static bool
cpu_runs(unsigned l)
{
	switch (l) {
	case L_NONE:
		return true;
	case L_AVX2:
		return __builtin_cpu_supports("avx2");
	case L_SHANI: {
		/* CPUID leaf 7, EBX bit 29 (clang knows no "sha" here) */
		unsigned a, b, c, d;

		return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b >> 29 & 1) &&
		    __builtin_cpu_supports("sse4.1");
	}
	case L_AVX512:
		return __builtin_cpu_supports("avx512f") &&
		    __builtin_cpu_supports("avx512bw");
	}
	return false;
}

/* A family's levels as cpulevel.c's rule sees them: the rows it has. */
static void
choose(void)
{
	__builtin_cpu_init();
	sha_ni = cpu_runs(L_SHANI);
	for (unsigned f = 0; f < MS_MD_FAMILIES; f++) {
		const char *names[L_COUNT];
		unsigned map[L_COUNT], n = 0;
		struct ms_levels lv = { .env = family[f].var, .names = names };

		for (unsigned l = 0; l < L_COUNT; l++)
			if (l == L_NONE || family[f].kernel[l].fn != NULL) {
				if (cpu_runs(l))
					lv.cpu |= 1u << n;
				map[n] = l;
				names[n++] = level_names[l];
			}
		lv.count = n;
		chosen[f] = map[ms_level_choose(&lv, refusal[f],
		    sizeof(refusal[f]))];
	}
}

const struct ms_md_kernel *
ms_md_kernel(enum ms_md_family f)
{
	pthread_once(&once, choose);
	return &family[f].kernel[chosen[f]];
}

const char *
ms_md_level_name(enum ms_md_family f)
{
	pthread_once(&once, choose);
	return level_names[chosen[f]];
}

int
ms_md_level_setup(enum ms_md_family f, const char **why)
{
	pthread_once(&once, choose);
	*why = refusal[f];
	return refusal[f][0] != '\0' ? -1 : 0;
}

int
ms_md_level_force(enum ms_md_family f, const char *name)
{
	pthread_once(&once, choose);
	for (unsigned l = 0; l < L_COUNT; l++)
		if (strcmp(name, level_names[l]) == 0 &&
		    (l == L_NONE || family[f].kernel[l].fn != NULL) &&
		    cpu_runs(l)) {
			chosen[f] = l;
			return 0;
		}
	return -1;
}

bool
ms_md_sha256_shani(void)
{
	pthread_once(&once, choose);
	return sha_ni && chosen[MS_MD_SHA256] != L_NONE;
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

static void
put32(uint8_t *p, uint32_t v, bool be)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (be ? 24 - 8 * i : 8 * i));
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
	memset(l->tail, 0, sizeof(l->tail));
	memcpy(l->tail, msg + whole * 64, rest);
	l->tail[rest] = 0x80;
	for (int b = 0; b < 8; b++)
		l->tail[64 * l->tail_blocks - 8 + b] = (uint8_t)(bits >>
		    (a->big_endian ? 56 - 8 * b : 8 * b));
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

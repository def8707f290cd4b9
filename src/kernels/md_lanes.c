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

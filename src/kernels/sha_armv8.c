/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * sha_armv8.c - SHA-1's and SHA-256's compressions (FIPS 180-4, 6.1.2 and
 * 6.2.2) with the ARMv8 Cryptography Extensions: sha1c, sha1p and sha1m
 * do four rounds of each function on A..D (one register, A in lane 0)
 * with E apart, sha1h gives the next E; sha256h and sha256h2 do four
 * rounds on ABCD and EFGH; sha1su0/sha1su1 and sha256su0/sha256su1 make
 * the schedule four words at a time.  Both in one file: the same
 * extension (clang's "sha2", gcc's "+crypto"), the same shim over them.
 *
 * Owns one stream of each, and two streams side by side (md_lanes.c's
 * LANES 2, as sha256_shani.c on x86-64): a round waits for the one before
 * it, so a second, independent stream fills the gaps.  The state is the
 * words of the specification, in and out; blocks are whole 64-byte
 * blocks, padded by the caller.  Built on aarch64 only; md_lanes.c calls
 * them only where AT_HWCAP has HWCAP_SHA1 (SHA-1) or HWCAP_SHA2 (SHA-256).
 */
#include "kernels/md_kernels.h"

#include <arm_neon.h>

/*
 * gcc's arm_neon.h declares the crypto intrinsics for any target (under
 * its own "+crypto" pragma, which our functions must match to inline
 * them), clang 14's only when the whole file is built for +sha2 (later
 * clangs give each its target attribute): there, its builtins, called
 * from our own "sha2" functions, as crc_armv8.c does.
 */
#if defined(__clang__) && !defined(__ARM_FEATURE_SHA2)
#define TARGET		__attribute__((target("sha2")))
#define V8(x)		((int8x16_t)(x))
#define SHA1C(a, e, w)	__builtin_neon_vsha1cq_u32(a, e, w)
#define SHA1P(a, e, w)	__builtin_neon_vsha1pq_u32(a, e, w)
#define SHA1M(a, e, w)	__builtin_neon_vsha1mq_u32(a, e, w)
#define SHA1H(a)	__builtin_neon_vsha1h_u32(a)
#define SHA1SU0(a, b, c) \
	((uint32x4_t)__builtin_neon_vsha1su0q_v(V8(a), V8(b), V8(c), 50))
#define SHA1SU1(a, b)	((uint32x4_t)__builtin_neon_vsha1su1q_v(V8(a), V8(b), 50))
#define SHA256H(a, e, w) \
	((uint32x4_t)__builtin_neon_vsha256hq_v(V8(a), V8(e), V8(w), 50))
#define SHA256H2(e, a, w) \
	((uint32x4_t)__builtin_neon_vsha256h2q_v(V8(e), V8(a), V8(w), 50))
#define SHA256SU0(a, b) \
	((uint32x4_t)__builtin_neon_vsha256su0q_v(V8(a), V8(b), 50))
#define SHA256SU1(a, b, c) \
	((uint32x4_t)__builtin_neon_vsha256su1q_v(V8(a), V8(b), V8(c), 50))
#else
#define TARGET		__attribute__((target("+crypto")))
#define SHA1C		vsha1cq_u32
#define SHA1P		vsha1pq_u32
#define SHA1M		vsha1mq_u32
#define SHA1H		vsha1h_u32
#define SHA1SU0		vsha1su0q_u32
#define SHA1SU1		vsha1su1q_u32
#define SHA256H		vsha256hq_u32
#define SHA256H2	vsha256h2q_u32
#define SHA256SU0	vsha256su0q_u32
#define SHA256SU1	vsha256su1q_u32
#endif

#define INLINE	static inline __attribute__((always_inline)) TARGET

/* The 16 bytes at p as four big-endian words. */
INLINE uint32x4_t
load_be(const uint8_t *p)
{
	return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p)));
}

/* -------------------------------------------------------------- SHA-1 */

/* The 20 quads whole: the ifs and g / 5 fold, the groups stay in
 * registers (MS_MD_UNROLL's 16 would leave a loop over memory). */
#define SHA1_UNROLL	_Pragma("GCC unroll 20")

/* One SHA-1 stream: A..D, E, the block's starting state, the four
 * message groups in flight. */
struct sha1 {
	uint32x4_t	 abcd, save_abcd, w[4];
	uint32_t	 e, save_e;
	const uint8_t	*p;
};

INLINE void
sha1_block(struct sha1 *s)
{
	MS_MD_UNROLL
	for (int g = 0; g < 4; g++)
		s->w[g] = load_be(s->p + 16 * g);
	s->save_abcd = s->abcd;
	s->save_e = s->e;
}

/*
 * Rounds 4g .. 4g + 3 on group g (register g % 4): E of the next quad
 * is A of this one rotated (sha1h); then group g + 4 is made in the
 * register g's words leave free.
 */
INLINE void
sha1_quad(struct sha1 *s, int g)
{
	uint32x4_t *w = s->w;
	uint32x4_t wk = vaddq_u32(w[g & 3], vdupq_n_u32(ms_sha1_k[g / 5]));
	uint32_t e = SHA1H(vgetq_lane_u32(s->abcd, 0));

	if (g < 5)
		s->abcd = SHA1C(s->abcd, s->e, wk);
	else if (g < 10 || g >= 15)
		s->abcd = SHA1P(s->abcd, s->e, wk);
	else
		s->abcd = SHA1M(s->abcd, s->e, wk);
	s->e = e;
	if (g < 16)
		w[g & 3] = SHA1SU1(SHA1SU0(w[g & 3], w[(g + 1) & 3],
		    w[(g + 2) & 3]), w[(g + 3) & 3]);
}

INLINE void
sha1_finish(struct sha1 *s)
{
	s->abcd = vaddq_u32(s->abcd, s->save_abcd);
	s->e += s->save_e;
	s->p += 64;
}

TARGET void
ms_sha1_armv8(uint32_t h[8], const uint8_t *p, size_t blocks)
{
	struct sha1 s = { .abcd = vld1q_u32(h), .e = h[4], .p = p };

	while (blocks-- > 0) {
		sha1_block(&s);
		SHA1_UNROLL
		for (int g = 0; g < 20; g++)
			sha1_quad(&s, g);
		sha1_finish(&s);
	}
	vst1q_u32(h, s.abcd);
	h[4] = s.e;
}

/* Two streams of as many blocks, each quad of one beside the other's. */
TARGET void
ms_sha1_armv8_x2(uint32_t (*h)[8], const uint8_t *const in[], size_t blocks)
{
	struct sha1 a = { .abcd = vld1q_u32(h[0]), .e = h[0][4], .p = in[0] };
	struct sha1 b = { .abcd = vld1q_u32(h[1]), .e = h[1][4], .p = in[1] };

	while (blocks-- > 0) {
		sha1_block(&a);
		sha1_block(&b);
		SHA1_UNROLL
		for (int g = 0; g < 20; g++) {
			sha1_quad(&a, g);
			sha1_quad(&b, g);
		}
		sha1_finish(&a);
		sha1_finish(&b);
	}
	vst1q_u32(h[0], a.abcd);
	h[0][4] = a.e;
	vst1q_u32(h[1], b.abcd);
	h[1][4] = b.e;
}

/* ------------------------------------------------------------ SHA-256 */

/* One SHA-256 stream: the state halves, the block's starting state, the
 * four message groups in flight. */
struct sha256 {
	uint32x4_t	 abcd, efgh, save_abcd, save_efgh, w[4];
	const uint8_t	*p;
};

INLINE void
sha256_block(struct sha256 *s)
{
	MS_MD_UNROLL
	for (int g = 0; g < 4; g++)
		s->w[g] = load_be(s->p + 16 * g);
	s->save_abcd = s->abcd;
	s->save_efgh = s->efgh;
}

/*
 * Rounds 4g .. 4g + 3 on group g (register g % 4): sha256h makes the new
 * ABCD and sha256h2 the new EFGH, both from the ABCD before; then group
 * g + 4 is made in the register g's words leave free.
 */
INLINE void
sha256_quad(struct sha256 *s, int g)
{
	uint32x4_t *w = s->w;
	uint32x4_t wk = vaddq_u32(w[g & 3], vld1q_u32(ms_sha256_k + 4 * g));
	uint32x4_t abcd = s->abcd;

	s->abcd = SHA256H(abcd, s->efgh, wk);
	s->efgh = SHA256H2(s->efgh, abcd, wk);
	if (g < 12)
		w[g & 3] = SHA256SU1(SHA256SU0(w[g & 3], w[(g + 1) & 3]),
		    w[(g + 2) & 3], w[(g + 3) & 3]);
}

INLINE void
sha256_finish(struct sha256 *s)
{
	s->abcd = vaddq_u32(s->abcd, s->save_abcd);
	s->efgh = vaddq_u32(s->efgh, s->save_efgh);
	s->p += 64;
}

TARGET void
ms_sha256_armv8(uint32_t h[8], const uint8_t *p, size_t blocks)
{
	struct sha256 s = { .abcd = vld1q_u32(h), .efgh = vld1q_u32(h + 4),
	    .p = p };

	while (blocks-- > 0) {
		sha256_block(&s);
		MS_MD_UNROLL
		for (int g = 0; g < 16; g++)
			sha256_quad(&s, g);
		sha256_finish(&s);
	}
	vst1q_u32(h, s.abcd);
	vst1q_u32(h + 4, s.efgh);
}

/* Two streams of as many blocks, each quad of one beside the other's. */
TARGET void
ms_sha256_armv8_x2(uint32_t (*h)[8], const uint8_t *const in[],
    size_t blocks)
{
	struct sha256 a = { .abcd = vld1q_u32(h[0]),
	    .efgh = vld1q_u32(h[0] + 4), .p = in[0] };
	struct sha256 b = { .abcd = vld1q_u32(h[1]),
	    .efgh = vld1q_u32(h[1] + 4), .p = in[1] };

	while (blocks-- > 0) {
		sha256_block(&a);
		sha256_block(&b);
		MS_MD_UNROLL
		for (int g = 0; g < 16; g++) {
			sha256_quad(&a, g);
			sha256_quad(&b, g);
		}
		sha256_finish(&a);
		sha256_finish(&b);
	}
	vst1q_u32(h[0], a.abcd);
	vst1q_u32(h[0] + 4, a.efgh);
	vst1q_u32(h[1], b.abcd);
	vst1q_u32(h[1] + 4, b.efgh);
}

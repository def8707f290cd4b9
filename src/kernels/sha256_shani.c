/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * sha256_shani.c - SHA-256's compression (FIPS 180-4, 6.2.2) with the SHA
 * extensions: sha256rnds2 does two rounds, sha256msg1 and sha256msg2 the
 * message schedule, on the state kept as the instructions want it (ABEF
 * and CDGH).  One stream, and two streams side by side: a round waits
 * for the one before it (the chain of sha256rnds2 is the whole cost), so
 * a second, independent stream fills the gaps (md_lanes.c hands it two
 * files at once).  The state is the eight words of the specification, in
 * and out; blocks are whole 64-byte blocks, padded by the caller.
 */
#include "kernels/md_kernels.h"

#include <immintrin.h>

#define TARGET	__attribute__((target("sha,sse4.1")))

/* One stream's registers: the state halves, the saved state of the block,
 * the four message groups in flight. */
struct stream {
	__m128i	 abef, cdgh, save_abef, save_cdgh;
	__m128i	 w[4];
	const uint8_t *p;
};

static inline __attribute__((always_inline)) TARGET void
load_state(struct stream *s, const uint32_t h[8])
{
	__m128i dcba = _mm_loadu_si128((const __m128i *)h);	/* A..D */
	__m128i hgfe = _mm_loadu_si128((const __m128i *)(h + 4));	/* E..H */
	__m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
	__m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);

	s->abef = _mm_alignr_epi8(cdab, efgh, 8);
	s->cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
}

static inline __attribute__((always_inline)) TARGET void
store_state(const struct stream *s, uint32_t h[8])
{
	__m128i feba = _mm_shuffle_epi32(s->abef, 0x1B);
	__m128i dchg = _mm_shuffle_epi32(s->cdgh, 0xB1);

	_mm_storeu_si128((__m128i *)h, _mm_blend_epi16(feba, dchg, 0xF0));
	_mm_storeu_si128((__m128i *)(h + 4), _mm_alignr_epi8(dchg, feba, 8));
}

/* The block's 16 words, big-endian, into the four groups. */
static inline __attribute__((always_inline)) TARGET void
load_block(struct stream *s)
{
	const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL,
	    0x0405060700010203ULL);

	for (int g = 0; g < 4; g++)
		s->w[g] = _mm_shuffle_epi8(_mm_loadu_si128(
		    (const __m128i *)(s->p + 16 * g)), swap);
	s->save_abef = s->abef;
	s->save_cdgh = s->cdgh;
}

/*
 * Rounds 4g .. 4g + 3 on group g of the schedule (register g % 4), with
 * the schedule run ahead: group g + 1 is finished here (for g >= 3, from
 * msg1 of group g - 3, words g - 1 and g, and msg2), and msg1 of group
 * g - 1 started, for group g + 3.
 */
static inline __attribute__((always_inline)) TARGET void
quad(struct stream *s, int g)
{
	__m128i *w = s->w;
	__m128i m = _mm_add_epi32(w[g & 3],
	    _mm_loadu_si128((const __m128i *)(ms_sha256_k + 4 * g)));

	s->cdgh = _mm_sha256rnds2_epu32(s->cdgh, s->abef, m);
	if (g >= 3 && g <= 14) {
		__m128i t = _mm_alignr_epi8(w[g & 3], w[(g - 1) & 3], 4);

		w[(g + 1) & 3] = _mm_sha256msg2_epu32(
		    _mm_add_epi32(w[(g + 1) & 3], t), w[g & 3]);
	}
	s->abef = _mm_sha256rnds2_epu32(s->abef, s->cdgh,
	    _mm_shuffle_epi32(m, 0x0E));
	if (g >= 1 && g <= 12)
		w[(g - 1) & 3] = _mm_sha256msg1_epu32(w[(g - 1) & 3], w[g & 3]);
}

static inline __attribute__((always_inline)) TARGET void
finish_block(struct stream *s)
{
	s->abef = _mm_add_epi32(s->abef, s->save_abef);
	s->cdgh = _mm_add_epi32(s->cdgh, s->save_cdgh);
	s->p += 64;
}

TARGET void
ms_sha256_shani(uint32_t h[8], const uint8_t *p, size_t blocks)
{
	struct stream s;

	load_state(&s, h);
	s.p = p;
	while (blocks-- > 0) {
		load_block(&s);
		MS_MD_UNROLL
		for (int g = 0; g < 16; g++)
			quad(&s, g);
		finish_block(&s);
	}
	store_state(&s, h);
}

/* Two streams of as many blocks, each round of one beside the other's. */
TARGET void
ms_sha256_shani_x2(uint32_t (*h)[8], const uint8_t *const in[], size_t blocks)
{
	struct stream a, b;

	load_state(&a, h[0]);
	load_state(&b, h[1]);
	a.p = in[0];
	b.p = in[1];
	while (blocks-- > 0) {
		load_block(&a);
		load_block(&b);
		MS_MD_UNROLL
		for (int g = 0; g < 16; g++) {
			quad(&a, g);
			quad(&b, g);
		}
		finish_block(&a);
		finish_block(&b);
	}
	store_state(&a, h[0]);
	store_state(&b, h[1]);
}

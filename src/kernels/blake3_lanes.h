/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * blake3_lanes.h - the one body of every SIMD level's compression of
 * chunks of different messages side by side (BLAKE3 across files),
 * included by blake3_sse41.c, blake3_avx2.c, blake3_avx512.c and
 * blake3_neon.c after blake3_simd.h, whose operations and rounds it uses, once they define:
 *
 *   ROWS(rows, m)      word i of the block at rows[j] into lane j of m[i]
 *                      (simd_rows.h: natural lane order)
 *   BLEND(k, a, b)     lane by lane, a where k is all ones, else b
 *   LANES              this level's function
 *
 * Unlike blake3_simd.h's MANY, where every input has the same blocks, the
 * counter, the block length and the flags differ from lane to lane, and a
 * lane whose chunk is shorter keeps its chaining value while the others
 * go on.  Groups are of DEGREE lanes; a short last group repeats its last
 * lane in the spare ones, which are not stored.
 */

static inline __attribute__((always_inline)) TARGET void
lanes_group(const struct ms_b3_lane *l, size_t lanes, const uint32_t key[8],
    uint8_t flags, uint8_t *out)
{
	VEC h[8], m[16], ctr_lo, ctr_hi;
	uint32_t lo[DEGREE], hi[DEGREE], t[8][DEGREE];
	size_t most = 0;

	for (size_t j = 0; j < DEGREE; j++) {
		const struct ms_b3_lane *x = &l[ms_b3_row(j, lanes)];

		lo[j] = (uint32_t)x->counter;
		hi[j] = (uint32_t)(x->counter >> 32);
		if (x->blocks > most)
			most = x->blocks;
	}
	ctr_lo = LOADU(lo);
	ctr_hi = LOADU(hi);
	MS_B3_UNROLL
	for (int i = 0; i < 8; i++)
		h[i] = SET1((int)key[i]);
	for (size_t b = 0; b < most; b++) {
		const uint8_t *rows[DEGREE];
		uint32_t len[DEGREE], fl[DEGREE], live[DEGREE];
		VEC keep, o[8];

		for (size_t j = 0; j < DEGREE; j++) {
			const struct ms_b3_lane *x = &l[ms_b3_row(j, lanes)];
			bool last = b + 1 >= x->blocks;

			rows[j] = last ? x->last : x->p + 64 * b;
			len[j] = last ? x->last_len : 64;
			fl[j] = flags | (b == 0 ? x->start : 0) |
			    (last ? x->end : 0);
			live[j] = b < x->blocks ? UINT32_MAX : 0;
		}
		ROWS(rows, m);
		keep = LOADU(live);
		VCOMPRESS(o, ctr_lo, ctr_hi, LOADU(len), LOADU(fl));
		MS_B3_UNROLL
		for (int i = 0; i < 8; i++)
			h[i] = BLEND(keep, o[i], h[i]);
	}
	MS_B3_UNROLL
	for (int i = 0; i < 8; i++)
		STOREU(t[i], h[i]);
	for (size_t j = 0; j < lanes; j++)
		for (int i = 0; i < 8; i++)
			store32(out + 32 * j + 4 * i, t[i][j]);
}

TARGET void
LANES(const struct ms_b3_lane *l, size_t cnt, const uint32_t key[8],
    uint8_t flags, uint8_t *out)
{
	while (cnt > 0) {
		size_t lanes = cnt < DEGREE ? cnt : DEGREE;

		lanes_group(l, lanes, key, flags, out);
		l += lanes;
		out += 32 * lanes;
		cnt -= lanes;
	}
}

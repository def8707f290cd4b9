/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * blake3_simd.h - the one body of every SIMD level's many-input
 * compression, included once by each of blake3_sse41.c, blake3_avx2.c,
 * blake3_avx512.c and blake3_neon.c after they define:
 *
 *   VEC, DEGREE        the vector type and how many 32-bit lanes it has
 *   TARGET             the target attribute of every function in the file
 *   ADD XOR SET1 LOADU STOREU ROT16 ROT12 ROT8 ROT7   lane-wise operations
 *   LANE(j)            the input that lane j of the vectors holds
 *   LANE_IDS           the vector of LANE(j) in lane j
 *   MSG_IN_MEMORY      1 if the message must stay out of the registers
 *   load_msg(p, stride, lanes, m, half)   words 8 * half .. 8 * half + 7
 *                      of the block at p + ms_b3_row(i, lanes) * stride
 *                      of input i into m[w], lane by LANE
 *   UNPACKLO32 UNPACKHI32 UNPACKLO64 UNPACKHI64   the in-lane unpacks
 *   store_rows(out, f, lanes)   with f[4w + c] words 4w..4w+3 of lane
 *                      4k + c in 128-bit lane k, the 32 bytes of lane j
 *                      to out + 32 * LANE(j) for LANE(j) < lanes
 *                      (the 128-bit levels': blake3_transpose.h)
 *   MANY, NEXT         this level's function and the one taking the rest
 *
 * or, instead of the rotations, COMPRESS_ASM(out, h, tail, m): all of
 * VCOMPRESS below in the level's own asm, h, tail (v[12..15]), m and out
 * arrays of vectors in memory.
 *
 * The inputs are compressed side by side, one block of each per step,
 * exactly as the portable code does one by one.  A last group of more
 * than DEGREE / 2 inputs (of parents: any) still takes the full width
 * (the spare lanes repeat the last input and are not stored); fewer go
 * to the next narrower level.
 *
 * The speed is the number of vector operations per block and how well
 * the core overlaps them, so the order of the source is the order the
 * work should issue in: the message of a block is transposed half by
 * half (the first round needs words 0..7 first), and each quarter round
 * runs on its four columns or diagonals one operation at a time.
 */

/*
 * G on four columns (or diagonals) at once, each operation done for all
 * four before the next, so that four independent chains are in flight.
 * The message word is added first, as it is ready long before b; the
 * empty asm keeps gcc from reassociating that sum back onto b's chain.
 * The volatile one at the end stops gcc's late scheduler from moving
 * operations across quarter rounds, which cost it 2 to 6% here.
 */
#ifdef __aarch64__
#define KEEP(x)		__asm__("" : "+w"(x))	/* any SIMD register */
#else
#define KEEP(x)		__asm__("" : "+v"(x))
#endif
#define FENCE()		__asm__ volatile("")
/*
 * With 16 vector registers the state takes them all: the message then
 * lives in memory, and an asm that may read and write it makes every
 * round load its words afresh, each straight into its add, instead of
 * the compiler spilling state and message alike (10% on AVX2, 5% on
 * SSE4.1 with gcc; with 32 registers it costs 3%).
 */
#define MSG_SPILL(m) do {						\
	if (MSG_IN_MEMORY)						\
		__asm__ volatile("" : : "r"(m) : "memory");		\
} while (0)

#define VG4(a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3,		\
    d0, d1, d2, d3, x0, x1, x2, x3, ROTD, ROTB) do {			\
	v[a0] = ADD(v[a0], x0); v[a1] = ADD(v[a1], x1);			\
	v[a2] = ADD(v[a2], x2); v[a3] = ADD(v[a3], x3);			\
	KEEP(v[a0]); KEEP(v[a1]); KEEP(v[a2]); KEEP(v[a3]);		\
	v[a0] = ADD(v[a0], v[b0]); v[a1] = ADD(v[a1], v[b1]);		\
	v[a2] = ADD(v[a2], v[b2]); v[a3] = ADD(v[a3], v[b3]);		\
	v[d0] = ROTD(XOR(v[d0], v[a0])); v[d1] = ROTD(XOR(v[d1], v[a1])); \
	v[d2] = ROTD(XOR(v[d2], v[a2])); v[d3] = ROTD(XOR(v[d3], v[a3])); \
	v[c0] = ADD(v[c0], v[d0]); v[c1] = ADD(v[c1], v[d1]);		\
	v[c2] = ADD(v[c2], v[d2]); v[c3] = ADD(v[c3], v[d3]);		\
	v[b0] = ROTB(XOR(v[b0], v[c0])); v[b1] = ROTB(XOR(v[b1], v[c1])); \
	v[b2] = ROTB(XOR(v[b2], v[c2])); v[b3] = ROTB(XOR(v[b3], v[c3])); \
	FENCE();							\
} while (0)

/* Half a round: G on (a, b, c, d), words s[i], s[i + 2], ... first. */
#define VHALF(a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3,		\
    d0, d1, d2, d3, i) do {						\
	VG4(a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3,		\
	    d0, d1, d2, d3, m[s[i]], m[s[i + 2]], m[s[i + 4]],		\
	    m[s[i + 6]], ROT16, ROT12);					\
	VG4(a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3,		\
	    d0, d1, d2, d3, m[s[i + 1]], m[s[i + 3]], m[s[i + 5]],	\
	    m[s[i + 7]], ROT8, ROT7);					\
} while (0)

/* Round r on the state v with the message m. */
#define VROUND(r) do {							\
	const uint8_t *s = ms_b3_schedule[r];				\
									\
	VHALF(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0);	\
	VHALF(0, 1, 2, 3, 5, 6, 7, 4, 10, 11, 8, 9, 15, 12, 13, 14, 8);	\
} while (0)

/*
 * One compression of every lane (blake3_lanes.h's too): v from the
 * chaining values h, the IV, the counters, block lengths and flags, the
 * seven rounds; the new chaining values are v[i] ^ v[i + 8], into out
 * (which may be h).  A level may do all of it in its own
 * COMPRESS_ASM(out, h, tail, m), tail the last four words of v.
 */
#ifdef COMPRESS_ASM
#define VCOMPRESS(out, ctr_lo, ctr_hi, len, fl) do {			\
	VEC t4_[4] = { (ctr_lo), (ctr_hi), (len), (fl) };		\
									\
	COMPRESS_ASM(out, h, t4_, m);					\
} while (0)
#else
#define VCOMPRESS(out, ctr_lo, ctr_hi, len, fl) do {			\
	VEC v[16];							\
									\
	MS_B3_UNROLL							\
	for (int i_ = 0; i_ < 8; i_++)					\
		v[i_] = h[i_];						\
	MS_B3_UNROLL							\
	for (int i_ = 0; i_ < 4; i_++)					\
		v[8 + i_] = SET1((int)ms_b3_iv[i_]);			\
	v[12] = (ctr_lo);						\
	v[13] = (ctr_hi);						\
	v[14] = (len);							\
	v[15] = (fl);							\
	VROUND(0); MSG_SPILL(m); VROUND(1); MSG_SPILL(m);		\
	VROUND(2); MSG_SPILL(m); VROUND(3); MSG_SPILL(m);		\
	VROUND(4); MSG_SPILL(m); VROUND(5); MSG_SPILL(m);		\
	VROUND(6);							\
	MS_B3_UNROLL							\
	for (int i_ = 0; i_ < 8; i_++)					\
		(out)[i_] = XOR(v[i_], v[i_ + 8]);			\
} while (0)
#endif

/*
 * The chaining values of the lanes, words h[0..7], out: 4x4 transposes
 * inside the 128-bit lanes, then the level's own store.  x86 and the
 * aarch64 builds are little-endian, so lane words are the output bytes.
 */
static inline __attribute__((always_inline)) TARGET void
store_cv(uint8_t *out, const VEC h[8], size_t lanes)
{
	VEC e[8], f[8];

	/* e[2i], e[2i + 1]: words 2i, 2i + 1 of lanes 4k, 4k + 1 and of
	 * lanes 4k + 2, 4k + 3, in 128-bit lane k */
	MS_B3_UNROLL
	for (int i = 0; i < 4; i++) {
		e[2 * i] = UNPACKLO32(h[2 * i], h[2 * i + 1]);
		e[2 * i + 1] = UNPACKHI32(h[2 * i], h[2 * i + 1]);
	}
	MS_B3_UNROLL
	for (int w = 0; w < 2; w++)
		MS_B3_UNROLL
		for (int hl = 0; hl < 2; hl++) {
			f[4 * w + 2 * hl] = UNPACKLO64(e[4 * w + hl],
			    e[4 * w + 2 + hl]);
			f[4 * w + 2 * hl + 1] = UNPACKHI64(e[4 * w + hl],
			    e[4 * w + 2 + hl]);
		}
	store_rows(out, f, lanes);
}

/*
 * One group of DEGREE lanes, lane j on input LANE(j) at
 * in + LANE(j) * stride (the last input for the spare lanes when lanes
 * is short).  Inlined with constants for the hot shapes, so that the
 * loads address one base register with displacements.
 */
static inline __attribute__((always_inline)) TARGET void
group(const uint8_t *in, size_t stride, size_t lanes, size_t blocks,
    const uint32_t key[8], uint64_t counter, int inc, uint8_t flags,
    uint8_t flags_start, uint8_t flags_end, uint8_t *out)
{
	VEC h[8], m[16];
	VEC ctr_lo = SET1((int)(uint32_t)counter);
	VEC ctr_hi = SET1((int)(uint32_t)(counter >> 32));

	/* Vectors of the counters, built in registers: a store of each lane
	 * and a wide load back stalls on store forwarding at the head of
	 * every group, a tenth of a parent group's time. */
	if (inc && (uint32_t)counter <= UINT32_MAX - DEGREE)
		ctr_lo = ADD(ctr_lo, LANE_IDS);
	else if (inc) {
		uint32_t lo[DEGREE], hi[DEGREE];

		for (size_t j = 0; j < DEGREE; j++) {
			lo[j] = (uint32_t)(counter + LANE(j));
			hi[j] = (uint32_t)((counter + LANE(j)) >> 32);
		}
		ctr_lo = LOADU(lo);
		ctr_hi = LOADU(hi);
	}
	MS_B3_UNROLL
	for (int i = 0; i < 8; i++)
		h[i] = SET1((int)key[i]);
	for (size_t b = 0; b < blocks; b++) {
		uint8_t f = ms_b3_block_flags(b, blocks, flags, flags_start,
		    flags_end);

		load_msg(in + b * 64, stride, lanes, m, 0);
		load_msg(in + b * 64, stride, lanes, m, 1);
		VCOMPRESS(h, ctr_lo, ctr_hi, SET1(64), SET1(f));
	}
	store_cv(out, h, lanes);
}

TARGET void
MANY(const uint8_t *in, size_t cnt, size_t blocks, const uint32_t key[8],
    uint64_t counter, int inc, uint8_t flags, uint8_t flags_start,
    uint8_t flags_end, uint8_t *out)
{
	size_t stride = blocks * 64;

	/* Parents (one block) take the full width down to the last: the
	 * top levels of a subtree are a short chain of small groups, where a
	 * narrower level saves less than its cold code costs. */
	while (cnt > (blocks == 1 ? 0 : DEGREE / 2)) {
		size_t lanes = cnt < DEGREE ? cnt : DEGREE;

		if (lanes == DEGREE && blocks == 16)	/* chunks */
			group(in, 16 * 64, DEGREE, 16, key, counter, inc,
			    flags, flags_start, flags_end, out);
		else if (lanes == DEGREE && blocks == 1)	/* parents */
			group(in, 64, DEGREE, 1, key, counter, inc,
			    flags, flags_start, flags_end, out);
		else
			group(in, stride, lanes, blocks, key, counter, inc,
			    flags, flags_start, flags_end, out);
		in += lanes * stride;
		out += lanes * 32;
		if (inc)
			counter += lanes;
		cnt -= lanes;
	}
	if (cnt > 0)
		NEXT(in, cnt, blocks, key, counter, inc, flags, flags_start,
		    flags_end, out);
}

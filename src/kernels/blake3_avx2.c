/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * blake3_avx2.c - BLAKE3 compression of eight inputs at once with AVX2
 * (256-bit vectors, one input per 32-bit lane).  Only the operations,
 * the message transpose and the compression itself (an asm) live here;
 * the body around them is blake3_simd.h.
 */
#include "kernels/blake3_impl.h"

#include <immintrin.h>

#include "kernels/simd_rows.h"

#define TARGET		__attribute__((target("avx2")))
#define VEC		__m256i
#define DEGREE		8
#define ADD(a, b)	_mm256_add_epi32(a, b)
#define XOR(a, b)	_mm256_xor_si256(a, b)
#define SET1(x)		_mm256_set1_epi32(x)
#define LOADU(p)	_mm256_loadu_si256((const __m256i *)(const void *)(p))
#define STOREU(p, x)	_mm256_storeu_si256((__m256i *)(void *)(p), x)
#define UNPACKLO32	_mm256_unpacklo_epi32
#define UNPACKHI32	_mm256_unpackhi_epi32
#define UNPACKLO64	_mm256_unpacklo_epi64
#define UNPACKHI64	_mm256_unpackhi_epi64
#define LANE(j)		(j)
#define LANE_IDS	_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
#define MSG_IN_MEMORY	1
#define MANY		ms_b3_many_avx2
#define NEXT		ms_b3_many_sse41

#include "kernels/blake3_transpose.h"

/*
 * Half of the transpose, words 8h..8h+7: each register starts as the
 * same four words of inputs k and k + 4 (a 128-bit load and an insert
 * straight from memory, which any vector port runs), then two steps of
 * unpacks inside the 128-bit lanes.  Prefetches as for AVX-512: two
 * blocks ahead into L1, the next group of inputs into L2.
 */
static inline __attribute__((always_inline)) TARGET void
load_msg(const uint8_t *p, size_t stride, size_t lanes, __m256i m[16], int h)
{
	MS_B3_UNROLL
	for (int q = 2 * h; q < 2 * h + 2; q++) {
		__m256i r[4];

		MS_B3_UNROLL
		for (int k = 0; k < 4; k++) {
			const uint8_t *lo = p + ms_b3_row(k, lanes) * stride;
			const uint8_t *hi = p + ms_b3_row(k + 4, lanes) * stride;

			r[k] = _mm256_inserti128_si256(_mm256_castsi128_si256(
			    _mm_loadu_si128((const void *)(lo + 16 * q))),
			    _mm_loadu_si128((const void *)(hi + 16 * q)), 1);
			if (q == 0 || q == 2)
				ms_b3_prefetch(lo, hi, q == 0, 8 * stride);
		}
		transpose4(r, m + 4 * q);
	}
}

/* The chaining values out after blake3_simd.h's in-lane transpose: the
 * two 128-bit halves of each lane joined, one store per input. */
static inline __attribute__((always_inline)) TARGET void
store_rows(uint8_t *out, const __m256i f[8], size_t lanes)
{
	MS_B3_UNROLL
	for (size_t c = 0; c < 4; c++) {
		if (c < lanes)
			STOREU(out + 32 * c,
			    _mm256_permute2x128_si256(f[c], f[4 + c], 0x20));
		if (4 + c < lanes)
			STOREU(out + 32 * (4 + c),
			    _mm256_permute2x128_si256(f[c], f[4 + c], 0x31));
	}
}

/*
 * The whole compression in one asm (blake3_simd.h's COMPRESS_ASM), laid
 * out as the BLAKE3 team's AVX2 assembly lays out its rounds: with 16
 * registers, the 16 state vectors leave none for the shifts of the 12-
 * and 7-bit rotations, so v[8] stays in memory (v8_) and %ymm8 holds it
 * only to add to it and store it again, then serves the rotations; v[i]
 * is %ymmi otherwise, and every round reads its message words from m.
 * Given the same rounds in C (blake3_simd.h's VROUND, as SSE4.1 runs
 * them), gcc 12 and clang 14 spill two or three vectors a quarter round,
 * some reloaded right after their store: 8 chunks in L1 took 1.19x, 8
 * parents 1.30x the assembly's time with gcc (clang 1.15x, 1.13x); one
 * asm per half round left gcc moving registers between them (1.07x).
 * This takes 1.03x and 1.06x, its h and tail passing through memory.
 */
static const uint8_t rot16_tab[32] __attribute__((aligned(32))) = {
	2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
	2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
};
static const uint8_t rot8_tab[32] __attribute__((aligned(32))) = {
	1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12,
	1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12,
};

#define A_STR(x)	#x
#define A_XSTR(x)	A_STR(x)
#define A_R(i)		"%%ymm" A_XSTR(i)
#define A_W(w)		A_XSTR(w) "*32(%[m])"
#define A_V8		"%[v8]"
/* "ins x, y, y": y = y op x in AT&T order */
#define A_OP(ins, x, y)	ins " " x ", " y ", " y "\n\t"
#define A_ROT(n, r, b)	"vpsrld $" #n ", " A_R(b) ", %%ymm8\n\t"	\
	"vpslld $" #r ", " A_R(b) ", " A_R(b) "\n\t"			\
	"vpor %%ymm8, " A_R(b) ", " A_R(b) "\n\t"
/*
 * Half of G on four columns (a, b, d; c is v[8] in the first, ck in
 * the others) with the words xk: a += x + b, d = (d ^ a) rotated by
 * the table tab (vpshufb), c += d, b = (b ^ c) rotated right by n.
 */
#define A_G(tab, n, r, a0, b0, d0, x0, a1, b1, c1, d1, x1,		\
    a2, b2, c2, d2, x2, a3, b3, c3, d3, x3)				\
	A_OP("vpaddd", A_W(x0), A_R(a0)) A_OP("vpaddd", A_W(x1), A_R(a1)) \
	A_OP("vpaddd", A_W(x2), A_R(a2)) A_OP("vpaddd", A_W(x3), A_R(a3)) \
	A_OP("vpaddd", A_R(b0), A_R(a0)) A_OP("vpaddd", A_R(b1), A_R(a1)) \
	A_OP("vpaddd", A_R(b2), A_R(a2)) A_OP("vpaddd", A_R(b3), A_R(a3)) \
	A_OP("vpxor", A_R(a0), A_R(d0)) A_OP("vpxor", A_R(a1), A_R(d1))	\
	A_OP("vpxor", A_R(a2), A_R(d2)) A_OP("vpxor", A_R(a3), A_R(d3))	\
	A_OP("vpshufb", tab, A_R(d0)) A_OP("vpshufb", tab, A_R(d1))	\
	A_OP("vpshufb", tab, A_R(d2)) A_OP("vpshufb", tab, A_R(d3))	\
	"vpaddd " A_V8 ", " A_R(d0) ", %%ymm8\n\t"			\
	A_OP("vpaddd", A_R(d1), A_R(c1)) A_OP("vpaddd", A_R(d2), A_R(c2)) \
	A_OP("vpaddd", A_R(d3), A_R(c3))				\
	A_OP("vpxor", "%%ymm8", A_R(b0)) A_OP("vpxor", A_R(c1), A_R(b1)) \
	A_OP("vpxor", A_R(c2), A_R(b2)) A_OP("vpxor", A_R(c3), A_R(b3))	\
	"vmovdqa %%ymm8, " A_V8 "\n\t"					\
	A_ROT(n, r, b0) A_ROT(n, r, b1) A_ROT(n, r, b2) A_ROT(n, r, b3)
/* A round that reads word sk where the first reads word k: the columns,
 * then the diagonals, the one through v[8] first. */
#define A_ROUND(...)	A_ROUND_(__VA_ARGS__)
#define A_ROUND_(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11,	\
    s12, s13, s14, s15)							\
	A_G("%[r16]", 12, 20, 0, 4, 12, s0, 1, 5, 9, 13, s2,		\
	    2, 6, 10, 14, s4, 3, 7, 11, 15, s6)				\
	A_G("%[r8]", 7, 25, 0, 4, 12, s1, 1, 5, 9, 13, s3,		\
	    2, 6, 10, 14, s5, 3, 7, 11, 15, s7)				\
	A_G("%[r16]", 12, 20, 2, 7, 13, s12, 0, 5, 10, 15, s8,		\
	    1, 6, 11, 12, s10, 3, 4, 9, 14, s14)			\
	A_G("%[r8]", 7, 25, 2, 7, 13, s13, 0, 5, 10, 15, s9,		\
	    1, 6, 11, 12, s11, 3, 4, 9, 14, s15)
/* The next round's words: the specification's permutation applied. */
#define A_PERM(...)	A_PERM_(__VA_ARGS__)
#define A_PERM_(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11,	\
    s12, s13, s14, s15)							\
	s2, s6, s3, s10, s7, s0, s4, s13, s1, s11, s12, s5, s9, s14, s15, s8
#define A_S0	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
#define A_S1	A_PERM(A_S0)
#define A_S2	A_PERM(A_S1)
#define A_S3	A_PERM(A_S2)
#define A_S4	A_PERM(A_S3)
#define A_S5	A_PERM(A_S4)
#define A_S6	A_PERM(A_S5)
#define A_STEP(ins, x, y)	ins " " x ", " y "\n\t"
#define A_LOAD(p, i)	A_STEP("vmovdqa", #i "*32(%[" #p "])", A_R(i))
#define A_IV(i, r)	A_STEP("vpbroadcastd", #i "*4(%[iv])", A_R(r))
#define A_OUT(i, c)	A_OP("vpxor", A_R(c), A_R(i))			\
	A_STEP("vmovdqa", A_R(i), #i "*32(%[out])")
/* v from h, the IV and tail (v[12..15]), the rounds, out[i] = v[i] ^
 * v[i + 8]: h and the chaining values stay in memory between blocks. */
#define COMPRESS_ASM(out_, h_, tail_, m_) do {				\
	VEC v8_;							\
									\
	__asm__(A_LOAD(h, 0) A_LOAD(h, 1) A_LOAD(h, 2) A_LOAD(h, 3)	\
	    A_LOAD(h, 4) A_LOAD(h, 5) A_LOAD(h, 6) A_LOAD(h, 7)	\
	    A_IV(0, 8) A_STEP("vmovdqa", "%%ymm8", A_V8)		\
	    A_IV(1, 9) A_IV(2, 10) A_IV(3, 11)				\
	    A_STEP("vmovdqa", "0*32(%[tail])", "%%ymm12")		\
	    A_STEP("vmovdqa", "1*32(%[tail])", "%%ymm13")		\
	    A_STEP("vmovdqa", "2*32(%[tail])", "%%ymm14")		\
	    A_STEP("vmovdqa", "3*32(%[tail])", "%%ymm15")		\
	    A_ROUND(A_S0) A_ROUND(A_S1) A_ROUND(A_S2) A_ROUND(A_S3)	\
	    A_ROUND(A_S4) A_ROUND(A_S5) A_ROUND(A_S6)			\
	    A_STEP("vmovdqa", A_V8, "%%ymm8")				\
	    A_OUT(0, 8) A_OUT(1, 9) A_OUT(2, 10) A_OUT(3, 11)		\
	    A_OUT(4, 12) A_OUT(5, 13) A_OUT(6, 14) A_OUT(7, 15)	\
	    : "=m"(*(VEC (*)[8])(out_)), [v8] "=m"(v8_)		\
	    : [h] "r"(h_), [tail] "r"(tail_), [m] "r"(m_), [iv] "r"(ms_b3_iv), \
	      [out] "r"(out_), "m"(*(const VEC (*)[8])(h_)),		\
	      "m"(*(const VEC (*)[4])(tail_)), "m"(*(const VEC (*)[16])(m_)), \
	      "m"(*(const uint32_t (*)[4])ms_b3_iv),			\
	      [r16] "m"(*(const VEC *)(const void *)rot16_tab),		\
	      [r8] "m"(*(const VEC *)(const void *)rot8_tab)		\
	    : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",	\
	      "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",	\
	      "xmm14", "xmm15");					\
} while (0)

#include "kernels/blake3_simd.h"

/* BLAKE3 across files: chunks of different messages, a lane each. */
#define ROWS(rows, m)	ms_rows8_avx2(rows, 0, m)
#define BLEND(k, a, b)	_mm256_blendv_epi8(b, a, k)
#define LANES		ms_b3_lanes_avx2
#include "kernels/blake3_lanes.h"

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * crc.c - the arithmetic of the built-in CRCs: CRC-32 (zlib, SFV),
 * CRC-32C (Castagnoli, iSCSI), the POSIX cksum CRC and CRC-64/NVME
 * (Amazon S3).
 *
 * Owns their tables, their arithmetic and the choice, once per run, of
 * the code that computes each CRC: slicing-by-8 tables everywhere, and on
 * x86-64 folding by carry-less multiplication (crc_clmul.c,
 * crc_vpclmul.c) or, for CRC-32C, the SSE4.2 crc32 instruction
 * (crc_sse42.c), on aarch64 CRC-32 and CRC-32C by the ARMv8 crc32
 * instructions (crc_armv8.c) and every CRC by pmull folding
 * (crc_fold_armv8.c), in one table of levels (cpulevel.h).  The
 * environment variable MULTISUM_CRC_LEVEL caps the level (table, sse42, pclmul,
 * vpclmul; table, armv8crc, pmull) so that tests can run each one; a
 * level the CPU lacks is refused.  It knows no digest row:
 * backend_crc.c makes the registers digests (initial values, inversion,
 * cksum's length, byte order) and tree digests.
 *
 * Parts of one message hashed apart join by the algebra below: a CRC
 * register is linear in the register it starts from and in the data, so
 * moving the running register over a part's length in zero bytes (a
 * multiplication by x^(8 len) modulo the polynomial) and adding the
 * part's register from zero gives the register of the whole.
 */
#include <stdint.h>
#include <string.h>

#include "kernels/crc.h"

#include "base/bytes.h"
#include "base/cpulevel.h"
#include "base/util.h"

struct ms_crc;
typedef uint64_t crc_fn(const struct ms_crc *k, uint64_t crc,
    const unsigned char *p, size_t n);

/* One CRC: its parameters, then what ms_crc_prepare builds. */
struct ms_crc {
	const char	*name;		/* "crc32c" */
	unsigned	 width;		/* 32 or 64 */
	bool		 reflected;	/* LSB first */
	uint64_t	 poly;		/* normal form, x^width implied */
	crc_fn		*table;		/* the slicing-by-8 update */
	bool		 built;		/* the tables and multipliers below */
	union {				/* t[0] is the classic byte table */
		uint32_t t32[8][256];	/* width 32: half the cache */
		uint64_t t64[8][256];
	} t;
	struct ms_crc_fold fold;
	uint64_t	 pow2[64];	/* x^(2^i) modulo poly, normal form */
	unsigned	 cap;		/* the family's level it was chosen for */
	unsigned	 level;		/* its own: at or below cap */
	crc_fn		*update;	/* that level's */
};

/* ------------------------------------------------------------ tables */

static uint64_t
reflect(uint64_t v, unsigned width)
{
	uint64_t r = 0;

	for (unsigned i = 0; i < width; i++, v >>= 1)
		r = r << 1 | (v & 1);
	return r;
}

static uint64_t
entry(const struct ms_crc *k, int s, uint64_t i)
{
	return k->width == 32 ? k->t.t32[s][i] : k->t.t64[s][i];
}

static void
set_entry(struct ms_crc *k, int s, uint64_t i, uint64_t v)
{
	if (k->width == 32)
		k->t.t32[s][i] = (uint32_t)v;
	else
		k->t.t64[s][i] = v;
}

static void
build_tables(struct ms_crc *k)
{
	uint64_t top = (uint64_t)1 << (k->width - 1);
	uint64_t mask = top | (top - 1);
	uint64_t rpoly = reflect(k->poly, k->width);

	for (uint64_t i = 0; i < 256; i++) {
		uint64_t c = k->reflected ? i : i << (k->width - 8);

		for (int b = 0; b < 8; b++)
			if (k->reflected)
				c = c & 1 ? (c >> 1) ^ rpoly : c >> 1;
			else
				c = (c & top ? (c << 1) ^ k->poly : c << 1) & mask;
		set_entry(k, 0, i, c);
	}
	for (int s = 1; s < 8; s++)
		for (int i = 0; i < 256; i++) {
			uint64_t c = entry(k, s - 1, (uint64_t)i);

			set_entry(k, s, (uint64_t)i, k->reflected ?
			    (c >> 8) ^ entry(k, 0, c & 0xff) :
			    ((c << 8) & mask) ^ entry(k, 0, c >> (k->width - 8)));
		}
}

/* Reflected, 32 bits (zlib, CRC-32C): eight bytes per round, LSB first. */
static uint64_t
table_reflected32(const struct ms_crc *k, uint64_t crc, const unsigned char *p,
    size_t n)
{
	const uint32_t (*t)[256] = k->t.t32;
	uint32_t c = (uint32_t)crc;

	for (; n >= 8; p += 8, n -= 8) {
		uint64_t v = ms_load_le64(p);
		uint32_t a = c ^ (uint32_t)v, b = (uint32_t)(v >> 32);

		c = t[7][a & 0xff] ^ t[6][a >> 8 & 0xff] ^
		    t[5][a >> 16 & 0xff] ^ t[4][a >> 24] ^
		    t[3][b & 0xff] ^ t[2][b >> 8 & 0xff] ^
		    t[1][b >> 16 & 0xff] ^ t[0][b >> 24];
	}
	while (n--)
		c = (c >> 8) ^ t[0][(c ^ *p++) & 0xff];
	return c;
}

/* Reflected, 64 bits (CRC-64/NVME). */
static uint64_t
table_reflected64(const struct ms_crc *k, uint64_t c, const unsigned char *p,
    size_t n)
{
	const uint64_t (*t)[256] = k->t.t64;

	for (; n >= 8; p += 8, n -= 8) {
		uint64_t a = c ^ ms_load_le64(p);

		c = t[7][a & 0xff] ^ t[6][a >> 8 & 0xff] ^
		    t[5][a >> 16 & 0xff] ^ t[4][a >> 24 & 0xff] ^
		    t[3][a >> 32 & 0xff] ^ t[2][a >> 40 & 0xff] ^
		    t[1][a >> 48 & 0xff] ^ t[0][a >> 56];
	}
	while (n--)
		c = (c >> 8) ^ t[0][(c ^ *p++) & 0xff];
	return c;
}

/* Forward, 32 bits (POSIX cksum): MSB first. */
static uint64_t
table_forward32(const struct ms_crc *k, uint64_t crc, const unsigned char *p,
    size_t n)
{
	const uint32_t (*t)[256] = k->t.t32;
	uint32_t c = (uint32_t)crc;

	for (; n >= 8; p += 8, n -= 8) {
		uint64_t v = ms_load_be64(p);
		uint32_t a = c ^ (uint32_t)(v >> 32), b = (uint32_t)v;

		c = t[7][a >> 24] ^ t[6][a >> 16 & 0xff] ^
		    t[5][a >> 8 & 0xff] ^ t[4][a & 0xff] ^
		    t[3][b >> 24] ^ t[2][b >> 16 & 0xff] ^
		    t[1][b >> 8 & 0xff] ^ t[0][b & 0xff];
	}
	while (n--)
		c = (c << 8) ^ t[0][(c >> 24) ^ *p++];
	return c;
}

/* ----------------------------------------------------- faster levels */

/* x^e modulo the polynomial, in normal form. */
static uint64_t
xpow(const struct ms_crc *k, unsigned e)
{
	uint64_t top = (uint64_t)1 << (k->width - 1);
	uint64_t mask = top | (top - 1);
	uint64_t r = 1;

	while (e--)
		r = (r & top ? (r << 1) ^ k->poly : r << 1) & mask;
	return r;
}

/*
 * The multipliers that move a 128-bit lane d bits on (crc.h).  Forward:
 * the lane is hi * x^64 + lo, so hi takes x^(d+64) and lo x^d.  Reflected:
 * bit i of the lane stands for x^(127-i), and a product lands one place
 * short, hence x^(d+63) and x^(d-1), bit-reversed in 64 bits.
 */
static struct ms_crc_mul
multipliers(const struct ms_crc *k, unsigned d)
{
	struct ms_crc_mul m;

	if (k->reflected) {
		m.lo = reflect(xpow(k, d + 63), 64);
		m.hi = reflect(xpow(k, d - 1), 64);
	} else {
		m.lo = xpow(k, d);
		m.hi = xpow(k, d + 64);
	}
	return m;
}

/* a * b modulo the polynomial, both in normal form (join's arithmetic). */
static uint64_t
mulmod(const struct ms_crc *k, uint64_t a, uint64_t b)
{
	uint64_t top = (uint64_t)1 << (k->width - 1);
	uint64_t mask = top | (top - 1);
	uint64_t r = 0;

	for (unsigned i = k->width; i-- > 0; ) {
		r = (r & top ? (r << 1) ^ k->poly : r << 1) & mask;
		if (b >> i & 1)
			r ^= a;
	}
	return r;
}

/* x^(8 n) modulo the polynomial: the shift over n zero bytes. */
static uint64_t
zeros_operator(const struct ms_crc *k, uint64_t n)
{
	uint64_t r = 1;

	for (unsigned i = 3; n != 0 && i < 64; i++, n >>= 1)
		if (n & 1)
			r = mulmod(k, r, k->pow2[i]);
	return r;
}

/* The register crc, then n zero bytes, by shift = zeros_operator(n). */
static uint64_t
shift_register(const struct ms_crc *k, uint64_t crc, uint64_t shift)
{
	if (!k->reflected)
		return mulmod(k, crc, shift);
	return reflect(mulmod(k, reflect(crc, k->width), shift), k->width);
}

#if MS_SIMD_X86_64 || MS_SIMD_AARCH64
/*
 * Fold the bulk with a carry-less multiplication kernel (at least min
 * bytes), finish the 16 bytes it leaves and the tail with the tables.
 */
static uint64_t
update_folded(const struct ms_crc *k, uint64_t c, const unsigned char *p,
    size_t n, size_t min, size_t (*fold)(const struct ms_crc_fold *,
    uint64_t, const unsigned char *, size_t, unsigned char *))
{
	if (n >= min) {
		unsigned char rem[16];
		size_t used = fold(&k->fold, c, p, n, rem);

		c = k->table(k, 0, rem, sizeof(rem));
		p += used;
		n -= used;
	}
	return k->table(k, c, p, n);
}
#endif

#if MS_SIMD_X86_64
static uint64_t
update_pclmul(const struct ms_crc *k, uint64_t c, const unsigned char *p,
    size_t n)
{
	return update_folded(k, c, p, n, 64, ms_crc_fold_pclmul);
}

#if MS_AVX512
static uint64_t
update_vpclmul(const struct ms_crc *k, uint64_t c, const unsigned char *p,
    size_t n)
{
	return update_folded(k, c, p, n, 256, ms_crc_fold_vpclmul);
}
#endif

static uint64_t
update_sse42(const struct ms_crc *k, uint64_t c, const unsigned char *p,
    size_t n)
{
	(void)k;
	return ms_crc32c_sse42((uint32_t)c, p, n);
}
#endif

/* ------------------------------------------------------------ levels */

static struct ms_crc k_crc32 = {
	.name = "crc32",
	.width = 32, .reflected = true, .poly = 0x04c11db7,
	.table = table_reflected32,
};
static struct ms_crc k_crc32c = {
	.name = "crc32c",
	.width = 32, .reflected = true, .poly = 0x1edc6f41,
	.table = table_reflected32,
};
static struct ms_crc k_cksum = {
	.name = "cksum",
	.width = 32, .reflected = false, .poly = 0x04c11db7,
	.table = table_forward32,
};
static struct ms_crc k_crc64nvme = {
	.name = "crc64nvme",
	.width = 64, .reflected = true, .poly = 0xad93d23594c93659,
	.table = table_reflected64,
};

static struct ms_crc *const kinds[] = {
	&k_crc32, &k_crc32c, &k_cksum, &k_crc64nvme, NULL,
};

/* A level's code, and the CRCs it is for (only NULL: every CRC). */
struct kernel {
	crc_fn		*update;	/* NULL: the CRC's own tables */
	const struct ms_crc *only, *also;
};

static const struct kernel tables = { NULL, NULL, NULL };
#if MS_SIMD_X86_64
static const struct kernel sse42 = { update_sse42, &k_crc32c, NULL };
static const struct kernel pclmul = { update_pclmul, NULL, NULL };
#if MS_AVX512
static const struct kernel vpclmul = { update_vpclmul, NULL, NULL };
#endif
#endif
#if MS_SIMD_AARCH64
/* The reflected 32-bit CRCs the instructions compute. */
static uint64_t
update_armv8(const struct ms_crc *k, uint64_t c, const unsigned char *p,
    size_t n)
{
	return k == &k_crc32 ? ms_crc32_armv8((uint32_t)c, p, n) :
	    ms_crc32c_armv8((uint32_t)c, p, n);
}

static const struct kernel armv8crc = { update_armv8, &k_crc32, &k_crc32c };

static uint64_t
update_pmull(const struct ms_crc *k, uint64_t c, const unsigned char *p,
    size_t n)
{
	return update_folded(k, c, p, n, 64, ms_crc_fold_pmull);
}

static const struct kernel pmull = { update_pmull, NULL, NULL };
#endif

#define NEEDS_PCLMUL	(MS_CPU(PCLMUL) | MS_CPU(SSSE3))

/* The levels, slowest first: a CRC runs the best one for it at or below
 * the one chosen (crc32 has no sse42, so it runs its tables there). */
static const struct ms_level levels[] = {
	{ .name = "table", .needs = 0, .kernel = &tables },
#if MS_SIMD_X86_64
	{ .name = "sse42", .needs = MS_CPU(SSE42), .kernel = &sse42 },
	{ .name = "pclmul", .needs = NEEDS_PCLMUL, .kernel = &pclmul },
#if MS_AVX512
	{ .name = "vpclmul", .needs = NEEDS_PCLMUL | MS_CPU(AVX512F) |
	    MS_CPU(AVX512VL) | MS_CPU(AVX512BW) | MS_CPU(VPCLMULQDQ),
	    .kernel = &vpclmul },
#endif
#endif
#if MS_SIMD_AARCH64
	{ .name = "armv8crc", .needs = MS_CPU(ARM_CRC32), .kernel = &armv8crc },
	{ .name = "pmull", .needs = MS_CPU(PMULL), .kernel = &pmull },
#endif
};

/* Every build knows the x86-64 names (refused as not in this build);
 * an aarch64 build knows its own too. */
struct ms_level_family ms_crc_levels = MS_LEVEL_FAMILY("MULTISUM_CRC_LEVEL",
    "MULTISUM_CRC_IMPL", levels, "table", "sse42", "pclmul", "vpclmul"
#if MS_SIMD_AARCH64
    , "armv8crc", "pmull"
#endif
    );

const struct ms_crc *
ms_crc_named(const char *name)
{
	for (size_t i = 0; kinds[i] != NULL; i++)
		if (strcmp(kinds[i]->name, name) == 0)
			return kinds[i];
	return NULL;
}

/* Tables and multipliers, once per CRC. */
static void
build(struct ms_crc *k)
{
	build_tables(k);
	k->fold.width = k->width;
	k->fold.reflected = k->reflected;
	k->fold.by128 = multipliers(k, 128);
	k->fold.by512 = multipliers(k, 512);
	k->fold.by2048 = multipliers(k, 2048);
	k->pow2[0] = 2;			/* x */
	for (size_t i = 1; i < MS_ARRAY_LEN(k->pow2); i++)
		k->pow2[i] = mulmod(k, k->pow2[i - 1], k->pow2[i - 1]);
	k->built = true;
}

int
ms_crc_prepare(const struct ms_crc *c, const char **why)
{
	struct ms_crc *k = NULL;
	unsigned cap, l;

	for (size_t i = 0; kinds[i] != NULL; i++)
		if (kinds[i] == c)
			k = kinds[i];
	if (k == NULL)
		ms_bug("crc: not one of the CRCs");
	if (ms_level_setup(&ms_crc_levels, why) == -1)
		return -1;
	cap = ms_level_get(&ms_crc_levels);
	/* Once, or again after ms_level_force: never while threads run. */
	if (k->built && k->cap == cap)
		return 0;
	if (!k->built)
		build(k);
	for (l = cap; l > 0; l--) {
		const struct kernel *kl = levels[l].kernel;

		if ((kl->only == NULL || kl->only == k || kl->also == k) &&
		    ms_level_runs(&ms_crc_levels, l))
			break;
	}
	k->cap = cap;
	k->level = l;
	k->update = l == 0 ? k->table :
	    ((const struct kernel *)levels[l].kernel)->update;
	return 0;
}

uint64_t
ms_crc_update(const struct ms_crc *c, uint64_t reg, const void *p, size_t n)
{
	return c->update(c, reg, p, n);
}

uint64_t
ms_crc_zeros(const struct ms_crc *c, uint64_t n)
{
	return zeros_operator(c, n);
}

uint64_t
ms_crc_shift(const struct ms_crc *c, uint64_t reg, uint64_t zeros)
{
	return shift_register(c, reg, zeros);
}

const char *
ms_crc_level(const struct ms_crc *c)
{
	const char *why;

	if (ms_crc_prepare(c, &why) == -1)
		return ms_level_name(&ms_crc_levels);
	return levels[c->level].name;
}

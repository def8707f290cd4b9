/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * backend_crc.c - the checksum rows on the built-in CRCs (crc.c): CRC-32
 * (zlib, SFV), CRC-32C, the POSIX cksum CRC and CRC-64/NVME, and the BSD
 * and System V sums of sum(1) and `cksum -a bsd|sysv`.
 *
 * Owns what makes a CRC register a digest: the initial register, the
 * final inversion, cksum's length, and the raw digest, big-endian (4
 * bytes for the 32-bit CRCs, 8 for CRC-64, 2 for the sums).  The row's
 * impl field names its CRC.  load settles the CRC's level, which
 * variant() reports for --debug and --list-algorithms.
 *
 * The four CRCs are tree digests too (algorithm.h's ms_tree_ops), so that
 * one file keeps every core busy: a part is the raw CRC of its bytes from
 * a zero register, and joining it shifts the running register over the
 * part's length in zero bytes and adds the part's value (crc.h).  The
 * same arithmetic joins the parts of --part, hashed by other runs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "digest/backend.h"
#include "digest/state_create.h"
#include "kernels/crc.h"
#include "base/util.h"

struct state {
	const struct ms_crc *crc;	/* NULL for the sums */
	unsigned	 width;		/* the CRC's bits, 32 or 64 */
	uint64_t	 reg;		/* running CRC register or sum */
	uint64_t	 len;		/* bytes seen: cksum appends it */
	/* join: the shift over shift_len zero bytes, kept because a
	 * file's parts are all of one length but its last */
	uint64_t	 shift_len, shift;
};

/* The CRC of a row; NULL for the sums. */
static const struct ms_crc *
crc_of(const struct ms_algo *a)
{
	return ms_crc_named(a->impl);
}

/* The CRC's tables and level (after ops.levels settled the table's). */
static int
crc_load(const struct ms_algo *a)
{
	const char *why;

	if (ms_crc_prepare(crc_of(a), &why) == -1) {
		ms_warn("%s", why);
		return -1;
	}
	return 0;
}

static bool
crc_make(void *state, const struct ms_digest_spec *spec)
{
	struct state *s = state;

	s->crc = crc_of(spec->algo);
	s->width = spec->bits;
	return true;
}

static void
crc_init_ones32(void *state)
{
	struct state *s = state;

	s->reg = UINT32_MAX;
	s->len = 0;
}

static void
crc_init_ones64(void *state)
{
	struct state *s = state;

	s->reg = UINT64_MAX;
	s->len = 0;
}

static void
crc_init_zero(void *state)
{
	struct state *s = state;

	s->reg = 0;
	s->len = 0;
}

static void
crc_update(void *state, const void *p, size_t n)
{
	struct state *s = state;

	s->reg = ms_crc_update(s->crc, s->reg, p, n);
	s->len += n;
}

static void
put_be(unsigned char *out, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		out[i] = (unsigned char)(v >> 8 * (bytes - 1 - i));
}

static void
final_inverted32(void *state, unsigned char *out)
{
	struct state *s = state;

	put_be(out, ~s->reg, 4);
}

static void
final_inverted64(void *state, unsigned char *out)
{
	struct state *s = state;

	put_be(out, ~s->reg, 8);
}

/* POSIX cksum appends the length, least significant byte first, using
 * only as many bytes as it needs. */
static void
cksum_final(void *state, unsigned char *out)
{
	struct state *s = state;
	uint64_t c = s->reg;

	for (uint64_t n = s->len; n != 0; n >>= 8) {
		unsigned char b = (unsigned char)(n & 0xff);

		c = ms_crc_update(s->crc, c, &b, 1);
	}
	put_be(out, ~c, 4);
}

/* The level that runs for this row's CRC. */
static const char *
crc_variant(const struct ms_digest_spec *spec)
{
	return ms_crc_level(crc_of(spec->algo));
}

/* ------------------------------------------------------------ sums */

/* BSD sum: 16-bit rotate right, then add (sum(1)'s -r algorithm). */
static void
bsd_update(void *state, const void *data, size_t n)
{
	struct state *s = state;
	const unsigned char *p = data;
	uint64_t c = s->reg;

	for (size_t i = 0; i < n; i++)
		c = (((c >> 1) | ((c & 1) << 15)) + p[i]) & 0xffff;
	s->reg = c;
}

static void
bsd_final(void *state, unsigned char *out)
{
	struct state *s = state;

	put_be(out, s->reg, 2);
}

/* System V sum: the byte sum, folded to 16 bits at the end. */
static void
sysv_update(void *state, const void *data, size_t n)
{
	struct state *s = state;
	const unsigned char *p = data;
	uint32_t c = (uint32_t)s->reg;	/* wraps, as coreutils' does */

	for (size_t i = 0; i < n; i++)
		c += p[i];
	s->reg = c;
}

static void
sysv_final(void *state, unsigned char *out)
{
	struct state *s = state;
	uint64_t r = (s->reg & 0xffff) + (s->reg >> 16);

	put_be(out, (r & 0xffff) + (r >> 16), 2);
}

/* ----------------------------------------------------------- trees */

/*
 * Any piece of a file can be a part, but one is worth its hand-off to
 * another core only if that spares a copy: the engine's mapped windows
 * (4 MiB) are parts, its read buffers (256 KiB by default) are not.  The
 * copy of read(2) is four fifths of a read CRC's time, and a buffer
 * hashed by the core that copied it is in that core's cache: 1 GiB
 * cached, -a crc32c --io=read, 2 cores: 0.17 s whole, 0.21 s in parts;
 * --io=mmap 0.083 s in parts.
 */
#define PART_MIN	(4u << 20)

static bool
crc_part_ok(uint64_t off, size_t len)
{
	(void)off;
	return len >= PART_MIN;
}

/* A part's value is its raw register from zero, native order. */
static void
crc_part(const struct ms_digest_spec *spec, const void *p, size_t n,
    uint64_t off, unsigned char *out)
{
	uint64_t reg = ms_crc_update(crc_of(spec->algo), 0, p, n);

	(void)off;
	memcpy(out, &reg, sizeof(reg));
}

/* The raw register part of n bytes after those the state has seen. */
static void
absorb(struct state *s, uint64_t part, uint64_t n)
{
	if (s->shift_len != n || s->shift == 0) {
		s->shift = ms_crc_zeros(s->crc, n);
		s->shift_len = n;
	}
	s->reg = ms_crc_shift(s->crc, s->reg, s->shift) ^ part;
	s->len += n;
}

static void
crc_join(void *state, const unsigned char *v, uint64_t off, size_t n)
{
	uint64_t part;

	(void)off;
	memcpy(&part, v, sizeof(part));
	absorb(state, part, n);
}

/* ------------------------------------------------------ --part, saved */

/* Any byte may start a part: a CRC is linear in its message. */
static uint64_t
crc_align_any(const struct ms_digest_spec *spec)
{
	(void)spec;
	return 1;
}

/* A part's register starts at zero; the run's start is the merge's. */
static void
crc_part_begin(void *state, uint64_t off)
{
	struct state *s = state;

	(void)off;
	s->reg = 0;
	s->len = 0;
}

/* Saved: the part's raw register, 8 bytes big-endian. */
static void
crc_part_save(void *state, struct ms_bytes *out)
{
	struct state *s = state;
	unsigned char b[8];

	put_be(b, s->reg, 8);
	ms_bytes_add(out, b, sizeof(b));
}

static int
crc_part_join(void *state, const unsigned char *p, size_t n, uint64_t off,
    uint64_t len)
{
	struct state *s = state;
	uint64_t part = 0;

	if (n != 8 || s->len != off)
		return -1;
	for (size_t i = 0; i < 8; i++)
		part = part << 8 | p[i];
	if (s->width < 64 && part >> s->width != 0)
		return -1;
	absorb(s, part, len);
	return 0;
}

/* The CRCs read the level table (a bad MULTISUM_CRC_LEVEL refuses them);
 * each names its own level, which may be below the table's. */
#define CRC_OPS(INIT, FINAL) {						\
	.backend = "built-in", .load = crc_load, .create = ms_state_create, \
	.state_size = sizeof(struct state), .make = crc_make,		\
	.init = INIT, .update = crc_update, .final = FINAL,		\
	.destroy = free, .variant = crc_variant,			\
	.levels = &ms_crc_levels,					\
}
#define SUM_OPS(UPDATE, FINAL) {					\
	.backend = "built-in", .create = ms_state_create,		\
	.state_size = sizeof(struct state), .make = crc_make,		\
	.init = crc_init_zero,						\
	.update = UPDATE, .final = FINAL, .destroy = free,		\
}

const struct ms_digest_ops ms_ops_crc_inverted32 = CRC_OPS(crc_init_ones32,
    final_inverted32);
const struct ms_digest_ops ms_ops_crc_cksum =
    CRC_OPS(crc_init_zero, cksum_final);
const struct ms_digest_ops ms_ops_crc_inverted64 = CRC_OPS(crc_init_ones64,
    final_inverted64);
const struct ms_digest_ops ms_ops_bsd = SUM_OPS(bsd_update, bsd_final);
const struct ms_digest_ops ms_ops_sysv = SUM_OPS(sysv_update, sysv_final);

const struct ms_tree_ops ms_tree_crc = { crc_part_ok, crc_part, crc_join };

const struct ms_compose_ops ms_compose_crc = {
	.align = crc_align_any, .begin = crc_part_begin, .save = crc_part_save,
	.join = crc_part_join,
};

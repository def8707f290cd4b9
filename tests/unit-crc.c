/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * unit-crc.c - every CRC at every code path crc.c has on this machine,
 * against published check values and a bit-at-a-time reference written
 * here, which shares no code with crc.c.
 *
 * For each level (table, sse42, pclmul, vpclmul; on aarch64 armv8crc
 * and pmull, which .ci/cross-arm64 runs under qemu; one the CPU lacks is
 * skipped) and each CRC row: the check value of "123456789"; every
 * length 0..4096 from a start that moves through all 16 alignments; the
 * lengths around each folding width (64, 256 bytes and their multiples)
 * up to 64 KiB; and the same data fed in two pieces split at awkward
 * places, so that a running CRC enters the folding code mid-message.
 * Then the tree ops that split one file over workers: a state that has
 * seen A joined with the part B (its raw CRC, computed apart) must give
 * the digest of A B, for many lengths of A and B, 0 included, and for a
 * message cut into several parts of unequal lengths.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "digest/algorithm.h"
#include "kernels/crc.h"
#include "base/util.h"

#include "levels.h"
#include "tap.h"

#define MAXLEN	(64 * 1024 + 512)

struct crc_case {
	const char	*algo;
	const char	*check;		/* hex of the "123456789" digest */
	unsigned	 width;
	bool		 reflected;
	uint64_t	 poly;		/* normal form */
	bool		 posix;		/* cksum: length appended, init 0 */
};

/* Check values: the CRC catalogue (reveng) for CRC-32/ISO-HDLC,
 * CRC-32/ISCSI and CRC-64/NVME; coreutils cksum for POSIX (930766865). */
static const struct crc_case cases[] = {
	{ "crc32", "cbf43926", 32, true, 0x04c11db7, false },
	{ "crc32c", "e3069283", 32, true, 0x1edc6f41, false },
	{ "cksum", "377a6011", 32, false, 0x04c11db7, true },
	{ "crc64nvme", "ae8b14860a799888", 64, true, 0xad93d23594c93659, false },
};

/* ---------------------------------------------------- the reference */

/* reg[i]: the register after the first i bytes of p, one bit at a time. */
static void
ref_registers(const struct crc_case *c, const unsigned char *p, size_t n,
    uint64_t *reg)
{
	uint64_t top = (uint64_t)1 << (c->width - 1);
	uint64_t mask = top | (top - 1);
	uint64_t rpoly = 0, r = c->posix ? 0 : mask;

	for (unsigned k = 0; k < c->width; k++)
		rpoly |= (c->poly >> k & 1) << (c->width - 1 - k);
	reg[0] = r;
	for (size_t i = 0; i < n; i++) {
		for (int b = 0; b < 8; b++)
			if (c->reflected)
				r = ((r ^ (uint64_t)(p[i] >> b)) & 1) ?
				    (r >> 1) ^ rpoly : r >> 1;
			else
				r = (((r & top) != 0) ^ (p[i] >> (7 - b) & 1)) ?
				    ((r << 1) & mask) ^ c->poly : (r << 1) & mask;
		reg[i + 1] = r;
	}
}

/* The digest of the first len bytes, from the registers. */
static void
ref_digest(const struct crc_case *c, const uint64_t *reg, size_t len,
    unsigned char *out)
{
	uint64_t top = (uint64_t)1 << (c->width - 1);
	uint64_t mask = top | (top - 1);
	uint64_t r = reg[len];
	unsigned bytes = c->width / 8;

	for (uint64_t n = len; c->posix && n != 0; n >>= 8)
		for (int b = 0; b < 8; b++)
			r = (((r & top) != 0) ^ (n >> (7 - b) & 1)) ?
			    ((r << 1) & mask) ^ c->poly : (r << 1) & mask;
	r = ~r & mask;
	for (unsigned i = 0; i < bytes; i++)
		out[i] = (unsigned char)(r >> 8 * (bytes - 1 - i));
}

/* ------------------------------------------------------------ the runs */

static unsigned char data[MAXLEN + 64];
static uint64_t *regs[16];		/* per start 0..15, prefixes to 4096 */
static uint64_t *big;			/* from start 3, to MAXLEN */

struct run {
	struct ms_digest_spec spec;
	const struct ms_digest_ops *ops;
	const struct ms_tree_ops *tree;
	void		*state;
	unsigned	 len;
};

static void
digest(struct run *r, const unsigned char *p, size_t n, size_t split,
    unsigned char *out)
{
	r->ops->init(r->state);
	r->ops->update(r->state, p, split);
	r->ops->update(r->state, p + split, n - split);
	r->ops->final(r->state, out);
}

static bool
same(struct run *r, const struct crc_case *c, const unsigned char *p,
    size_t n, size_t split, const uint64_t *reg, const char *what)
{
	unsigned char got[8], want[8];
	char gh[17], wh[17];

	digest(r, p, n, split, got);
	ref_digest(c, reg, n, want);
	if (memcmp(got, want, r->len) == 0)
		return true;
	ms_hex(gh, got, r->len);
	ms_hex(wh, want, r->len);
	tap_diag("%s %s: length %zu split %zu: got %s, want %s", c->algo,
	    what, n, split, gh, wh);
	return false;
}

/* The digest of p[0, n) fed as p[0, cut[0]) then parts up to each cut. */
static void
joined(struct run *r, const unsigned char *p, size_t n, const size_t *cut,
    size_t ncut, unsigned char *out)
{
	unsigned char v[MS_PART_MAX];
	size_t at = ncut > 0 ? cut[0] : n;

	r->ops->init(r->state);
	r->ops->update(r->state, p, at);
	for (size_t i = 1; i <= ncut; i++) {
		size_t end = i < ncut ? cut[i] : n;

		r->tree->part(&r->spec, p + at, end - at, at, v);
		r->tree->join(r->state, v, at, end - at);
		at = end;
	}
	r->ops->final(r->state, out);
}

static bool
join_same(struct run *r, const struct crc_case *c, size_t n,
    const size_t *cut, size_t ncut)
{
	unsigned char got[8], want[8], direct[8];
	char gh[17], wh[17];

	joined(r, data + 3, n, cut, ncut, got);
	digest(r, data + 3, n, 0, direct);
	ref_digest(c, big, n, want);
	if (memcmp(got, want, r->len) == 0 && memcmp(direct, want, r->len) == 0)
		return true;
	ms_hex(gh, got, r->len);
	ms_hex(wh, want, r->len);
	tap_diag("%s joined: length %zu first cut %zu, %zu parts: got %s, "
	    "want %s", c->algo, n, ncut > 0 ? cut[0] : n, ncut, gh, wh);
	return false;
}

static void
test_join(struct run *r, const struct crc_case *c, const char *level)
{
	static const size_t lens[] = { 0, 1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31,
	    63, 64, 65, 255, 256, 257, 1000, 4095, 4096, 4097, 30000 + 5 };
	size_t pairs = 0;
	bool ok;

	if (r->tree == NULL) {
		tap_ok(false, "%s has tree ops", c->algo);
		return;
	}
	ok = true;
	for (size_t a = 0; a < MS_ARRAY_LEN(lens) && ok; a++)
		for (size_t b = 0; b < MS_ARRAY_LEN(lens) && ok; b++) {
			size_t cut = lens[a];

			ok = join_same(r, c, lens[a] + lens[b], &cut, 1);
			pairs++;
		}
	tap_ok(ok, "%s at %s: A then part B, %zu (len A, len B) pairs",
	    c->algo, level, pairs);

	ok = true;
	for (size_t first = 0; first < 300 && ok; first += 37) {
		/* parts of 4 KiB and odd lengths, as a ring of buffers */
		size_t cut[8] = { first };

		for (size_t i = 1; i < MS_ARRAY_LEN(cut); i++)
			cut[i] = cut[i - 1] + (i % 2 ? 4096 : 4096 + 2 * first + 1);
		ok = join_same(r, c, cut[7] + first + 1, cut, MS_ARRAY_LEN(cut));
	}
	tap_ok(ok, "%s at %s: a message joined from several parts", c->algo,
	    level);
}

static void
test_level(const char *level, const struct crc_case *c)
{
	struct ms_digest_spec spec;
	const char *why, *ran;
	struct run r;
	unsigned char out[8];
	char hex[17];
	bool ok;

	if (ms_algo_resolve(c->algo, 0, &spec, &why) == -1 ||
	    ms_spec_load(&spec) == -1)
		ms_bug("unit-crc: no row");
	r.spec = spec;
	r.ops = spec.algo->ops;
	r.tree = spec.algo->tree;
	r.len = (unsigned)ms_spec_len(&spec);
	if ((r.state = r.ops->create(&spec)) == NULL)
		ms_bug("unit-crc: create");
	ran = ms_spec_variant(&spec);
	tap_ok(strcmp(ran, level) == 0 || strcmp(ran, "table") == 0 ||
	    (strcmp(level, "vpclmul") == 0 && strcmp(ran, "pclmul") == 0),
	    "%s at %s runs %s", c->algo, level, ran);

	digest(&r, (const unsigned char *)"123456789", 9, 4, out);
	ms_hex(hex, out, r.len);
	tap_is_str(hex, c->check, c->algo);

	ok = true;
	for (size_t n = 0; n <= 4096 && ok; n++)
		ok = same(&r, c, data + n % 16, n, n / 2, regs[n % 16], "short");
	tap_ok(ok, "%s at %s: lengths 0..4096, every alignment", c->algo, level);

	ok = true;
	for (size_t w = 16; w <= 65536 && ok; w *= 2)
		for (size_t m = 1; m <= 3 && ok; m++)
			for (int d = -17; d <= 17 && ok; d++) {
				size_t n = m * w + (size_t)d;

				if (n <= MAXLEN && (d >= -1 && d <= 1 ? true :
				    d % 8 == 0))
					ok = same(&r, c, data + 3, n, 0, big,
					    "long");
			}
	tap_ok(ok, "%s at %s: lengths around every folding width", c->algo,
	    level);

	ok = true;
	for (size_t k = 0; k < 12 && ok; k++) {
		static const size_t splits[12] = { 1, 15, 16, 17, 63, 64, 65,
		    255, 256, 257, 4000, 9999 };

		ok = same(&r, c, data + 3, 10000, splits[k], big, "split");
	}
	tap_ok(ok, "%s at %s: a running CRC entering mid-message", c->algo,
	    level);
	test_join(&r, c, level);
	r.ops->destroy(r.state);
}

int
main(void)
{
	uint32_t x = 0x9e3779b9u;

	for (size_t i = 0; i < sizeof(data); i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		data[i] = (unsigned char)(x >> 24);
	}
	for (size_t k = 0; k < MS_ARRAY_LEN(cases); k++) {
		const struct crc_case *c = &cases[k];

		for (size_t s = 0; s < 16; s++) {
			regs[s] = realloc(regs[s], (4096 + 1) * sizeof(uint64_t));
			ref_registers(c, data + s, 4096, regs[s]);
		}
		big = realloc(big, (MAXLEN + 1) * sizeof(uint64_t));
		ref_registers(c, data + 3, MAXLEN, big);
		if (regs[15] == NULL || big == NULL)
			ms_bug("unit-crc: out of memory");
		for (const char *const *l = ms_crc_levels.known; *l; l++)
			if (level_force_or_skip(&ms_crc_levels, *l, c->algo))
				test_level(*l, c);
	}
	return tap_done();
}

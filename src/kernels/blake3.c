/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * blake3.c - BLAKE3 from the specification: the chunk and tree logic of
 * incremental hashing, parts hashed apart, extendable output, and the
 * choice of SIMD level.
 *
 * Owns the hasher and the table of levels (cpulevel.h: the widest this
 * CPU runs, or MULTISUM_BLAKE3_LEVEL's); blake3_portable.c compresses
 * one block, and the SIMD files (blake3_sse41.c, blake3_avx2.c,
 * blake3_avx512.c, built for x86-64 only; blake3_neon.c, for aarch64
 * only) only compress many
 * equal-length inputs at once, or the chunks of many small messages a
 * lane each (ms_blake3_many: a level's lanes kernel).  The open chunk
 * is kept raw and compressed only once more input shows it is not the
 * last one, so the stack of subtree chaining values never holds the root
 * and can be merged eagerly; kept raw, it joins the next batch of whole
 * chunks in the SIMD kernel instead of being compressed alone.
 */
#include "kernels/blake3.h"

#include <stdlib.h>
#include <string.h>

#include "kernels/blake3_impl.h"
#include "base/util.h"

/* Whole chunks compressed together when the input allows (256 KiB,
 * the engine's buffer). */
#define BATCH_MAX	256

/* ------------------------------------------------------------ levels */

static const struct ms_b3_kernel portable = {
	.many = ms_b3_many_portable, .one = ms_b3_compress,
};
#if MS_SIMD_X86_64
static const struct ms_b3_kernel sse41 = {
	.many = ms_b3_many_sse41, .one = ms_b3_compress_sse41,
	.lanes = ms_b3_lanes_sse41,
};
static const struct ms_b3_kernel avx2 = {
	.many = ms_b3_many_avx2, .one = ms_b3_compress_sse41,
	.lanes = ms_b3_lanes_avx2,
};
#if MS_AVX512
static const struct ms_b3_kernel avx512 = {
	.many = ms_b3_many_avx512, .one = ms_b3_compress_avx512,
	.lanes = ms_b3_lanes_avx512,
};
#endif
#endif
#if MS_SIMD_AARCH64
static const struct ms_b3_kernel neon = {
	.many = ms_b3_many_neon, .one = ms_b3_compress,
	.lanes = ms_b3_lanes_neon,
};
#endif

/* Each SIMD kernel hands a short group's spare lanes to the one below
 * it, so a level needs what the levels below it need too. */
#define NEEDS_SSE41	(MS_CPU(SSSE3) | MS_CPU(SSE41))
#define NEEDS_AVX2	(NEEDS_SSE41 | MS_CPU(AVX) | MS_CPU(AVX2))
#define NEEDS_AVX512	(NEEDS_AVX2 | MS_CPU(AVX512F) | MS_CPU(AVX512VL))

static const struct ms_level levels[] = {
	{ .name = "portable", .needs = 0, .kernel = &portable },
#if MS_SIMD_X86_64
	{ .name = "sse41", .needs = NEEDS_SSE41, .kernel = &sse41 },
	{ .name = "avx2", .needs = NEEDS_AVX2, .kernel = &avx2 },
#if MS_AVX512
	{ .name = "avx512", .needs = NEEDS_AVX512, .kernel = &avx512 },
#endif
#endif
#if MS_SIMD_AARCH64
	/* Advanced SIMD is part of every AArch64 CPU: nothing to probe. */
	{ .name = "neon", .needs = 0, .kernel = &neon },
#endif
};

struct ms_level_family ms_blake3_levels = MS_LEVEL_FAMILY(
    "MULTISUM_BLAKE3_LEVEL", "MULTISUM_BLAKE3_SIMD", levels,
    "portable", "sse41", "avx2", "avx512"
#if MS_SIMD_AARCH64
    , "neon"
#endif
    );

static inline const struct ms_b3_kernel *
kernel(void)
{
	return ms_level_kernel(&ms_blake3_levels);
}

/* ------------------------------------------------------------ hasher */

static void
init_with(struct ms_blake3 *h, const uint32_t key[8], uint8_t flags)
{
	memcpy(h->key, key, sizeof(h->key));
	h->chunk_counter = 0;
	h->buf_len = 0;
	h->flags = flags;
	h->stack_len = 0;
}

void
ms_blake3_init(struct ms_blake3 *h)
{
	init_with(h, ms_b3_iv, 0);
}

void
ms_blake3_init_keyed(struct ms_blake3 *h, const uint8_t key[MS_BLAKE3_KEY_LEN])
{
	uint32_t k[8];

	for (int i = 0; i < 8; i++)
		k[i] = load32(key + 4 * i);
	init_with(h, k, B3_KEYED_HASH);
}

void
ms_blake3_context_key(const char *context, size_t context_len,
    uint8_t out[MS_BLAKE3_KEY_LEN])
{
	struct ms_blake3 h;

	init_with(&h, ms_b3_iv, B3_DERIVE_KEY_CONTEXT);
	ms_blake3_update(&h, context, context_len);
	ms_blake3_final(&h, out, MS_BLAKE3_KEY_LEN);
}

void
ms_blake3_init_derived(struct ms_blake3 *h,
    const uint8_t context_key[MS_BLAKE3_KEY_LEN])
{
	uint32_t k[8];

	for (int i = 0; i < 8; i++)
		k[i] = load32(context_key + 4 * i);
	init_with(h, k, B3_DERIVE_KEY_MATERIAL);
}

void
ms_blake3_init_derive_key(struct ms_blake3 *h, const char *context,
    size_t context_len)
{
	uint8_t ck[MS_BLAKE3_KEY_LEN];

	ms_blake3_context_key(context, context_len, ck);
	ms_blake3_init_derived(h, ck);
}

static void
cv_bytes(uint8_t out[32], const uint32_t cv[8])
{
	for (int i = 0; i < 8; i++)
		store32(out + 4 * i, cv[i]);
}

/* One block alone at the active level, into a new chaining value (cv
 * may be the same array). */
static void
compress_cv(ms_b3_one_fn *one, uint32_t cv[8], const uint8_t block[64],
    uint8_t block_len, uint64_t counter, uint8_t flags)
{
	uint32_t v[16];

	one(cv, block, block_len, counter, flags, v);
	for (int i = 0; i < 8; i++)
		cv[i] = v[i] ^ v[i + 8];
}

static void
parent_cv(const struct ms_blake3 *h, const uint8_t left[32],
    const uint8_t right[32], uint8_t out[32])
{
	uint8_t block[64];
	uint32_t cv[8];

	memcpy(block, left, 32);
	memcpy(block + 32, right, 32);
	memcpy(cv, h->key, sizeof(cv));
	compress_cv(kernel()->one, cv, block, 64, 0,
	    h->flags | B3_PARENT);
	cv_bytes(out, cv);
}

/*
 * Push the chaining value of a complete subtree that ends after chunk
 * total - 1, merging while the stack holds more subtrees than total has
 * bits set: that keeps one entry per power of two in total.
 */
static void
push_cv(struct ms_blake3 *h, const uint8_t cv[32], uint64_t total)
{
	memcpy(h->stack[h->stack_len++], cv, 32);
	while (h->stack_len > (unsigned)__builtin_popcountll(total)) {
		h->stack_len--;
		parent_cv(h, h->stack[h->stack_len - 1], h->stack[h->stack_len],
		    h->stack[h->stack_len - 1]);
	}
}

/* Reduce n (a power of two) adjacent chaining values at cvs to one,
 * layer by layer; cvs is overwritten. */
static void
reduce(const struct ms_blake3 *h, ms_b3_many_fn *many, uint8_t *cvs,
    size_t n, uint8_t out[32])
{
	uint8_t tmp[BATCH_MAX / 2 * 32];

	for (; n > 1; n /= 2) {
		many(cvs, n / 2, 1, h->key, 0, 0, h->flags | B3_PARENT, 0, 0, tmp);
		memcpy(cvs, tmp, n / 2 * 32);
	}
	memcpy(out, cvs, 32);
}

/*
 * n whole chunks at p, none of them the last of the input: their chaining
 * values side by side, then onto the stack as aligned power-of-two
 * subtrees, each reduced side by side too.
 */
static void
add_chunks(struct ms_blake3 *h, ms_b3_many_fn *many, const uint8_t *p,
    size_t n)
{
	uint8_t cvs[BATCH_MAX * 32], cv[32];
	size_t pos = 0;

	many(p, n, MS_BLAKE3_CHUNK_LEN / 64, h->key, h->chunk_counter, 1,
	    h->flags, B3_CHUNK_START, B3_CHUNK_END, cvs);
	while (pos < n) {
		size_t k = 1;

		while (2 * k <= n - pos && h->chunk_counter % (2 * k) == 0)
			k *= 2;
		reduce(h, many, cvs + 32 * pos, k, cv);
		h->chunk_counter += k;
		push_cv(h, cv, h->chunk_counter);
		pos += k;
	}
}

int
ms_blake3_part_ok(uint64_t off, size_t len)
{
	return len >= MS_BLAKE3_CHUNK_LEN && len <= MS_BLAKE3_PART_MAX &&
	    (len & (len - 1)) == 0 && off % len == 0;
}

void
ms_blake3_part(const struct ms_blake3 *proto, const void *data, size_t len,
    uint64_t off, uint8_t out[MS_BLAKE3_OUT_LEN])
{
	ms_b3_many_fn *many = kernel()->many;
	uint8_t cvs[BATCH_MAX * 32];
	uint8_t top[MS_BLAKE3_PART_MAX / MS_BLAKE3_CHUNK_LEN / BATCH_MAX * 32];
	const uint8_t *p = data;
	size_t n = len / MS_BLAKE3_CHUNK_LEN, batch = n < BATCH_MAX ? n : BATCH_MAX;
	uint64_t counter = off / MS_BLAKE3_CHUNK_LEN;

	if (!ms_blake3_part_ok(off, len))
		ms_bug("blake3: a part out of place");
	for (size_t b = 0; b < n / batch; b++) {
		many(p + b * batch * MS_BLAKE3_CHUNK_LEN, batch,
		    MS_BLAKE3_CHUNK_LEN / 64, proto->key, counter + b * batch, 1,
		    proto->flags, B3_CHUNK_START, B3_CHUNK_END, cvs);
		reduce(proto, many, cvs, batch, top + 32 * b);
	}
	reduce(proto, many, top, n / batch, out);
}

/* A lane per chunk or parent: messages of up to this many chunks go
 * through lanes, this many lanes at a time. */
#define MANY_CHUNKS	16
#define MANY_LANES	256

/* The lanes in order of block count, longest first, so that a group's
 * lanes end together; slot[i] is where lane i went. */
static void
by_blocks(const struct ms_b3_lane *l, size_t n, struct ms_b3_lane *sorted,
    size_t *slot)
{
	size_t put = 0;

	for (unsigned blocks = 16; blocks > 0; blocks--)
		for (size_t i = 0; i < n; i++)
			if (l[i].blocks == blocks) {
				slot[i] = put;
				sorted[put++] = l[i];
			}
}

/*
 * The chunks of as many messages from msg[from] on as fit in MANY_LANES
 * lanes, a lane each, then their parents level by level, also a lane
 * each: at every level a message's nodes pair from the left and an odd
 * last one goes up alone, which is the tree of the specification (the
 * left subtree the largest power of two of chunks); the pair that leaves
 * one node is the root.  Returns the index after the last message taken;
 * those of more than MANY_CHUNKS chunks are skipped.
 */
static size_t
many_slab(const struct ms_blake3 *proto, ms_b3_lanes_fn *lanes, size_t from,
    size_t cnt, const uint8_t *const msg[], const size_t len[],
    uint8_t *const out[], bool done[])
{
	struct ms_b3_lane lane[MANY_LANES], sorted[MANY_LANES];
	uint8_t last[MANY_LANES][64], cvs[MANY_LANES * 32];
	uint8_t node[MANY_LANES][32];	/* this level's nodes, by lane */
	uint8_t carry[MANY_LANES][32];	/* a message's odd last node */
	size_t first[MANY_LANES], made[MANY_LANES], slot[MANY_LANES];
	bool carried[MANY_LANES];
	size_t nl = 0, i;

	for (i = from; i < cnt && i - from < MANY_LANES; i++) {
		size_t n = len[i] == 0 ? 1 :
		    (len[i] + MS_BLAKE3_CHUNK_LEN - 1) / MS_BLAKE3_CHUNK_LEN;

		made[i - from] = 0;
		carried[i - from] = false;
		if (n > MANY_CHUNKS)
			continue;
		if (nl + n > MANY_LANES)
			break;
		first[i - from] = nl;
		made[i - from] = n;
		for (size_t c = 0; c < n; c++, nl++) {
			struct ms_b3_lane *l = &lane[nl];
			size_t off = c * MS_BLAKE3_CHUNK_LEN;
			size_t clen = c + 1 < n ? MS_BLAKE3_CHUNK_LEN : len[i] - off;
			size_t blocks = clen == 0 ? 1 : (clen + 63) / 64;

			l->p = msg[i] + off;
			l->counter = c;
			l->blocks = (uint8_t)blocks;
			l->last_len = (uint8_t)(clen - 64 * (blocks - 1));
			l->start = B3_CHUNK_START;
			l->end = B3_CHUNK_END | (n == 1 ? B3_ROOT : 0);
			memset(last[nl], 0, 64);
			memcpy(last[nl], l->p + 64 * (blocks - 1), l->last_len);
			l->last = last[nl];
		}
	}
	while (nl > 0) {
		size_t np = 0;

		by_blocks(lane, nl, sorted, slot);
		lanes(sorted, nl, proto->key, proto->flags, cvs);
		for (size_t k = 0; k < nl; k++)
			memcpy(node[k], cvs + 32 * slot[k], 32);
		/* A message's nodes at this level: the lanes it made, then a
		 * node carried up alone.  One node is the digest; else pairs
		 * from the left make the next level. */
		for (size_t m = 0; m < i - from; m++) {
			size_t n = made[m] + carried[m], at = first[m];

			if (made[m] == 0)
				continue;
			if (n == 1) {
				memcpy(out[from + m], node[at], 32);
				done[from + m] = true;
				made[m] = 0;
				continue;
			}
			first[m] = np;
			for (size_t c = 0; c + 1 < n; c += 2, np++) {
				memcpy(last[np], c < made[m] ? node[at + c] :
				    carry[m], 32);
				memcpy(last[np] + 32, c + 1 < made[m] ?
				    node[at + c + 1] : carry[m], 32);
				lane[np] = (struct ms_b3_lane){ .p = last[np],
				    .last = last[np], .blocks = 1, .last_len = 64,
				    .end = B3_PARENT | (n == 2 ? B3_ROOT : 0) };
			}
			if (n % 2 == 1 && !carried[m])
				memcpy(carry[m], node[at + n - 1], 32);
			carried[m] = n % 2 == 1;
			made[m] = n / 2;
		}
		nl = np;
	}
	return i;
}

void
ms_blake3_many(const struct ms_blake3 *proto, size_t cnt,
    const uint8_t *const msg[], const size_t len[], uint8_t *const out[],
    bool done[])
{
	ms_b3_lanes_fn *lanes = kernel()->lanes;

	for (size_t k = 0; k < cnt; k++)
		done[k] = false;
	if (lanes == NULL || proto->buf_len != 0 || proto->chunk_counter != 0)
		return;
	for (size_t i = 0; i < cnt;)
		i = many_slab(proto, lanes, i, cnt, msg, len, out, done);
}

/* The whole open chunk is not the last: compress it alone. */
static void
close_chunk(struct ms_blake3 *h)
{
	ms_b3_one_fn *one = kernel()->one;
	uint32_t cv[8];
	uint8_t out[32];

	memcpy(cv, h->key, sizeof(cv));
	for (size_t b = 0; b < MS_BLAKE3_CHUNK_LEN; b += 64)
		compress_cv(one, cv, h->buf + b, 64, h->chunk_counter, h->flags |
		    (b == 0 ? B3_CHUNK_START : 0) |
		    (b + 64 == MS_BLAKE3_CHUNK_LEN ? B3_CHUNK_END : 0));
	cv_bytes(out, cv);
	h->chunk_counter++;
	push_cv(h, out, h->chunk_counter);
	h->buf_len = 0;
}

void
ms_blake3_join(struct ms_blake3 *h, const uint8_t cv[MS_BLAKE3_OUT_LEN],
    uint64_t off, size_t len)
{
	/* The open chunk is whole and, as a part follows, not the last. */
	if (h->buf_len == MS_BLAKE3_CHUNK_LEN)
		close_chunk(h);
	if (h->buf_len != 0 ||
	    h->chunk_counter * MS_BLAKE3_CHUNK_LEN != off ||
	    !ms_blake3_part_ok(off, len))
		ms_bug("blake3: a join out of order");
	h->chunk_counter += len / MS_BLAKE3_CHUNK_LEN;
	push_cv(h, cv, h->chunk_counter);
}

/* ------------------------------------------------- parts of other runs */

/*
 * A part of a run of its own starts a hasher at chunk c = off / 1 KiB:
 * its stack is entered as if it held the popcount(c) subtrees of the
 * bytes before off, which it never sees, so that push_cv merges exactly
 * as one hasher over the whole input would.  Those entries are never
 * read while the part keeps within its place: push_cv merges below them
 * only until the part's chunks number the lowest power of two in c, and
 * the part's last chunk stays open.
 */
void
ms_blake3_begin_at(struct ms_blake3 *h, uint64_t off)
{
	h->chunk_counter = off / MS_BLAKE3_CHUNK_LEN;
	h->stack_len = (uint8_t)__builtin_popcountll(h->chunk_counter);
	memset(h->stack, 0, (size_t)h->stack_len * MS_BLAKE3_OUT_LEN);
}

size_t
ms_blake3_save(const struct ms_blake3 *h, uint64_t off, uint8_t *out)
{
	size_t below = (size_t)__builtin_popcountll(off / MS_BLAKE3_CHUNK_LEN);
	size_t k = h->stack_len - below;

	memcpy(out, h->stack[below], k * MS_BLAKE3_OUT_LEN);
	memcpy(out + k * MS_BLAKE3_OUT_LEN, h->buf, h->buf_len);
	return k * MS_BLAKE3_OUT_LEN + h->buf_len;
}

int
ms_blake3_restore(struct ms_blake3 *h, const uint8_t *saved, size_t n,
    uint64_t off, uint64_t len)
{
	uint64_t c = off / MS_BLAKE3_CHUNK_LEN, whole, held;
	size_t k;

	if (len == 0)
		return n == 0 ? 0 : -1;
	/* the part's whole chunks before its last, which stays open */
	whole = (len - 1) / MS_BLAKE3_CHUNK_LEN;
	held = len - whole * MS_BLAKE3_CHUNK_LEN;
	k = (size_t)__builtin_popcountll(whole);
	if (off % MS_BLAKE3_CHUNK_LEN != 0 ||
	    (c != 0 && whole >= (c & -c)) ||
	    n != k * MS_BLAKE3_OUT_LEN + held)
		return -1;
	/* the part before, held open, was not the last */
	if (h->buf_len == MS_BLAKE3_CHUNK_LEN)
		close_chunk(h);
	if (h->buf_len != 0 || h->chunk_counter != c ||
	    h->stack_len + k > MS_BLAKE3_MAX_DEPTH)
		return -1;
	memcpy(h->stack[h->stack_len], saved, k * MS_BLAKE3_OUT_LEN);
	h->stack_len = (uint8_t)(h->stack_len + k);
	h->chunk_counter += whole;
	memcpy(h->buf, saved + k * MS_BLAKE3_OUT_LEN, (size_t)held);
	h->buf_len = (uint16_t)held;
	return 0;
}

/* Chunks that go with a held whole chunk into one kernel call: a full
 * AVX-512 group, copied (15 KiB) rather than compressing it alone. */
#define WITH_HELD	16

void
ms_blake3_update(struct ms_blake3 *h, const void *data, size_t n)
{
	const uint8_t *p = data;
	ms_b3_many_fn *many = kernel()->many;

	while (n > 0) {
		if (h->buf_len == MS_BLAKE3_CHUNK_LEN &&
		    n > (WITH_HELD - 1) * MS_BLAKE3_CHUNK_LEN) {
			uint8_t group[WITH_HELD * MS_BLAKE3_CHUNK_LEN];
			size_t more = (WITH_HELD - 1) * MS_BLAKE3_CHUNK_LEN;

			memcpy(group, h->buf, MS_BLAKE3_CHUNK_LEN);
			memcpy(group + MS_BLAKE3_CHUNK_LEN, p, more);
			h->buf_len = 0;
			add_chunks(h, many, group, WITH_HELD);
			p += more;
			n -= more;
			continue;
		}
		if (h->buf_len == MS_BLAKE3_CHUNK_LEN)
			close_chunk(h);
		if (h->buf_len == 0 && n > MS_BLAKE3_CHUNK_LEN) {
			/* Whole chunks, always leaving input for the open
			 * chunk so that none of them is the root; a batch ends
			 * where an aligned one would, so that the next ones are
			 * whole subtrees again after a held chunk's group, each
			 * reduced at full width with one merge onto the stack
			 * (misaligned, 256 chunks were four subtrees and four
			 * merges of one block alone). */
			size_t k = (n - 1) / MS_BLAKE3_CHUNK_LEN;
			size_t room = BATCH_MAX -
			    (size_t)(h->chunk_counter % BATCH_MAX);

			if (k > room)
				k = room;
			add_chunks(h, many, p, k);
			p += k * MS_BLAKE3_CHUNK_LEN;
			n -= k * MS_BLAKE3_CHUNK_LEN;
			continue;
		}
		size_t take = MS_BLAKE3_CHUNK_LEN - h->buf_len;

		if (take > n)
			take = n;
		memcpy(h->buf + h->buf_len, p, take);
		h->buf_len += (uint16_t)take;
		p += take;
		n -= take;
	}
}

void
ms_blake3_final(const struct ms_blake3 *h, uint8_t *out, size_t len)
{
	/* The root node's inputs: compressed once per 64 output bytes. */
	ms_b3_one_fn *one = kernel()->one;
	uint32_t cv[8];
	uint8_t block[64];
	uint8_t block_len, flags;
	uint32_t v[16];

	size_t last = h->buf_len == 0 ? 0 : (h->buf_len - 1u) / 64 * 64;
	uint64_t counter = h->chunk_counter;

	/* The open chunk but its last block, which may be the root. */
	memcpy(cv, h->key, sizeof(cv));
	flags = h->flags | B3_CHUNK_START;
	for (size_t b = 0; b < last; b += 64) {
		compress_cv(one, cv, h->buf + b, 64, counter, flags);
		flags = h->flags;
	}
	flags |= B3_CHUNK_END;
	block_len = (uint8_t)(h->buf_len - last);
	memset(block, 0, sizeof(block));
	memcpy(block, h->buf + last, block_len);

	for (size_t i = h->stack_len; i > 0; i--) {
		uint8_t right[32];

		compress_cv(one, cv, block, block_len, counter, flags);
		cv_bytes(right, cv);
		memcpy(block, h->stack[i - 1], 32);
		memcpy(block + 32, right, 32);
		memcpy(cv, h->key, sizeof(cv));
		block_len = 64;
		counter = 0;
		flags = h->flags | B3_PARENT;
	}
	for (uint64_t t = 0; len > 0; t++) {
		uint8_t o[64];
		size_t take = len < 64 ? len : 64;

		one(cv, block, block_len, t, flags | B3_ROOT, v);
		for (int i = 0; i < 8; i++) {
			store32(o + 4 * i, v[i] ^ v[i + 8]);
			store32(o + 32 + 4 * i, v[i + 8] ^ cv[i]);
		}
		memcpy(out, o, take);
		out += take;
		len -= take;
	}
}

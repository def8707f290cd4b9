/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * backend_blake3.c - the "blake3" algorithm row on the built-in BLAKE3
 * (blake3.c): any output length, and the keyed or derive_key mode of the
 * spec's parameters (digest_params.h).
 *
 * A state keeps its mode and key from the spec it was made for, so
 * threads share nothing but read-only data.  The parts of --part are
 * the kernel's subtrees, saved and restored (blake3.h).  Needs no library; its level
 * table (ops.levels) is all there is to load.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "digest/backend.h"
#include "digest/state_create.h"
#include "kernels/blake3.h"
#include "base/util.h"

_Static_assert(MS_KEY_BLAKE3 == MS_BLAKE3_KEY_LEN, "the key file's length");

struct state {
	struct ms_blake3 h;
	uint64_t	 off;		/* --part: where the part starts */
	size_t		 len;
	enum ms_key_mode mode;
	uint8_t		 key[MS_BLAKE3_KEY_LEN];	/* key or context key */
};

/* The mode and key (the context key for derive_key) of a spec. */
static enum ms_key_mode
mode_of(const struct ms_digest_spec *spec, uint8_t key[MS_BLAKE3_KEY_LEN])
{
	const struct ms_digest_params *p = &spec->param;

	if (p->key_mode == MS_KEY_KEYED) {
		if (p->key_len != MS_BLAKE3_KEY_LEN)
			ms_bug("blake3: a key that is not 32 bytes");
		memcpy(key, p->key, MS_BLAKE3_KEY_LEN);
	} else if (p->key_mode == MS_KEY_DERIVE)
		ms_blake3_context_key(p->context, strlen(p->context), key);
	return p->key_mode;
}

static void
start(struct ms_blake3 *h, enum ms_key_mode mode,
    const uint8_t key[MS_BLAKE3_KEY_LEN])
{
	switch (mode) {
	case MS_KEY_NONE:   ms_blake3_init(h); break;
	case MS_KEY_KEYED:  ms_blake3_init_keyed(h, key); break;
	case MS_KEY_DERIVE: ms_blake3_init_derived(h, key); break;
	}
}

static bool
blake3_part_ok(uint64_t off, size_t len)
{
	return ms_blake3_part_ok(off, len);
}

/* A part is 1 KiB to 16 MiB: a context key of its own is nothing. */
static void
blake3_part(const struct ms_digest_spec *spec, const void *p, size_t len,
    uint64_t off, unsigned char *out)
{
	struct ms_blake3 proto;
	uint8_t key[MS_BLAKE3_KEY_LEN];

	start(&proto, mode_of(spec, key), key);
	ms_blake3_part(&proto, p, len, off, out);
}

static void
blake3_join(void *state, const unsigned char *v, uint64_t off, size_t len)
{
	struct state *s = state;

	ms_blake3_join(&s->h, v, off, len);
}

static bool
blake3_make(void *state, const struct ms_digest_spec *spec)
{
	struct state *s = state;

	s->len = ms_spec_len(spec);
	s->mode = mode_of(spec, s->key);
	return true;
}

static void
blake3_init(void *state)
{
	struct state *s = state;

	start(&s->h, s->mode, s->key);
}

static void
blake3_update(void *state, const void *p, size_t n)
{
	struct state *s = state;

	ms_blake3_update(&s->h, p, n);
}

static void
blake3_final(void *state, unsigned char *out)
{
	struct state *s = state;

	ms_blake3_final(&s->h, out, s->len);
}

/* Small files side by side: 32-byte digests only (longer ones are the
 * root's extended output, which the lanes do not make). */
static void
blake3_many(const struct ms_digest_spec *spec, size_t cnt,
    const unsigned char *const msg[], const size_t len[],
    unsigned char *const out[], bool done[])
{
	struct ms_blake3 proto;
	uint8_t key[MS_BLAKE3_KEY_LEN];

	if (ms_spec_len(spec) != MS_BLAKE3_OUT_LEN) {
		for (size_t i = 0; i < cnt; i++)
			done[i] = false;
		return;
	}
	start(&proto, mode_of(spec, key), key);
	ms_blake3_many(&proto, cnt, msg, len, out, done);
}

/* ------------------------------------------------------ --part, saved */

/* A part is whole chunks, a subtree: a power of two of them. */
static uint64_t
blake3_align_chunk(const struct ms_digest_spec *spec)
{
	(void)spec;
	return MS_BLAKE3_CHUNK_LEN;
}

static void
blake3_part_begin(void *state, uint64_t off)
{
	struct state *s = state;

	s->off = off;
	ms_blake3_begin_at(&s->h, off);
}

static void
blake3_part_save(void *state, struct ms_bytes *out)
{
	struct state *s = state;
	uint8_t buf[MS_BLAKE3_SAVED_MAX];

	ms_bytes_add(out, buf, ms_blake3_save(&s->h, s->off, buf));
}

static int
blake3_part_join(void *state, const unsigned char *p, size_t n, uint64_t off,
    uint64_t len)
{
	struct state *s = state;

	return ms_blake3_restore(&s->h, p, n, off, len);
}

/* Loading settles the SIMD level, which --debug and --list-algorithms
 * name. */
const struct ms_digest_ops ms_ops_blake3 = {
	.backend = "built-in", .create = ms_state_create,
	.state_size = sizeof(struct state), .make = blake3_make,
	.init = blake3_init,
	.update = blake3_update, .final = blake3_final,
	.destroy = free,
	.levels = &ms_blake3_levels, .many = blake3_many,
};

const struct ms_tree_ops ms_tree_blake3 = {
	blake3_part_ok, blake3_part, blake3_join
};

const struct ms_compose_ops ms_compose_blake3 = {
	.align = blake3_align_chunk, .pow2 = true, .begin = blake3_part_begin,
	.save = blake3_part_save, .join = blake3_part_join,
};

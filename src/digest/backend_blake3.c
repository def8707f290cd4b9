/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * backend_blake3.c - the "blake3" algorithm row on the built-in BLAKE3
 * (blake3.c): any output length, and the keyed or derive_key mode chosen
 * once for the run.
 *
 * Owns that mode: set by the options before the first state is created
 * and read-only afterwards, so threads may share it.  Needs no library;
 * load only settles the SIMD level, which variant() reports for --debug
 * and --list-algorithms.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "digest/backend.h"
#include "kernels/blake3.h"
#include "base/util.h"

static enum { PLAIN, KEYED, DERIVED } mode;
static uint8_t mode_key[MS_BLAKE3_KEY_LEN];	/* key or context key */

void
ms_blake3_row_keyed(const uint8_t key[MS_BLAKE3_KEY_LEN])
{
	mode = KEYED;
	memcpy(mode_key, key, sizeof(mode_key));
}

void
ms_blake3_row_derive_key(const char *context)
{
	mode = DERIVED;
	ms_blake3_context_key(context, strlen(context), mode_key);
}

int
ms_blake3_row_key_file(const char *path)
{
	const char *name = path != NULL ? path : "standard input";
	uint8_t key[MS_BLAKE3_KEY_LEN + 1];
	size_t got = 0;
	int fd = path != NULL ? open(path, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;

	if (fd == -1) {
		ms_warn("%s: %s", name, strerror(errno));
		return -1;
	}
	/* One byte more than a key, to tell a longer file. */
	while (got < sizeof(key)) {
		ssize_t n = read(fd, key + got, sizeof(key) - got);

		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			ms_warn("%s: %s", name, strerror(errno));
			if (path != NULL)
				close(fd);
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (path != NULL)
		close(fd);
	if (got != MS_BLAKE3_KEY_LEN) {
		ms_warn("%s: a BLAKE3 key is exactly 32 bytes", name);
		return -1;
	}
	ms_blake3_row_keyed(key);
	return 0;
}

struct state {
	struct ms_blake3 h;
	size_t		 len;
};

static void
start(struct ms_blake3 *h)
{
	switch (mode) {
	case PLAIN:   ms_blake3_init(h); break;
	case KEYED:   ms_blake3_init_keyed(h, mode_key); break;
	case DERIVED: ms_blake3_init_derived(h, mode_key); break;
	}
}

static bool
part_ok(uint64_t off, size_t len)
{
	return ms_blake3_part_ok(off, len);
}

static void
part(const struct ms_digest_spec *spec, const void *p, size_t len,
    uint64_t off, unsigned char *out)
{
	struct ms_blake3 proto;

	(void)spec;
	start(&proto);
	ms_blake3_part(&proto, p, len, off, out);
}

static void
join(void *state, const unsigned char *v, uint64_t off, size_t len)
{
	struct state *s = state;

	ms_blake3_join(&s->h, v, off, len);
}

static int
load(const struct ms_algo *a)
{
	const char *why;

	(void)a;
	if (ms_blake3_simd_setup(&why) == -1) {
		ms_warn("%s", why);
		return -1;
	}
	return 0;
}

static void *
create(const struct ms_digest_spec *spec)
{
	struct state *s = malloc(sizeof(*s));

	if (s != NULL)
		s->len = ms_spec_len(spec);
	return s;
}

static void
init(void *state)
{
	struct state *s = state;

	start(&s->h);
}

static void
update(void *state, const void *p, size_t n)
{
	struct state *s = state;

	ms_blake3_update(&s->h, p, n);
}

static void
final(void *state, unsigned char *out)
{
	struct state *s = state;

	ms_blake3_final(&s->h, out, s->len);
}

static void
destroy(void *state)
{
	free(state);
}

/* The SIMD level that runs. */
static const char *
variant(const struct ms_digest_spec *s)
{
	(void)s;
	return ms_blake3_simd_name(ms_blake3_simd());
}

const struct ms_digest_ops ms_ops_blake3 = {
	"built-in", load, create, init, update, final, destroy, NULL, variant,
	NULL,
};

const struct ms_tree_ops ms_tree_blake3 = { part_ok, part, join };

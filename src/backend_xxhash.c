/*
 * backend_xxhash.c - XXH32, XXH64, XXH3 (64-bit) and XXH128 through
 * libxxhash, with seed 0 and the canonical (big-endian) output that
 * xxhsum prints.
 *
 * libxxhash is small and has no dependencies, so it is linked directly.
 * A row's impl field names the variant: "xxh32", "xxh64", "xxh3", "xxh128".
 */
#include <xxhash.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "util.h"

enum variant { X32, X64, X3, X128 };

struct state {
	enum variant	 v;
	union {
		XXH32_state_t	*s32;
		XXH64_state_t	*s64;
		XXH3_state_t	*s3;	/* both XXH3 widths */
	} u;
};

static int
load(const struct ms_algo *a)
{
	(void)a;
	return 0;
}

static void *
create(const struct ms_algo *a, size_t len)
{
	static const char *const names[] = {
		[X32] = "xxh32", [X64] = "xxh64", [X3] = "xxh3", [X128] = "xxh128",
	};
	struct state *s = malloc(sizeof(*s));
	void *lib_state = NULL;
	size_t v;

	(void)len;
	if (s == NULL)
		return NULL;
	for (v = 0; v < MS_ARRAY_LEN(names); v++)
		if (strcmp(a->impl, names[v]) == 0)
			break;
	s->v = (enum variant)v;
	switch (s->v) {
	case X32:  lib_state = s->u.s32 = XXH32_createState(); break;
	case X64:  lib_state = s->u.s64 = XXH64_createState(); break;
	case X3:
	case X128: lib_state = s->u.s3 = XXH3_createState(); break;
	default:   ms_bug("xxhash: unknown variant");
	}
	if (lib_state == NULL) {
		free(s);
		return NULL;
	}
	return s;
}

static void
init(void *state)
{
	struct state *s = state;
	XXH_errorcode rc = XXH_ERROR;

	switch (s->v) {
	case X32:  rc = XXH32_reset(s->u.s32, 0); break;
	case X64:  rc = XXH64_reset(s->u.s64, 0); break;
	case X3:   rc = XXH3_64bits_reset(s->u.s3); break;
	case X128: rc = XXH3_128bits_reset(s->u.s3); break;
	}
	if (rc != XXH_OK)
		ms_bug("xxhash reset");
}

static void
update(void *state, const void *p, size_t n)
{
	struct state *s = state;
	XXH_errorcode rc = XXH_ERROR;

	switch (s->v) {
	case X32:  rc = XXH32_update(s->u.s32, p, n); break;
	case X64:  rc = XXH64_update(s->u.s64, p, n); break;
	case X3:   rc = XXH3_64bits_update(s->u.s3, p, n); break;
	case X128: rc = XXH3_128bits_update(s->u.s3, p, n); break;
	}
	if (rc != XXH_OK)
		ms_bug("xxhash update");
}

static void
final(void *state, unsigned char *out)
{
	struct state *s = state;

	switch (s->v) {
	case X32: {
		XXH32_canonical_t c;
		XXH32_canonicalFromHash(&c, XXH32_digest(s->u.s32));
		memcpy(out, &c, sizeof(c));
		break;
	}
	case X64: {
		XXH64_canonical_t c;
		XXH64_canonicalFromHash(&c, XXH64_digest(s->u.s64));
		memcpy(out, &c, sizeof(c));
		break;
	}
	case X3: {
		XXH64_canonical_t c;
		XXH64_canonicalFromHash(&c, XXH3_64bits_digest(s->u.s3));
		memcpy(out, &c, sizeof(c));
		break;
	}
	case X128: {
		XXH128_canonical_t c;
		XXH128_canonicalFromHash(&c, XXH3_128bits_digest(s->u.s3));
		memcpy(out, &c, sizeof(c));
		break;
	}
	}
}

static void
destroy(void *state)
{
	struct state *s = state;

	if (s == NULL)
		return;
	switch (s->v) {
	case X32:  XXH32_freeState(s->u.s32); break;
	case X64:  XXH64_freeState(s->u.s64); break;
	case X3:
	case X128: XXH3_freeState(s->u.s3); break;
	}
	free(s);
}

static const char *
version(void)
{
	static char buf[16];
	unsigned v = XXH_versionNumber();

	snprintf(buf, sizeof(buf), "%u.%u.%u", v / 10000, v / 100 % 100, v % 100);
	return buf;
}

const struct ms_digest_ops ms_ops_xxhash = {
	"libxxhash", load, create, init, update, final, destroy, version,
};

/*
 * backend_xxhash.c - XXH32, XXH64, XXH3 (64-bit) and XXH128 through
 * libxxhash, with seed 0 and the canonical (big-endian) output that
 * xxhsum prints.
 *
 * Owns the lazy load of libxxhash: small as it is, mapping it costs every
 * run that does not use it some 25 us (4% of a bare start).  A row's
 * impl field names the variant: "xxh32", "xxh64", "xxh3", "xxh128".
 */
#include <xxhash.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "lazylib.h"
#include "util.h"

#ifndef MS_SONAME_XXHASH
#error "configure must define MS_SONAME_XXHASH"
#endif

static struct {
	__typeof__(XXH_versionNumber)		*XXH_versionNumber;
	__typeof__(XXH32_createState)		*XXH32_createState;
	__typeof__(XXH32_freeState)		*XXH32_freeState;
	__typeof__(XXH32_reset)			*XXH32_reset;
	__typeof__(XXH32_update)		*XXH32_update;
	__typeof__(XXH32_digest)		*XXH32_digest;
	__typeof__(XXH32_canonicalFromHash)	*XXH32_canonicalFromHash;
	__typeof__(XXH64_createState)		*XXH64_createState;
	__typeof__(XXH64_freeState)		*XXH64_freeState;
	__typeof__(XXH64_reset)			*XXH64_reset;
	__typeof__(XXH64_update)		*XXH64_update;
	__typeof__(XXH64_digest)		*XXH64_digest;
	__typeof__(XXH64_canonicalFromHash)	*XXH64_canonicalFromHash;
	__typeof__(XXH3_createState)		*XXH3_createState;
	__typeof__(XXH3_freeState)		*XXH3_freeState;
	__typeof__(XXH3_64bits_reset)		*XXH3_64bits_reset;
	__typeof__(XXH3_64bits_update)		*XXH3_64bits_update;
	__typeof__(XXH3_64bits_digest)		*XXH3_64bits_digest;
	__typeof__(XXH3_128bits_reset)		*XXH3_128bits_reset;
	__typeof__(XXH3_128bits_update)		*XXH3_128bits_update;
	__typeof__(XXH3_128bits_digest)		*XXH3_128bits_digest;
	__typeof__(XXH128_canonicalFromHash)	*XXH128_canonicalFromHash;
} xx;

static const struct ms_lazy_sym syms[] = {
	MS_LAZY_SYM(xx, XXH_versionNumber),
	MS_LAZY_SYM(xx, XXH32_createState), MS_LAZY_SYM(xx, XXH32_freeState),
	MS_LAZY_SYM(xx, XXH32_reset), MS_LAZY_SYM(xx, XXH32_update),
	MS_LAZY_SYM(xx, XXH32_digest), MS_LAZY_SYM(xx, XXH32_canonicalFromHash),
	MS_LAZY_SYM(xx, XXH64_createState), MS_LAZY_SYM(xx, XXH64_freeState),
	MS_LAZY_SYM(xx, XXH64_reset), MS_LAZY_SYM(xx, XXH64_update),
	MS_LAZY_SYM(xx, XXH64_digest), MS_LAZY_SYM(xx, XXH64_canonicalFromHash),
	MS_LAZY_SYM(xx, XXH3_createState), MS_LAZY_SYM(xx, XXH3_freeState),
	MS_LAZY_SYM(xx, XXH3_64bits_reset), MS_LAZY_SYM(xx, XXH3_64bits_update),
	MS_LAZY_SYM(xx, XXH3_64bits_digest), MS_LAZY_SYM(xx, XXH3_128bits_reset),
	MS_LAZY_SYM(xx, XXH3_128bits_update), MS_LAZY_SYM(xx, XXH3_128bits_digest),
	MS_LAZY_SYM(xx, XXH128_canonicalFromHash),
};

static struct ms_lazy_lib libxxhash = {
	.soname = MS_SONAME_XXHASH, .syms = syms, .cnt = MS_ARRAY_LEN(syms),
};

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
	static bool dispatched;

	(void)a;
	if (ms_lazy_load(&libxxhash) == -1)
		return -1;
	if (!dispatched) {
		/*
		 * On x86 the library also exports XXH3 updates that pick AVX2
		 * or AVX-512 at run time; the plain ones are built for the
		 * baseline (SSE2).  Same state, same result, and on 1 GiB
		 * xxh3 -j 1 goes from 10.4 to NN GB/s here.
		 */
		void *p64 = ms_lazy_optional(&libxxhash, "XXH3_64bits_update_dispatch");
		void *p128 = ms_lazy_optional(&libxxhash, "XXH3_128bits_update_dispatch");

		if (p64 != NULL && p128 != NULL) {
			*(void **)&xx.XXH3_64bits_update = p64;
			*(void **)&xx.XXH3_128bits_update = p128;
		}
		dispatched = true;
	}
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
	case X32:  lib_state = s->u.s32 = xx.XXH32_createState(); break;
	case X64:  lib_state = s->u.s64 = xx.XXH64_createState(); break;
	case X3:
	case X128: lib_state = s->u.s3 = xx.XXH3_createState(); break;
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
	case X32:  rc = xx.XXH32_reset(s->u.s32, 0); break;
	case X64:  rc = xx.XXH64_reset(s->u.s64, 0); break;
	case X3:   rc = xx.XXH3_64bits_reset(s->u.s3); break;
	case X128: rc = xx.XXH3_128bits_reset(s->u.s3); break;
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
	case X32:  rc = xx.XXH32_update(s->u.s32, p, n); break;
	case X64:  rc = xx.XXH64_update(s->u.s64, p, n); break;
	case X3:   rc = xx.XXH3_64bits_update(s->u.s3, p, n); break;
	case X128: rc = xx.XXH3_128bits_update(s->u.s3, p, n); break;
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
		xx.XXH32_canonicalFromHash(&c, xx.XXH32_digest(s->u.s32));
		memcpy(out, &c, sizeof(c));
		break;
	}
	case X64: {
		XXH64_canonical_t c;
		xx.XXH64_canonicalFromHash(&c, xx.XXH64_digest(s->u.s64));
		memcpy(out, &c, sizeof(c));
		break;
	}
	case X3: {
		XXH64_canonical_t c;
		xx.XXH64_canonicalFromHash(&c, xx.XXH3_64bits_digest(s->u.s3));
		memcpy(out, &c, sizeof(c));
		break;
	}
	case X128: {
		XXH128_canonical_t c;
		xx.XXH128_canonicalFromHash(&c, xx.XXH3_128bits_digest(s->u.s3));
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
	case X32:  xx.XXH32_freeState(s->u.s32); break;
	case X64:  xx.XXH64_freeState(s->u.s64); break;
	case X3:
	case X128: xx.XXH3_freeState(s->u.s3); break;
	}
	free(s);
}

static const char *
version(void)
{
	static char buf[16];
	unsigned v;

	if (ms_lazy_load(&libxxhash) == -1)
		return NULL;
	v = xx.XXH_versionNumber();

	snprintf(buf, sizeof(buf), "%u.%u.%u", v / 10000, v / 100 % 100, v % 100);
	return buf;
}

const struct ms_digest_ops ms_ops_xxhash = {
	"libxxhash", load, create, init, update, final, destroy, version,
};

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * backend_missing.c - stand-ins for the backends configure left out.
 *
 * configure --without-libb2 or --without-libxxhash drops backend_blake2.c
 * or backend_xxhash.c from the build.  The algorithm rows stay as they
 * are; what they point to is here instead: an operation table whose
 * backend name says which library is missing (--list-algorithms shows
 * it) and whose load refuses with one line naming the algorithm and the
 * library.  (--without-libarchive's stand-in is io/archive_missing.c.)
 */
#include <stddef.h>

#include "base/util.h"

#if !MS_HAVE_LIBB2 || !MS_HAVE_LIBXXHASH
#include "digest/backend.h"

static int
refuse(const struct ms_algo *a, const char *lib)
{
	ms_warn("%s: this multisum was built without %s (configure "
	    "--without-%s)", a->name, lib, lib);
	return -1;
}
#endif

#if !MS_HAVE_LIBB2
static int
refuse_b2(const struct ms_algo *a)
{
	return refuse(a, "libb2");
}

#define NO_B2	{ .backend = "(no libb2)", .load = refuse_b2 }
const struct ms_digest_ops ms_ops_blake2b = NO_B2;
const struct ms_digest_ops ms_ops_blake2s = NO_B2;
const struct ms_digest_ops ms_ops_blake2bp = NO_B2;
const struct ms_digest_ops ms_ops_blake2sp = NO_B2;
#endif

#if !MS_HAVE_LIBXXHASH
static int
refuse_xxhash(const struct ms_algo *a)
{
	return refuse(a, "libxxhash");
}

#define NO_XXH	{ .backend = "(no libxxhash)", .load = refuse_xxhash }
const struct ms_digest_ops ms_ops_xxh32 = NO_XXH;
const struct ms_digest_ops ms_ops_xxh64 = NO_XXH;
const struct ms_digest_ops ms_ops_xxh3 = NO_XXH;
const struct ms_digest_ops ms_ops_xxh128 = NO_XXH;
#endif

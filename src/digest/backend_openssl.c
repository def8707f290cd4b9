/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * backend_openssl.c - digests computed by OpenSSL's libcrypto (EVP).
 *
 * Owns the lazy load of libcrypto, its initialisation without the config
 * file, and the one EVP_MD_fetch per algorithm per run.  A row's impl
 * field is the name EVP knows it by.  Fetched digests live until exit.
 * MD4 lives in OpenSSL's legacy provider, which its row's ops
 * (ms_ops_openssl_legacy) load first; no other run maps legacy.so.
 */
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#include "digest/backend.h"
#include "digest/state_create.h"
#include "digest/openssl.h"
#include "base/lazylib.h"
#include "base/util.h"

/* The libcrypto functions this file calls, resolved on first use. */
#define EVP_FUNCS(X, t) \
	X(t, OPENSSL_init_crypto) X(t, OpenSSL_version) X(t, EVP_MD_fetch) \
	X(t, EVP_MD_CTX_new) X(t, EVP_MD_CTX_free) X(t, EVP_DigestInit_ex2) \
	X(t, EVP_DigestUpdate) X(t, EVP_DigestFinal_ex) \
	X(t, EVP_DigestFinalXOF) X(t, EVP_MD_get_flags) \
	X(t, OSSL_PROVIDER_load)
MS_LAZY_LIB(libcrypto, MS_SONAME_CRYPTO, evp, EVP_FUNCS);

/*
 * Digests fetched so far, by row.  load() appends under ms_spec_load's
 * lock, maybe while workers make states of rows loaded before (check
 * mode loads as it meets algorithms): an entry is written before the
 * count that publishes it, and never changes.
 */
static struct {
	const struct ms_algo *algo;
	EVP_MD		*md;
} fetched[64];
static atomic_size_t nfetched;

/* The digest fetched for row a, or NULL. */
static EVP_MD *
fetched_md(const struct ms_algo *a)
{
	size_t n = atomic_load_explicit(&nfetched, memory_order_acquire);

	for (size_t i = 0; i < n; i++)
		if (fetched[i].algo == a)
			return fetched[i].md;
	return NULL;
}

struct state {
	EVP_MD_CTX	*ctx;
	const EVP_MD	*md;
	size_t		 len;
	bool		 xof;
};

int
ms_openssl_initialise(void)
{
	static bool initialised;

	if (ms_lazy_load(&libcrypto) == -1)
		return -1;
	if (!initialised) {
		/*
		 * Start-up costs, measured with callgrind on an empty file:
		 * no openssl.cnf (a digest tool has nothing to configure);
		 * no legacy name tables, which the first fetch would copy
		 * into the provider name map (60% of its cost: EVP fetches
		 * by the provider's own names); and no clean-up at exit,
		 * where the process frees everything anyway.
		 */
		evp.OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG |
		    OPENSSL_INIT_NO_ADD_ALL_CIPHERS |
		    OPENSSL_INIT_NO_ADD_ALL_DIGESTS | OPENSSL_INIT_NO_ATEXIT, NULL);
		initialised = true;
	}
	return 0;
}

static int
openssl_load(const struct ms_algo *a)
{
	size_t n = atomic_load_explicit(&nfetched, memory_order_relaxed);
	EVP_MD *md;

	if (fetched_md(a) != NULL)
		return 0;
	if (n == MS_ARRAY_LEN(fetched))
		ms_bug("openssl: more rows than fetched[]");
	if (ms_openssl_initialise() == -1)
		return -1;
	if ((md = evp.EVP_MD_fetch(NULL, a->impl, NULL)) == NULL) {
		ms_warn("%s: not available in this OpenSSL (%s)", a->name,
		    evp.OpenSSL_version(OPENSSL_VERSION));
		return -1;
	}
	fetched[n].algo = a;
	fetched[n].md = md;
	atomic_store_explicit(&nfetched, n + 1, memory_order_release);
	return 0;
}

/*
 * MD4: the legacy provider first, once.  Loading any
 * provider by hand stops OpenSSL from activating the default one by
 * itself, so that one is loaded too: the other rows still need it.
 */
static int
openssl_load_legacy(const struct ms_algo *a)
{
	static int loaded;	/* 0 not yet, 1 done, -1 failed */

	if (loaded == 0) {
		if (ms_openssl_initialise() == -1)
			return -1;
		loaded = evp.OSSL_PROVIDER_load(NULL, "legacy") != NULL &&
		    evp.OSSL_PROVIDER_load(NULL, "default") != NULL ? 1 : -1;
		if (loaded == -1)
			ms_warn("%s: OpenSSL's legacy provider could not be "
			    "loaded (legacy.so; %s, or $OPENSSL_MODULES)",
			    a->name, evp.OpenSSL_version(OPENSSL_MODULES_DIR));
	}
	return loaded == 1 ? openssl_load(a) : -1;
}

/* The row's fetched digest and a context for it. */
static bool
openssl_make(void *state, const struct ms_digest_spec *spec)
{
	struct state *s = state;

	s->md = fetched_md(spec->algo);
	if (s->md == NULL)
		ms_bug("openssl: digest used before load");
	s->len = ms_spec_len(spec);
	s->xof = (evp.EVP_MD_get_flags(s->md) & EVP_MD_FLAG_XOF) != 0;
	s->ctx = evp.EVP_MD_CTX_new();
	return s->ctx != NULL;
}

/* Not ms_state_create: the MD rows at level libcrypto (backend_md.c)
 * create OpenSSL states for their own specs. */
static void *
openssl_create(const struct ms_digest_spec *spec)
{
	return ms_state_create_as(&ms_ops_openssl, spec);
}

static void
openssl_init(void *state)
{
	struct state *s = state;

	if (!evp.EVP_DigestInit_ex2(s->ctx, s->md, NULL))
		ms_bug("EVP_DigestInit_ex2");
}

static void
openssl_update(void *state, const void *p, size_t n)
{
	struct state *s = state;

	if (!evp.EVP_DigestUpdate(s->ctx, p, n))
		ms_bug("EVP_DigestUpdate");
}

static void
openssl_final(void *state, unsigned char *out)
{
	struct state *s = state;
	int ok = s->xof ? evp.EVP_DigestFinalXOF(s->ctx, out, s->len)
	    : evp.EVP_DigestFinal_ex(s->ctx, out, NULL);

	if (!ok)
		ms_bug("EVP_DigestFinal");
}

static void
openssl_destroy(void *state)
{
	struct state *s = state;

	if (s != NULL)
		evp.EVP_MD_CTX_free(s->ctx);
	free(s);
}

static const char *
openssl_version(void)
{
	if (ms_lazy_load(&libcrypto) == -1)
		return NULL;
	return evp.OpenSSL_version(OPENSSL_VERSION_STRING);
}

const struct ms_digest_ops ms_ops_openssl = {
	.backend = "OpenSSL", .load = openssl_load, .create = openssl_create,
	.state_size = sizeof(struct state), .make = openssl_make,
	.init = openssl_init,
	.update = openssl_update, .final = openssl_final,
	.destroy = openssl_destroy, .version = openssl_version,
};

const struct ms_digest_ops ms_ops_openssl_legacy = {
	.backend = "OpenSSL", .load = openssl_load_legacy,
	.create = openssl_create,
	.init = openssl_init, .update = openssl_update, .final = openssl_final,
	.destroy = openssl_destroy,
	.version = openssl_version,
};

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * signature_attest.c - attestations as lists: in-toto statements in DSSE
 * envelopes (.intoto.jsonl, an envelope a line) and Sigstore bundles
 * (.sigstore.json, v0.1 to v0.3, with a dsseEnvelope).  Each envelope's
 * signature is checked with a PEM key (ECDSA P-256 over SHA-256, or
 * Ed25519) over DSSE's pre-authentication encoding, "DSSEv1 LEN(type)
 * type LEN(body) body"; then each subject becomes a line of a list, its
 * name and digests as --format=ndjson writes them, parsed as any
 * other.  A keyless bundle (a Fulcio certificate, Rekor's proofs) is
 * refused with the command that verifies it: multisum never calls one
 * verified.  Owns the reading of
 * the envelopes and statements; no I/O (the list is read by signature.c).
 */
#include "signature/signature_int.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/json_read.h"
#include "base/util.h"
#include "digest/algorithm.h"

#define INTOTO_TYPE	"application/vnd.in-toto+json"
#define BUNDLE_TYPE	"application/vnd.dev.sigstore.bundle"
#define STATEMENT_TYPE	"https://in-toto.io/Statement/v"

static bool
ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && strcmp(s + n - t, tail) == 0;
}

bool
ms_attest_named(const char *path)
{
	return ends_with(path, ".intoto.jsonl") || ms_attest_bundle(path);
}

bool
ms_attest_bundle(const char *path)
{
	return ends_with(path, ".sigstore.json") || ends_with(path, ".sigstore");
}

void *
ms_attest_key(const char *text, size_t len, const char **why)
{
	static const char head[] = "-----BEGIN PUBLIC KEY-----";
	static const char foot[] = "-----END PUBLIC KEY-----";
	char *b64 = ms_xmalloc(len + 1);
	unsigned char *der = ms_xmalloc(len + 1);
	struct ms_line_view l;
	size_t at = 0, n = 0;
	bool ended = false;
	long got;
	void *key = NULL;

	*why = "not a PEM public key (\"-----BEGIN PUBLIC KEY-----\")";
	if (!ms_text_line(text, len, &at, &l) || l.len != strlen(head) ||
	    memcmp(l.p, head, l.len) != 0)
		goto out;
	while (!ended && ms_text_line(text, len, &at, &l)) {
		ended = l.len == strlen(foot) && memcmp(l.p, foot, l.len) == 0;
		if (!ended) {
			memcpy(b64 + n, l.p, l.len);
			n += l.len;
		}
	}
	if (ended && (got = ms_unbase64(der, len, b64, n)) > 0)
		key = ms_der_pubkey(der, (size_t)got, why);
out:
	free(b64);
	free(der);
	return key;
}

struct attest {
	void		*key;		/* NULL: signatures not checked */
	FILE		*body;		/* the list's lines */
	size_t		 subjects, skipped;
	char		*why;		/* a refusal (malloc) */
};

static bool
refuse(struct attest *a, char *why)
{
	if (a->why == NULL)
		a->why = why;
	else
		free(why);
	return false;
}

/* A base64 string member into *out (malloc), *n; false if none. */
static bool
bytes(const struct ms_jdoc *d, const struct ms_jnode *o, const char *key,
    unsigned char **out, size_t *n)
{
	const char *s = ms_jread_string(d, o, key);
	long got;

	if (s == NULL)
		return false;
	*out = ms_xmalloc(strlen(s) + 1);
	got = ms_unbase64_loose(*out, strlen(s) + 1, s, strlen(s), false);
	if (got < 0)
		got = ms_unbase64_loose(*out, strlen(s) + 1, s, strlen(s), true);
	if (got < 0) {
		free(*out);
		return false;
	}
	*n = (size_t)got;
	return true;
}

/* Does one of the envelope's signatures verify over pae? */
static bool
signed_by(struct attest *a, const struct ms_jdoc *d, const struct ms_jnode *env,
    const unsigned char *pae, size_t len)
{
	const struct ms_jnode *sigs = ms_jread_member(d, env, "signatures");
	const struct ms_jnode *s;
	bool any = false;

	if (sigs == NULL || sigs->type != MS_J_ARRAY ||
	    (s = ms_jread_first(d, sigs)) == NULL)
		return refuse(a, ms_xstrdup("a DSSE envelope without signatures"));
	for (; s != NULL && a->key != NULL; s = ms_jread_next(d, s)) {
		unsigned char *sig;
		size_t n;
		int ok;

		if (!bytes(d, s, "sig", &sig, &n))
			return refuse(a, ms_xstrdup("a DSSE signature that is "
			    "not base64"));
		ok = ms_der_pubkey_verify(a->key, sig, n, pae, len);
		free(sig);
		if (ok == -1)
			return refuse(a, ms_xstrdup("libcrypto failed"));
		any |= ok == 1;
	}
	if (a->key != NULL && !any)
		return refuse(a, ms_xasprintf("no signature of the DSSE "
		    "envelope is the %s key's", ms_der_pubkey_kind(a->key)));
	return true;
}

/* One subject's digests, as lines; false (refused) if it is no subject. */
static bool
subject(struct attest *a, const struct ms_jdoc *d, const struct ms_jnode *s)
{
	const char *name = ms_jread_string(d, s, "name");
	const struct ms_jnode *dig = ms_jread_member(d, s, "digest"), *k;
	size_t n = 0;

	if (name == NULL || dig == NULL || dig->type != MS_J_OBJECT)
		return refuse(a, ms_xstrdup("a statement's subject without a "
		    "name or a digest"));
	fputs("{\"path\":", a->body);
	ms_json_string(a->body, name);
	for (k = ms_jread_first(d, dig); k != NULL; k = ms_jread_next(d, k)) {
		struct ms_digest_spec spec;
		const char *why;
		char alg[32];
		size_t i;

		/* in-toto's names: sha256, sha512_256, sha3_256, blake2b */
		for (i = 0; i < sizeof(alg) - 1 && k->key[i] != '\0'; i++)
			alg[i] = k->key[i] == '_' ? '-' : k->key[i];
		alg[i] = '\0';
		if (k->type != MS_J_STRING || k->len == 0 ||
		    strcmp(alg, "md5") == 0 || strcmp(alg, "sha1") == 0 ||
		    ms_algo_resolve(alg, (unsigned)(k->len * 4), &spec, &why) != 0 ||
		    ms_spec_len(&spec) * 2 != k->len)
			continue;
		fprintf(a->body, ",\"%s\":\"%s\"", alg, k->str);
		n++;
	}
	fputs("}\n", a->body);
	a->subjects++;
	a->skipped += n == 0;
	return true;
}

/* One DSSE envelope: its signature, then its statement's subjects. */
static bool
envelope(struct attest *a, const struct ms_jdoc *d, const struct ms_jnode *env)
{
	const char *type = ms_jread_string(d, env, "payloadType");
	const struct ms_jnode *subjects, *s;
	unsigned char *body;
	char *pae;
	size_t n, plen;
	struct ms_jdoc st;
	const char *why;
	bool ok;

	if (type == NULL || !bytes(d, env, "payload", &body, &n))
		return refuse(a, ms_xstrdup("not a DSSE envelope "
		    "(payloadType, payload, signatures)"));
	if (strcmp(type, INTOTO_TYPE) != 0) {
		free(body);
		return refuse(a, ms_xasprintf("a DSSE payload of type %s, not "
		    "an in-toto statement", type));
	}
	pae = ms_xasprintf("DSSEv1 %zu %s %zu ", strlen(type), type, n);
	plen = strlen(pae);
	pae = ms_xrealloc(pae, plen + n + 1);
	memcpy(pae + plen, body, n);
	ok = signed_by(a, d, env, (unsigned char *)pae, plen + n);
	free(pae);
	if (!ok || ms_jread((char *)body, n, &st, &why) == -1) {
		free(body);
		return ok ? refuse(a, ms_xasprintf("its in-toto statement is "
		    "not JSON: %s", why)) : false;
	}
	free(body);
	type = ms_jread_string(&st, &st.n[0], "_type");
	subjects = ms_jread_member(&st, &st.n[0], "subject");
	if (type == NULL || strncmp(type, STATEMENT_TYPE,
	    strlen(STATEMENT_TYPE)) != 0 || subjects == NULL ||
	    subjects->type != MS_J_ARRAY || subjects->kid == 0)
		ok = refuse(a, ms_xstrdup("not an in-toto statement (_type "
		    "https://in-toto.io/Statement/v1, subject)"));
	for (s = ms_jread_first(&st, subjects); ok && s != NULL;
	    s = ms_jread_next(&st, s))
		ok = subject(a, &st, s);
	ms_jread_free(&st);
	return ok;
}

/* A Sigstore bundle: keyless ones refused, a dsseEnvelope read. */
static bool
bundle(struct attest *a, const struct ms_jdoc *d, const char *path)
{
	const struct ms_jnode *root = &d->n[0];
	const char *media = ms_jread_string(d, root, "mediaType");
	const struct ms_jnode *vm = ms_jread_member(d, root,
	    "verificationMaterial");
	const struct ms_jnode *env = ms_jread_member(d, root, "dsseEnvelope");

	if (media == NULL || strncmp(media, BUNDLE_TYPE, strlen(BUNDLE_TYPE)) != 0)
		return refuse(a, ms_xstrdup("not a Sigstore bundle (mediaType "
		    BUNDLE_TYPE "...)"));
	if (vm == NULL || vm->type != MS_J_OBJECT)
		return refuse(a, ms_xstrdup("a Sigstore bundle without "
		    "verificationMaterial"));
	if (ms_jread_member(d, vm, "x509CertificateChain") != NULL ||
	    ms_jread_member(d, vm, "certificate") != NULL)
		return refuse(a, ms_xasprintf("a keyless Sigstore bundle "
		    "(a Fulcio certificate, Rekor's proofs) is not verified by "
		    "multisum: cosign verify-blob-attestation --bundle %s "
		    "--certificate-identity=ID --certificate-oidc-issuer=URL "
		    "FILE verifies it", path));
	if (ms_jread_member(d, vm, "publicKey") == NULL)
		return refuse(a, ms_xstrdup("a Sigstore bundle without a "
		    "publicKey, x509CertificateChain or certificate"));
	if (env == NULL || env->type != MS_J_OBJECT)
		return refuse(a, ms_xasprintf("a Sigstore bundle without a "
		    "dsseEnvelope (a messageSignature signs one blob: "
		    "cosign verify-blob --bundle %s FILE)", path));
	return envelope(a, d, env);
}

/* Every line of an .intoto.jsonl: one envelope each. */
static bool
lines(struct attest *a, const char *data, size_t len)
{
	struct ms_line_view l;
	size_t at = 0, nr = 0, envelopes = 0;
	bool ok = true;

	while (ok && ms_text_line(data, len, &at, &l)) {
		struct ms_jdoc d;
		const char *why;
		size_t blank = 0;

		nr++;
		/* a view of the data, not a string: no NUL need follow */
		while (blank < l.len &&
		    (l.p[blank] == ' ' || l.p[blank] == '\t'))
			blank++;
		if (blank == l.len)
			continue;
		if (ms_jread(l.p, l.len, &d, &why) == -1)
			return refuse(a, ms_xasprintf("line %zu is not JSON: %s",
			    nr, why));
		ok = envelope(a, &d, &d.n[0]);
		envelopes++;
		ms_jread_free(&d);
	}
	return ok && (envelopes > 0 ||
	    refuse(a, ms_xstrdup("no DSSE envelope in it")));
}

char *
ms_attest_read(void *key, const char *path, const char *data, size_t len,
    char **body, size_t *body_len, size_t *skipped)
{
	struct attest a = { .key = key };
	bool ok;

	*body = NULL;
	*body_len = 0;
	a.body = open_memstream(body, body_len);
	if (a.body == NULL)
		ms_die("%s", strerror(errno));
	if (ms_attest_bundle(path)) {
		struct ms_jdoc d;
		const char *why;

		ok = ms_jread(data, len, &d, &why) == 0 ||
		    refuse(&a, ms_xasprintf("not JSON: %s", why));
		if (ok) {
			ok = bundle(&a, &d, path);
			ms_jread_free(&d);
		}
	} else {
		ok = lines(&a, data, len);
	}
	if (fclose(a.body) != 0)
		ms_die("%s", strerror(errno));
	if (!ok) {
		free(*body);
		*body = NULL;
		*body_len = 0;
	}
	*skipped = a.skipped;
	return a.why;
}

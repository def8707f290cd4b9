/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signature_ssh.c - SSH signatures (SSHSIG): the armoured signature, the
 * OpenSSH public keys it names, and its verification.
 *
 * The format is OpenSSH's PROTOCOL.sshsig: "SSHSIG", version 1, the
 * public key, the namespace, a reserved string, the hash ("sha256" or
 * "sha512") and the signature, in SSH's wire encoding (RFC 4251: big-
 * endian uint32 lengths), base64 between "-----BEGIN SSH SIGNATURE-----"
 * and its END line.  What the key signs is "SSHSIG", the namespace, the
 * reserved string, the hash's name and the hash of the message.  Keys:
 * ssh-ed25519, ecdsa-sha2-nistp256/384/521 (signatures as mpints r and
 * s), ssh-rsa (rsa-sha2-256 and -512 signatures; SHA-1's refused, as
 * ssh-keygen refuses it), and the FIDO keys sk-ssh-ed25519@openssh.com
 * and sk-ecdsa-sha2-nistp256@openssh.com, whose signatures add flags and
 * a counter and sign SHA-256(application) || flags || counter ||
 * SHA-256(the blob above); a signature without the user-presence flag
 * is accepted, as ssh-keygen -Y verify accepts it, and said.  Each key
 * becomes a DER SubjectPublicKeyInfo for libcrypto
 * (signature_crypto.c).  The wire reader and the DER writer are shared
 * with signature_sshkey.c (private keys, signing).
 */
#include "signature/signature_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest/digest_set.h"
#include "base/bytes.h"
#include "base/util.h"

#define ARMOR_BEGIN	"-----BEGIN SSH SIGNATURE-----"
#define ARMOR_END	"-----END SSH SIGNATURE-----"
#define SK_ED25519	"sk-ssh-ed25519@openssh.com"
#define SK_ECDSA	"sk-ecdsa-sha2-nistp256@openssh.com"
#define SK_PRESENCE	0x01	/* the user touched the key */

/* ------------------------------------------------------ wire format */

uint32_t
ms_ssh_u32(struct ms_ssh_rd *r)
{
	uint32_t v;

	if (r->bad || r->n < 4) {
		r->bad = true;
		return 0;
	}
	v = (uint32_t)r->p[0] << 24 | (uint32_t)r->p[1] << 16 |
	    (uint32_t)r->p[2] << 8 | r->p[3];
	r->p += 4;
	r->n -= 4;
	return v;
}

struct ms_ssh_str
ms_ssh_string(struct ms_ssh_rd *r)
{
	struct ms_ssh_str s = { NULL, 0 };
	uint32_t n = ms_ssh_u32(r);

	if (r->bad || n > r->n) {
		r->bad = true;
		return s;
	}
	s.p = r->p;
	s.n = n;
	r->p += n;
	r->n -= n;
	return s;
}

bool
ms_ssh_is(struct ms_ssh_str s, const char *text)
{
	return s.p != NULL && s.n == strlen(text) && memcmp(s.p, text, s.n) == 0;
}

void
ms_ssh_put(struct ms_buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->p = ms_xrealloc(b->p, b->cap);
	}
	if (n > 0)
		memcpy(b->p + b->n, p, n);
	b->n += n;
}

void
ms_ssh_put_string(struct ms_buf *b, const void *p, size_t n)
{
	unsigned char len[4];

	ms_store_be32(len, (uint32_t)n);
	ms_ssh_put(b, len, 4);
	ms_ssh_put(b, p, n);
}

/* ------------------------------------------------------- DER writer */

void
ms_der_put(struct ms_buf *b, unsigned char tag, const void *p, size_t n)
{
	unsigned char h[6] = { tag };
	size_t hn = 2;

	if (n < 0x80)
		h[1] = (unsigned char)n;
	else if (n < 0x100) {
		h[1] = 0x81;
		h[2] = (unsigned char)n;
		hn = 3;
	} else if (n < 0x10000) {
		h[1] = 0x82;
		h[2] = (unsigned char)(n >> 8);
		h[3] = (unsigned char)n;
		hn = 4;
	} else {
		h[1] = 0x83;
		h[2] = (unsigned char)(n >> 16);
		h[3] = (unsigned char)(n >> 8);
		h[4] = (unsigned char)n;
		hn = 5;
	}
	ms_ssh_put(b, h, hn);
	ms_ssh_put(b, p, n);
}

/* DER's INTEGER of an mpint's bytes (zero is SSH's empty string). */
void
ms_der_int(struct ms_buf *b, struct ms_ssh_str m)
{
	static const unsigned char zero = 0;

	if (m.n == 0)
		ms_der_put(b, 0x02, &zero, 1);
	else
		ms_der_put(b, 0x02, m.p, m.n);
}

/* b's bytes wrapped as one TLV into out; b emptied. */
void
ms_der_wrap(struct ms_buf *out, unsigned char tag, struct ms_buf *b)
{
	ms_der_put(out, tag, b->p, b->n);
	free(b->p);
	*b = (struct ms_buf){ 0 };
}

/* ------------------------------------------------------ public keys */

static const unsigned char oid_ec[] = {
	0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01 };
static const unsigned char oid_rsa[] = {
	0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01,
	0x05, 0x00 };
static const unsigned char oid_ed25519[] = { 0x06, 0x03, 0x2b, 0x65, 0x70 };

const struct ms_ssh_curve ms_ssh_curves[] = {
	{ .name = "nistp256", .md = "SHA256", .oid = { 0x06, 0x08, 0x2a, 0x86,
	    0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 }, .oidlen = 10, .bytes = 32 },
	{ .name = "nistp384", .md = "SHA384", .oid = { 0x06, 0x05, 0x2b, 0x81,
	    0x04, 0x00, 0x22 }, .oidlen = 7, .bytes = 48 },
	{ .name = "nistp521", .md = "SHA512", .oid = { 0x06, 0x05, 0x2b, 0x81,
	    0x04, 0x00, 0x23 }, .oidlen = 7, .bytes = 66 },
	{ .name = NULL },
};

const struct ms_ssh_curve *
ms_ssh_curve(struct ms_ssh_str name)
{
	for (const struct ms_ssh_curve *c = ms_ssh_curves; c->name; c++)
		if (ms_ssh_is(name, c->name))
			return c;
	return NULL;
}

/* SubjectPublicKeyInfo: algorithm identifier, then the key's bits. */
static void
spki(struct ms_buf *out, const void *alg, size_t algn, const void *bits,
    size_t n)
{
	struct ms_buf a = { 0 }, s = { 0 }, k = { 0 };
	static const unsigned char unused = 0;

	ms_ssh_put(&a, alg, algn);
	ms_der_wrap(&s, 0x30, &a);
	ms_ssh_put(&k, &unused, 1);
	ms_ssh_put(&k, bits, n);
	ms_der_wrap(&s, 0x03, &k);
	ms_der_wrap(out, 0x30, &s);
}

/* An EC point of curve c as SubjectPublicKeyInfo. */
static void
ec_spki(struct ms_buf *out, const struct ms_ssh_curve *c, struct ms_ssh_str q)
{
	unsigned char alg[sizeof(oid_ec) + 16];

	memcpy(alg, oid_ec, sizeof(oid_ec));
	memcpy(alg + sizeof(oid_ec), c->oid, c->oidlen);
	spki(out, alg, sizeof(oid_ec) + c->oidlen, q.p, q.n);
}

int
ms_ssh_key_parse(const unsigned char *blob, size_t n, struct ms_ssh_key *k,
    const char **why)
{
	struct ms_ssh_rd r = { blob, n, false };
	struct ms_ssh_str type = ms_ssh_string(&r), a, b;
	struct ms_buf rsa = { 0 }, seq = { 0 };

	memset(k, 0, sizeof(*k));
	k->blob = blob;
	k->blob_len = n;
	if (ms_ssh_is(type, "ssh-ed25519") || ms_ssh_is(type, SK_ED25519)) {
		k->kind = ms_ssh_is(type, "ssh-ed25519") ? MS_SSH_ED25519 :
		    MS_SSH_SK_ED25519;
		a = ms_ssh_string(&r);
		if (!r.bad && a.n != MS_ED25519_PUBLIC)
			r.bad = true;
		if (!r.bad)
			spki(&k->spki, oid_ed25519, sizeof(oid_ed25519), a.p, a.n);
	} else if (type.n > 11 && (memcmp(type.p, "ecdsa-sha2-", 11) == 0 ||
	    ms_ssh_is(type, SK_ECDSA))) {
		k->kind = ms_ssh_is(type, SK_ECDSA) ? MS_SSH_SK_ECDSA : MS_SSH_ECDSA;
		a = ms_ssh_string(&r);
		b = ms_ssh_string(&r);
		k->curve = r.bad ? NULL : ms_ssh_curve(a);
		if (k->curve == NULL || (k->kind == MS_SSH_ECDSA && (type.n !=
		    11 + a.n || memcmp(type.p + 11, a.p, a.n) != 0)) ||
		    (k->kind == MS_SSH_SK_ECDSA && k->curve != ms_ssh_curves)) {
			*why = "an ECDSA key on a curve other than NIST P-256, "
			    "P-384 or P-521";
			return -1;
		}
		ec_spki(&k->spki, k->curve, b);
	} else if (ms_ssh_is(type, "ssh-rsa")) {
		k->kind = MS_SSH_RSA;
		a = ms_ssh_string(&r);	/* e */
		b = ms_ssh_string(&r);	/* n */
		if (!r.bad) {
			ms_der_int(&seq, b);
			ms_der_int(&seq, a);
			ms_der_wrap(&rsa, 0x30, &seq);
			spki(&k->spki, oid_rsa, sizeof(oid_rsa), rsa.p, rsa.n);
			free(rsa.p);
		}
	} else {
		*why = "not an ssh-ed25519, ecdsa-sha2-nistp*, ssh-rsa or "
		    "sk- key";
		if (type.n > 21 && memcmp(type.p + type.n - 21,
		    "-cert-v01@openssh.com", 21) == 0)
			*why = "an OpenSSH certificate (certificates are not "
			    "supported)";
		return -1;
	}
	if (k->kind == MS_SSH_SK_ED25519 || k->kind == MS_SSH_SK_ECDSA)
		k->application = ms_ssh_string(&r);
	if (r.bad || r.n != 0) {
		ms_ssh_key_free(k);
		*why = "a malformed public key";
		return -1;
	}
	return 0;
}

void
ms_ssh_key_free(struct ms_ssh_key *k)
{
	free(k->spki.p);
	k->spki = (struct ms_buf){ 0 };
}

const char *
ms_ssh_key_kind(const struct ms_ssh_key *k)
{
	static const char *const names[] = {
		[MS_SSH_ED25519] = "ED25519", [MS_SSH_ECDSA] = "ECDSA",
		[MS_SSH_RSA] = "RSA", [MS_SSH_SK_ED25519] = "ED25519-SK",
		[MS_SSH_SK_ECDSA] = "ECDSA-SK",
	};

	return names[k->kind];
}

void
ms_ssh_fingerprint(const unsigned char *blob, size_t n, char out[64])
{
	unsigned char h[32];
	char b64[48];
	size_t len;

	if (ms_digest_buffer("sha256", 0, blob, n, h) == -1) {
		strcpy(out, "SHA256:?");
		return;
	}
	ms_base64(b64, h, sizeof(h));
	len = strlen(b64);
	while (len > 0 && b64[len - 1] == '=')
		b64[--len] = '\0';
	snprintf(out, 64, "SHA256:%s", b64);
}

int
ms_ssh_pubkey_text(const char *text, size_t len, unsigned char **blob,
    size_t *n, const char **why)
{
	size_t at = 0, t, b;
	long got;

	while (at < len && (text[at] == ' ' || text[at] == '\t'))
		at++;
	for (t = at; t < len && text[t] != ' ' && text[t] != '\t' &&
	    text[t] != '\n'; t++)
		;
	for (b = t; b < len && (text[b] == ' ' || text[b] == '\t'); b++)
		;
	for (t = b; t < len && text[t] != ' ' && text[t] != '\t' &&
	    text[t] != '\n' && text[t] != '\r'; t++)
		;
	*blob = ms_xmalloc(t - b + 1);
	got = ms_unbase64(*blob, t - b + 1, text + b, t - b);
	if (t == b || got <= 0) {
		free(*blob);
		*blob = NULL;
		*why = "not an OpenSSH public key (TYPE BASE64 [COMMENT])";
		return -1;
	}
	*n = (size_t)got;
	return 0;
}

bool
ms_ssh_pubkey_shaped(const char *text, size_t len)
{
	static const char *const types[] = {
		"ssh-", "ecdsa-", "sk-",
	};

	for (size_t i = 0; i < MS_ARRAY_LEN(types); i++)
		if (len > strlen(types[i]) && memcmp(text, types[i],
		    strlen(types[i])) == 0)
			return true;
	return false;
}

/* ------------------------------------------------------- signatures */

bool
ms_sshsig_shaped(const char *buf, size_t len)
{
	return ms_begins(buf, len, ARMOR_BEGIN);
}

int
ms_sshsig_parse(const char *buf, size_t len, struct ms_sshsig *s,
    const char **why)
{
	struct ms_line_view l;
	struct ms_ssh_rd r;
	size_t at = 0, n = 0;
	bool begun = false, ended = false;
	char *b64 = ms_xmalloc(len + 1);
	long got;

	memset(s, 0, sizeof(*s));
	while (!ended && ms_text_line(buf, len, &at, &l)) {
		if (!begun) {
			begun = l.len == strlen(ARMOR_BEGIN) &&
			    memcmp(l.p, ARMOR_BEGIN, l.len) == 0;
			if (!begun)
				break;
		} else if (l.len == strlen(ARMOR_END) &&
		    memcmp(l.p, ARMOR_END, l.len) == 0)
			ended = true;
		else {
			memcpy(b64 + n, l.p, l.len);
			n += l.len;
		}
	}
	s->raw = ms_xmalloc(n + 1);
	got = ms_unbase64(s->raw, n + 1, b64, n);
	free(b64);
	if (!ended || got <= 0) {
		*why = !begun ? "no " ARMOR_BEGIN " line" : !ended ?
		    "no " ARMOR_END " line" : "its base64 is corrupt";
		ms_sshsig_free(s);
		return -1;
	}
	r = (struct ms_ssh_rd){ s->raw, (size_t)got, false };
	if (r.n < 6 || memcmp(r.p, "SSHSIG", 6) != 0) {
		*why = "no SSHSIG magic";
		ms_sshsig_free(s);
		return -1;
	}
	r.p += 6;
	r.n -= 6;
	s->version = ms_ssh_u32(&r);
	s->pubkey = ms_ssh_string(&r);
	s->ns = ms_ssh_string(&r);
	s->reserved = ms_ssh_string(&r);
	s->hash = ms_ssh_string(&r);
	s->sig = ms_ssh_string(&r);
	if (r.bad || r.n != 0 || s->version != 1) {
		*why = r.bad || r.n != 0 ? "a malformed SSHSIG blob" :
		    "an SSHSIG version other than 1";
		ms_sshsig_free(s);
		return -1;
	}
	return 0;
}

void
ms_sshsig_free(struct ms_sshsig *s)
{
	free(s->raw);
	s->raw = NULL;
}

/* The SHA-2 of a hash name ("sha256", "sha512"): its bits, 0 if neither. */
static unsigned
hash_bits(struct ms_ssh_str h)
{
	return ms_ssh_is(h, "sha256") ? 256 : ms_ssh_is(h, "sha512") ? 512 : 0;
}

int
ms_sshsig_blob(const char *ns, struct ms_ssh_str reserved, const char *hash,
    const void *msg, size_t len, struct ms_buf *out)
{
	struct ms_ssh_str h = { (const unsigned char *)hash, strlen(hash) };
	unsigned bits = hash_bits(h);
	unsigned char md[64];

	if (ms_digest_buffer(bits == 256 ? "sha256" : "sha512", 0, msg, len,
	    md) == -1)
		return -1;
	ms_ssh_put(out, "SSHSIG", 6);
	ms_ssh_put_string(out, ns, strlen(ns));
	ms_ssh_put_string(out, reserved.p, reserved.n);
	ms_ssh_put_string(out, hash, strlen(hash));
	ms_ssh_put_string(out, md, bits / 8);
	return 0;
}

/* SSH's ECDSA signature (mpint r, mpint s) as DER for libcrypto. */
static int
ecdsa_der(struct ms_ssh_str sig, struct ms_buf *der)
{
	struct ms_ssh_rd r = { sig.p, sig.n, false };
	struct ms_ssh_str a = ms_ssh_string(&r), b = ms_ssh_string(&r);
	struct ms_buf seq = { 0 };

	if (r.bad || r.n != 0)
		return -1;
	ms_der_int(&seq, a);
	ms_der_int(&seq, b);
	ms_der_wrap(der, 0x30, &seq);
	return 0;
}

/* A FIDO key's message: SHA-256(application), flags, counter, SHA-256(blob). */
static int
sk_message(const struct ms_ssh_key *k, struct ms_ssh_rd *r,
    const struct ms_buf *blob, struct ms_buf *out, bool *untouched)
{
	unsigned char flags, h[32];

	if (r->n < 1) {
		r->bad = true;
		return -1;
	}
	flags = r->p[0];
	r->p++;
	r->n--;
	(void)ms_ssh_u32(r);
	if (r->bad || r->n != 0)
		return -1;
	*untouched = !(flags & SK_PRESENCE);
	if (ms_digest_buffer("sha256", 0, k->application.p, k->application.n,
	    h) == -1)
		return -1;
	ms_ssh_put(out, h, 32);
	ms_ssh_put(out, r->p - 5, 5);
	if (ms_digest_buffer("sha256", 0, blob->p, blob->n, h) == -1)
		return -1;
	ms_ssh_put(out, h, 32);
	return 0;
}

/* The digest a key's signature type names; NULL (with *why) if refused. */
static const char *
sig_md(const struct ms_ssh_key *k, struct ms_ssh_str type, bool *ok,
    const char **why)
{
	*ok = true;
	switch (k->kind) {
	case MS_SSH_ED25519:
		*ok = ms_ssh_is(type, "ssh-ed25519");
		return NULL;
	case MS_SSH_SK_ED25519:
		*ok = ms_ssh_is(type, SK_ED25519);
		return NULL;
	case MS_SSH_SK_ECDSA:
		*ok = ms_ssh_is(type, SK_ECDSA);
		return "SHA256";
	case MS_SSH_ECDSA:
		*ok = type.n == 11 + strlen(k->curve->name) &&
		    memcmp(type.p, "ecdsa-sha2-", 11) == 0 &&
		    memcmp(type.p + 11, k->curve->name, type.n - 11) == 0;
		return k->curve->md;
	case MS_SSH_RSA:
		if (ms_ssh_is(type, "rsa-sha2-256"))
			return "SHA256";
		if (ms_ssh_is(type, "rsa-sha2-512"))
			return "SHA512";
		*ok = false;
		*why = ms_ssh_is(type, "ssh-rsa") ? "an RSA signature over "
		    "SHA-1 (ssh-rsa), which ssh-keygen refuses too" :
		    "an unknown RSA signature type";
		return NULL;
	}
	return NULL;
}

int
ms_sshsig_verify(const struct ms_sshsig *s, const struct ms_ssh_key *k,
    const char *ns, const char *msg, size_t len, bool *untouched,
    const char **why)
{
	struct ms_ssh_rd r = { s->sig.p, s->sig.n, false };
	struct ms_ssh_str type = ms_ssh_string(&r), sig = ms_ssh_string(&r);
	struct ms_buf blob = { 0 }, der = { 0 }, skm = { 0 };
	const struct ms_buf *signed_ = &blob;
	char hash[8];
	bool ok;
	const char *md;
	int rc = -1;

	*why = NULL;
	*untouched = false;
	md = sig_md(k, type, &ok, why);
	if (!ok) {
		if (*why == NULL)
			*why = "its signature type is not its key's";
		return -1;
	}
	if (!ms_ssh_is(s->ns, ns)) {
		*why = "signed for another namespace (see --namespace)";
		return -1;
	}
	if (hash_bits(s->hash) == 0) {
		*why = "a hash other than sha256 or sha512";
		return -1;
	}
	memcpy(hash, s->hash.p, 6);
	hash[6] = '\0';
	if (ms_sshsig_blob(ns, s->reserved, hash, msg, len, &blob) == -1)
		goto out;
	if (k->kind == MS_SSH_SK_ED25519 || k->kind == MS_SSH_SK_ECDSA) {
		if (sk_message(k, &r, &blob, &skm, untouched) == -1) {
			*why = "a malformed security key signature";
			goto out;
		}
		signed_ = &skm;
	} else if (r.bad || r.n != 0) {
		*why = "a malformed signature";
		goto out;
	}
	if (k->kind == MS_SSH_ECDSA || k->kind == MS_SSH_SK_ECDSA) {
		if (ecdsa_der(sig, &der) == -1) {
			*why = "a malformed ECDSA signature";
			goto out;
		}
	} else
		ms_ssh_put(&der, sig.p, sig.n);
	rc = ms_pkey_verify(k->spki.p, k->spki.n, md, der.p, der.n,
	    signed_->p, signed_->n);
	if (rc == 0)
		*why = "BAD signature: the list is not what the key signed "
		    "(or the signature was changed)";
	rc = rc == 1 ? 0 : -1;
out:
	free(blob.p);
	free(der.p);
	free(skm.p);
	return rc;
}

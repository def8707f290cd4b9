/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signature_sshkey.c - OpenSSH private keys and SSH signatures made with
 * them (-o LIST --sign=id_ed25519).
 *
 * The key file is OpenSSH's PROTOCOL.key: base64 between "-----BEGIN
 * OPENSSH PRIVATE KEY-----" and its END line of "openssh-key-v1\0", the
 * cipher ("none" or "aes256-ctr"), the KDF ("none" or "bcrypt": salt and
 * rounds), one public key and the private section: two equal check
 * words (unequal: a wrong passphrase), the key, its comment and padding
 * 1, 2, 3...  An encrypted section is AES-256-CTR with key and IV from
 * bcrypt_pbkdf (signature_bcrypt.c).  Ed25519 keys sign through
 * libcrypto's raw keys; ECDSA and RSA keys become DER private keys
 * (SEC1's ECPrivateKey, PKCS #1's RSAPrivateKey) for libcrypto.  What is
 * signed and written is ssh-keygen -Y sign's: SHA-512 of the list, the
 * signature wrapped at 70 columns.
 */
#include "signature/signature_int.h"

#include <openssl/evp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/quote.h"
#include "base/util.h"

#define KEY_BEGIN	"-----BEGIN OPENSSH PRIVATE KEY-----"
#define KEY_END		"-----END OPENSSH PRIVATE KEY-----"
#define MAGIC		"openssh-key-v1"
#define PASS_MAX	1024
#define ROUNDS_MAX	(1u << 20)	/* bcrypt rounds we will spend */

struct ms_ssh_signer {
	enum ms_ssh_kind kind;
	unsigned char	*pub;		/* the public key blob */
	size_t		 pub_len;
	unsigned char	 seed[MS_ED25519_SEED];	/* Ed25519 */
	struct ms_buf	 der;		/* ECDSA, RSA: DER private key */
	const struct ms_ssh_curve *curve;
	unsigned char	*raw;		/* the decoded file */
	size_t		 raw_len;
};

bool
ms_ssh_seckey_shaped(const char *text, size_t len)
{
	return len >= strlen(KEY_BEGIN) &&
	    memcmp(text, KEY_BEGIN, strlen(KEY_BEGIN)) == 0;
}

/* The base64 between the armour lines, decoded (malloc); -1 if none. */
static int
dearmor(const char *text, size_t len, unsigned char **out, size_t *n)
{
	struct ms_line_view l;
	size_t at = 0, bn = 0;
	char *b64 = ms_xmalloc(len + 1);
	bool ended = false;
	long got;

	(void)ms_text_line(text, len, &at, &l);	/* KEY_BEGIN */
	while (!ended && ms_text_line(text, len, &at, &l)) {
		ended = l.len == strlen(KEY_END) && memcmp(l.p, KEY_END,
		    l.len) == 0;
		if (!ended) {
			memcpy(b64 + bn, l.p, l.len);
			bn += l.len;
		}
	}
	*out = ms_xmalloc(bn + 1);
	got = ms_unbase64(*out, bn + 1, b64, bn);
	free(b64);
	if (!ended || got <= 0)
		return -1;
	*n = (size_t)got;
	return 0;
}

/* SEC1's ECPrivateKey of scalar d, point q on curve c. */
static void
ec_private(struct ms_buf *out, const struct ms_ssh_curve *c,
    struct ms_ssh_str d, struct ms_ssh_str q)
{
	static const unsigned char one = 1, unused = 0;
	struct ms_buf seq = { 0 }, t = { 0 }, bits = { 0 };
	unsigned char scalar[66] = { 0 };

	/* the scalar at the curve's size, without an mpint's sign byte */
	while (d.n > c->bytes && d.p[0] == 0) {
		d.p++;
		d.n--;
	}
	if (d.n <= c->bytes)
		memcpy(scalar + c->bytes - d.n, d.p, d.n);
	ms_der_put(&seq, 0x02, &one, 1);
	ms_der_put(&seq, 0x04, scalar, c->bytes);
	ms_ssh_put(&t, c->oid, c->oidlen);
	ms_der_wrap(&seq, 0xa0, &t);
	ms_ssh_put(&bits, &unused, 1);
	ms_ssh_put(&bits, q.p, q.n);
	ms_der_wrap(&t, 0x03, &bits);
	ms_der_wrap(&seq, 0xa1, &t);
	ms_der_wrap(out, 0x30, &seq);
	explicit_bzero(scalar, sizeof(scalar));
}

/* PKCS #1's RSAPrivateKey from OpenSSH's n, e, d, iqmp, p, q. */
static int
rsa_private(struct ms_buf *out, const struct ms_ssh_str f[6])
{
	static const unsigned char zero = 0;
	struct ms_buf seq = { 0 };
	unsigned char *dp, *dq;
	size_t dpn, dqn;

	dp = ms_mod_less_one(f[2].p, f[2].n, f[4].p, f[4].n, &dpn);
	dq = ms_mod_less_one(f[2].p, f[2].n, f[5].p, f[5].n, &dqn);
	if (dp == NULL || dq == NULL) {
		free(dp);
		free(dq);
		return -1;
	}
	ms_der_put(&seq, 0x02, &zero, 1);
	for (int i = 0; i < 3; i++)		/* n, e, d */
		ms_der_int(&seq, f[i]);
	ms_der_int(&seq, f[4]);			/* p */
	ms_der_int(&seq, f[5]);			/* q */
	ms_der_put(&seq, 0x02, dp, dpn);
	ms_der_put(&seq, 0x02, dq, dqn);
	ms_der_int(&seq, f[3]);			/* iqmp */
	ms_der_wrap(out, 0x30, &seq);
	explicit_bzero(dp, dpn);
	explicit_bzero(dq, dqn);
	free(dp);
	free(dq);
	return 0;
}

/* The private key of the decrypted section; -1 with *why. */
static int
private_key(struct ms_ssh_rd *r, struct ms_ssh_signer *s, const char **why)
{
	struct ms_ssh_str type = ms_ssh_string(r), f[6];
	struct ms_ssh_key k;

	if (ms_ssh_key_parse(s->pub, s->pub_len, &k, why) == -1)
		return -1;
	s->kind = k.kind;
	s->curve = k.curve;
	ms_ssh_key_free(&k);
	*why = "its private part is not its public key's";
	if (s->kind == MS_SSH_ED25519 && ms_ssh_is(type, "ssh-ed25519")) {
		unsigned char pub[MS_ED25519_PUBLIC];

		f[0] = ms_ssh_string(r);
		f[1] = ms_ssh_string(r);
		if (r->bad || f[1].n != 64 || f[0].n != MS_ED25519_PUBLIC ||
		    ms_ed25519_public(f[1].p, pub) == -1 ||
		    memcmp(pub, f[0].p, MS_ED25519_PUBLIC) != 0 ||
		    s->pub_len < MS_ED25519_PUBLIC || memcmp(s->pub + s->pub_len -
		    MS_ED25519_PUBLIC, pub, MS_ED25519_PUBLIC) != 0)
			return -1;
		memcpy(s->seed, f[1].p, MS_ED25519_SEED);
	} else if (s->kind == MS_SSH_ECDSA && type.n > 11 &&
	    memcmp(type.p, "ecdsa-sha2-", 11) == 0) {
		f[0] = ms_ssh_string(r);
		f[1] = ms_ssh_string(r);
		f[2] = ms_ssh_string(r);
		if (r->bad || ms_ssh_curve(f[0]) != s->curve)
			return -1;
		ec_private(&s->der, s->curve, f[2], f[1]);
	} else if (s->kind == MS_SSH_RSA && ms_ssh_is(type, "ssh-rsa")) {
		for (int i = 0; i < 6; i++)
			f[i] = ms_ssh_string(r);
		if (r->bad)
			return -1;
		if (rsa_private(&s->der, f) == -1) {
			*why = "an RSA key libcrypto cannot use";
			return -1;
		}
	} else {
		*why = s->kind == MS_SSH_SK_ED25519 || s->kind ==
		    MS_SSH_SK_ECDSA ? "a security key (sk-) signs only with "
		    "its hardware: use ssh-keygen -Y sign" : "a key type "
		    "multisum does not sign with";
		return -1;
	}
	return 0;
}

/* Decrypt the private section with the passphrase; -1 after a message. */
static int
decrypt(const struct ms_signature_opts *o, struct ms_ssh_str kdfopts,
    unsigned char *p, size_t n)
{
	struct ms_ssh_rd r = { kdfopts.p, kdfopts.n, false };
	struct ms_ssh_str salt = ms_ssh_string(&r);
	uint32_t rounds = ms_ssh_u32(&r);
	unsigned char kiv[48];
	char pass[PASS_MAX];
	int rc;

	if (r.bad || rounds == 0 || rounds > ROUNDS_MAX || n % 16 != 0) {
		ms_warn("%s: its bcrypt parameters are malformed or too costly",
		    ms_quotef(o->sign));
		return -1;
	}
	if (ms_passphrase_unlock(o, "Passphrase of the OpenSSH key: ", pass,
	    sizeof(pass)) != 0)
		return -1;
	rc = ms_bcrypt_pbkdf(pass, strlen(pass), salt.p, salt.n, rounds, kiv,
	    sizeof(kiv));
	explicit_bzero(pass, sizeof(pass));
	if (rc == 0)
		rc = ms_aes256_ctr(kiv, kiv + 32, p, n);
	explicit_bzero(kiv, sizeof(kiv));
	return rc;
}

/* The key file's outer layers: cipher, KDF, public key, private part. */
static int
unwrap(const struct ms_signature_opts *o, struct ms_ssh_signer *s,
    const char **why)
{
	struct ms_ssh_rd r = { s->raw, s->raw_len, false };
	struct ms_ssh_str cipher, kdf, kdfopts, pub, priv;
	uint32_t nkeys;
	struct ms_ssh_rd pr;

	if (r.n < sizeof(MAGIC) || memcmp(r.p, MAGIC, sizeof(MAGIC)) != 0) {
		*why = "no " MAGIC " magic";
		return -1;
	}
	r.p += sizeof(MAGIC);
	r.n -= sizeof(MAGIC);
	cipher = ms_ssh_string(&r);
	kdf = ms_ssh_string(&r);
	kdfopts = ms_ssh_string(&r);
	nkeys = ms_ssh_u32(&r);
	pub = ms_ssh_string(&r);
	priv = ms_ssh_string(&r);
	*why = "a malformed key file";
	if (r.bad || nkeys != 1)
		return -1;
	s->pub = ms_xmalloc(pub.n);
	memcpy(s->pub, pub.p, pub.n);
	s->pub_len = pub.n;
	if (ms_ssh_is(cipher, "aes256-ctr") && ms_ssh_is(kdf, "bcrypt")) {
		if (decrypt(o, kdfopts, (unsigned char *)priv.p, priv.n) == -1) {
			*why = NULL;
			return -1;
		}
	} else if (!ms_ssh_is(cipher, "none") || !ms_ssh_is(kdf, "none")) {
		*why = "encrypted with a cipher other than aes256-ctr and "
		    "bcrypt (ssh-keygen -p rewrites it)";
		return -1;
	}
	pr = (struct ms_ssh_rd){ priv.p, priv.n, false };
	if (ms_ssh_u32(&pr) != ms_ssh_u32(&pr) || pr.bad) {
		*why = ms_ssh_is(cipher, "none") ? "a malformed key file" :
		    "wrong passphrase for this key";
		return -1;
	}
	return private_key(&pr, s, why);
}

int
ms_ssh_signer_load(const struct ms_signature_opts *o, const char *text,
    size_t len, struct ms_ssh_signer **out)
{
	struct ms_ssh_signer *s = ms_xcalloc(1, sizeof(*s));
	const char *why = "its base64 is corrupt or it has no END line";

	*out = NULL;
	if (dearmor(text, len, &s->raw, &s->raw_len) == -1 ||
	    unwrap(o, s, &why) == -1) {
		if (why != NULL)
			ms_warn("%s: not a usable OpenSSH private key: %s",
			    ms_quotef(o->sign), why);
		ms_ssh_signer_free(s);
		return -1;
	}
	*out = s;
	return 0;
}

void
ms_ssh_signer_free(struct ms_ssh_signer *s)
{
	if (s == NULL)
		return;
	if (s->raw != NULL)
		explicit_bzero(s->raw, s->raw_len);
	if (s->der.p != NULL)
		explicit_bzero(s->der.p, s->der.n);
	free(s->raw);
	free(s->der.p);
	free(s->pub);
	explicit_bzero(s, sizeof(*s));
	free(s);
}

/* The SSH signature blob of the data signed; -1 after a message. */
static int
sign_blob(const struct ms_ssh_signer *s, const struct ms_buf *data,
    struct ms_buf *out)
{
	unsigned char ed[MS_ED25519_SIG], *sig;
	size_t n;
	struct ms_ssh_rd r;
	struct ms_buf rs = { 0 };
	char type[32];

	if (s->kind == MS_SSH_ED25519) {
		if (ms_ed25519_sign(s->seed, data->p, data->n, ed) == -1)
			return -1;
		ms_ssh_put_string(out, "ssh-ed25519", 11);
		ms_ssh_put_string(out, ed, sizeof(ed));
		return 0;
	}
	sig = ms_pkey_sign(s->kind == MS_SSH_RSA ? EVP_PKEY_RSA : EVP_PKEY_EC,
	    s->der.p, s->der.n, s->kind == MS_SSH_RSA ? "SHA512" :
	    s->curve->md, data->p, data->n, &n);
	if (sig == NULL)
		return -1;
	if (s->kind == MS_SSH_RSA) {
		ms_ssh_put_string(out, "rsa-sha2-512", 12);
		ms_ssh_put_string(out, sig, n);
		free(sig);
		return 0;
	}
	/* DER's SEQUENCE { INTEGER r, INTEGER s } as mpint r, mpint s */
	r = (struct ms_ssh_rd){ sig, n, false };
	for (int i = 0; i < 3 && r.n >= 2; i++) {
		size_t hl = 2, len = r.p[1];

		if (len & 0x80) {
			hl = 2 + (len & 0x7f);
			len = 0;
			for (size_t j = 2; j < hl && j < r.n; j++)
				len = len << 8 | r.p[j];
		}
		if (i == 0) {		/* into the SEQUENCE */
			r.p += hl;
			r.n -= hl;
			continue;
		}
		if (hl + len > r.n)
			break;
		ms_ssh_put_string(&rs, r.p + hl, len);
		r.p += hl + len;
		r.n -= hl + len;
	}
	free(sig);
	snprintf(type, sizeof(type), "ecdsa-sha2-%s", s->curve->name);
	ms_ssh_put_string(out, type, strlen(type));
	ms_ssh_put_string(out, rs.p, rs.n);
	free(rs.p);
	return 0;
}

char *
ms_ssh_sign(const struct ms_ssh_signer *s, const char *ns, const char *msg,
    size_t len)
{
	static const struct ms_ssh_str none = { (const unsigned char *)"", 0 };
	struct ms_buf data = { 0 }, sig = { 0 }, blob = { 0 };
	char *b64, *out = NULL;
	size_t n, at = 0, o;

	if (ms_sshsig_blob(ns, none, "sha512", msg, len, &data) == -1 ||
	    sign_blob(s, &data, &sig) == -1)
		goto done;
	ms_ssh_put(&blob, "SSHSIG", 6);
	ms_ssh_put(&blob, "\0\0\0\1", 4);
	ms_ssh_put_string(&blob, s->pub, s->pub_len);
	ms_ssh_put_string(&blob, ns, strlen(ns));
	ms_ssh_put_string(&blob, "", 0);
	ms_ssh_put_string(&blob, "sha512", 6);
	ms_ssh_put_string(&blob, sig.p, sig.n);
	b64 = ms_xmalloc(4 * ((blob.n + 2) / 3) + 1);
	ms_base64(b64, blob.p, blob.n);
	n = strlen(b64);
	out = ms_xmalloc(n + n / 70 + 128);
	o = (size_t)sprintf(out, "-----BEGIN SSH SIGNATURE-----\n");
	for (at = 0; at < n; at += 70) {
		size_t k = n - at < 70 ? n - at : 70;

		memcpy(out + o, b64 + at, k);
		o += k;
		out[o++] = '\n';
	}
	strcpy(out + o, "-----END SSH SIGNATURE-----\n");
	free(b64);
done:
	free(data.p);
	free(sig.p);
	free(blob.p);
	return out;
}

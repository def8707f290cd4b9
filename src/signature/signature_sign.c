/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signature_sign.c - --sign=KEY: the signature written with each list.
 *
 * Owns what is signed and how it is laid out: a minisign key gives
 * LIST.minisig (prehashed, minisign's trusted comment), a signify key
 * LIST.sig, or with --sign-embedded LIST.sig as OpenBSD ships SHA256.sig
 * (the signature, then the list).  The key is unlocked before anything is
 * hashed; the bytes signed are the list exactly as output.c wrote it, and
 * output.c replaces the list and its signature together (both or
 * neither; also at each of --update's checkpoints), never over a file
 * that is not a signature.  One key, unlocked once, signs every list of
 * a run: -o's, --update's ledger, --merge's, each folder's of --per-dir.
 * An OpenSSH private key gives LIST.sig as ssh-keygen -Y sign -n
 * NAMESPACE writes it (signature_sshkey.c).
 */
#include "signature/signature_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/quote.h"
#include "base/util.h"

#define KEY_FILE_MAX	(64 * 1024)

/* An unlocked key, for every list of a run (--per-dir writes many). */
struct ms_sign_key {
	struct ms_signer signer;
	struct ms_ssh_signer *ssh;	/* an OpenSSH key, or NULL */
	const char	*ns;		/* its namespace */
	bool		 embedded;
};

/* What the companion's callbacks need, for one list. */
struct job {
	struct ms_sign_key *key;
	bool		 own;		/* the key goes with the list */
	char		*file;		/* the list's name, for minisign's comment */
	struct ms_output_companion comp;
};

static char *
make(void *arg, const char *list, size_t len, size_t *outlen)
{
	struct job *j = arg;
	char *head, *out;
	size_t n;

	if (j->key->ssh != NULL)
		head = ms_ssh_sign(j->key->ssh, j->key->ns, list, len);
	else if (j->key->signer.kind == MS_SECKEY_MINISIGN)
		head = ms_minisign_sign(&j->key->signer, list, len, j->file);
	else
		head = ms_signify_sign(&j->key->signer, list, len);
	if (head == NULL || !j->key->embedded) {
		*outlen = head != NULL ? strlen(head) : 0;
		return head;
	}
	n = strlen(head);
	out = ms_xmalloc(n + len + 1);
	memcpy(out, head, n);
	memcpy(out + n, list, len);
	out[n + len] = '\0';
	*outlen = n + len;
	free(head);
	return out;
}

/* Only a signify, minisign or SSH signature file is ever replaced. */
static bool
replaceable(const char *head, size_t len)
{
	return ms_begins(head, len, MS_COMMENT_PREFIX) ||
	    ms_sshsig_shaped(head, len);
}

static void
release(void *arg)
{
	struct job *j = arg;

	if (j->own)
		ms_sign_key_close(j->key);
	free(j->file);
	free(j);
}

/* --sign's key: an OpenSSH private key, or signify's or minisign's. */
static int
load(const struct ms_signature_opts *o, struct ms_sign_key *k)
{
	char *text;
	size_t len;
	int rc;

	if (ms_file_read(o->sign, KEY_FILE_MAX, &text, &len) == -1 ||
	    !ms_ssh_seckey_shaped(text, len)) {
		/* ms_signer_load reads it again and says what is wrong */
		free(text);
		return ms_signer_load(o, &k->signer);
	}
	rc = ms_ssh_signer_load(o, text, len, &k->ssh);
	explicit_bzero(text, len);
	free(text);
	return rc;
}

struct ms_sign_key *
ms_sign_key_open(const struct ms_signature_opts *o)
{
	struct ms_sign_key *k = ms_xcalloc(1, sizeof(*k));

	k->ns = o->ns != NULL ? o->ns : "file";
	if (load(o, k) == -1) {
		free(k);
		return NULL;
	}
	if (o->ns != NULL && k->ssh == NULL) {
		ms_warn("%s: --namespace is for SSH signatures, and this is "
		    "not an OpenSSH key", ms_quotef(o->sign));
		ms_sign_key_close(k);
		return NULL;
	}
	if (o->sign_embedded && (k->ssh != NULL ||
	    k->signer.kind != MS_SECKEY_SIGNIFY)) {
		ms_warn("%s: --sign-embedded writes signify's embedded form, and "
		    "this is a%s key", ms_quotef(o->sign), k->ssh != NULL ?
		    "n OpenSSH" : " minisign");
		ms_sign_key_close(k);
		return NULL;
	}
	k->embedded = o->sign_embedded;
	return k;
}

void
ms_sign_key_close(struct ms_sign_key *k)
{
	if (k == NULL)
		return;
	ms_signer_forget(&k->signer);
	ms_ssh_signer_free(k->ssh);
	free(k);
}

const char *
ms_sign_suffix(const struct ms_sign_key *k)
{
	return k->ssh == NULL && k->signer.kind == MS_SECKEY_MINISIGN ?
	    ".minisig" : ".sig";
}

/* Attach k's signature to out; own: k is closed with out. */
static int
attach(struct ms_sign_key *k, bool own, struct ms_output *out)
{
	struct job *j;
	const char *base;

	if (out->path == NULL)
		ms_bug("--sign without -o");	/* refused by validate() */
	j = ms_xcalloc(1, sizeof(*j));
	j->key = k;
	j->own = own;
	base = strrchr(out->path, '/');
	j->file = ms_xstrdup(base != NULL ? base + 1 : out->path);
	j->comp = (struct ms_output_companion){
		.suffix = ms_sign_suffix(k), .what = "signature", .make = make,
		.replaceable = replaceable, .release = release, .arg = j,
	};
	if (ms_output_companion(out, &j->comp) == -1) {
		j->own = false;		/* the caller's still */
		release(j);
		return -1;
	}
	return 0;
}

int
ms_sign_attach(struct ms_sign_key *k, struct ms_output *out)
{
	return attach(k, false, out);
}

int
ms_sign_prepare(const struct ms_signature_opts *o, struct ms_output *out)
{
	struct ms_sign_key *k = ms_sign_key_open(o);

	if (k == NULL)
		return -1;
	if (attach(k, true, out) == -1) {
		ms_sign_key_close(k);
		return -1;
	}
	return 0;
}

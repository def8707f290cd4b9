/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signature_sign.c - -o LIST --sign=KEY: the signature written with the
 * list.
 *
 * Owns what is signed and how it is laid out: a minisign key gives
 * LIST.minisig (prehashed, minisign's trusted comment), a signify key
 * LIST.sig, or with --sign-embedded LIST.sig as OpenBSD ships SHA256.sig
 * (the signature, then the list).  The key is unlocked before anything is
 * hashed; the bytes signed are the list exactly as output.c wrote it, and
 * output.c replaces the list and its signature together (both or
 * neither), never over a file that is not a signature.
 */
#include "signature/signature_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/quote.h"
#include "base/util.h"

/* What the companion's callbacks need, for the one list of a run. */
struct job {
	struct ms_signer signer;
	bool		 embedded;
	char		*file;		/* the list's name, for minisign's comment */
	struct ms_output_companion comp;
};

static char *
make(void *arg, const char *list, size_t len, size_t *outlen)
{
	struct job *j = arg;
	char *head, *out;
	size_t n;

	if (j->signer.kind == MS_SECKEY_MINISIGN)
		head = ms_minisign_sign(&j->signer, list, len, j->file);
	else
		head = ms_signify_sign(&j->signer, list, len);
	if (head == NULL || !j->embedded) {
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

/* Only a signify or minisign signature file is ever replaced. */
static bool
replaceable(const char *head, size_t len)
{
	size_t n = strlen(MS_COMMENT_PREFIX);

	return len >= n && memcmp(head, MS_COMMENT_PREFIX, n) == 0;
}

static void
release(void *arg)
{
	struct job *j = arg;

	ms_signer_forget(&j->signer);
	free(j->file);
	free(j);
}

int
ms_sign_prepare(const struct ms_signature_opts *o, struct ms_output *out)
{
	struct job *j;
	const char *base;

	if (out->path == NULL)
		ms_bug("--sign without -o");	/* refused by validate() */
	j = ms_xcalloc(1, sizeof(*j));
	base = strrchr(out->path, '/');
	if (ms_signer_load(o, &j->signer) == -1) {
		free(j);
		return -1;
	}
	if (o->sign_embedded && j->signer.kind != MS_SECKEY_SIGNIFY) {
		ms_warn("%s: --sign-embedded writes signify's embedded form, and "
		    "this is a minisign key", ms_quotef(o->sign));
		release(j);
		return -1;
	}
	j->embedded = o->sign_embedded;
	j->file = ms_xstrdup(base != NULL ? base + 1 : out->path);
	j->comp = (struct ms_output_companion){
		.suffix = j->signer.kind == MS_SECKEY_MINISIGN ? ".minisig" : ".sig",
		.what = "signature", .make = make, .replaceable = replaceable,
		.release = release, .arg = j,
	};
	if (ms_output_companion(out, &j->comp) == -1) {
		release(j);
		return -1;
	}
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signature.c - a checksum list and its signature: finding the
 * signature, the verdict, and the bytes that may be parsed.
 *
 * Owns the reading of a list for -c: into memory, once (standard input
 * cannot be read twice, and a file swapped after its signature was
 * checked must not be what is parsed), then the signature is checked
 * against those very bytes and only what it covers is handed back: the
 * whole list for a detached signature, the message under a signify
 * signature, the signed text of a clear-signed message.  The signature is
 * --signature's, else the first of LIST.minisig and LIST.sig (signify and
 * minisign keys) or LIST.asc, LIST.gpg, LIST.sign and LIST.sig (OpenPGP)
 * or LIST.sig (SSH keys: --pubkey=KEY.pub, --allowed-signers) beside the list, else the one in the list itself.  Without a key a
 * list is not read here (check mode streams it, in bounded memory): the
 * ms_unchecked_* notes say that a signature beside it, at its top or
 * around it was not checked.  The formats are the other signature_*.c
 * files'.
 */
#include "signature/signature_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <time.h>

#include "base/quote.h"
#include "base/util.h"

#define LIST_MAX	(SIZE_MAX / 2)		/* what memory holds */
#define SIG_MAX		(1u << 20)
#define KEY_MAX		(64u << 20)		/* a keyring of many keys */

enum key_kind { NO_KEY, ED25519, KEYRING, SSH, PEM };

struct ms_verifier {
	const struct ms_signature_opts *o;
	enum key_kind	 kind;
	struct ms_pubkey pub;		/* ED25519 */
	char		*keyring;	/* KEYRING: the path gpgv reads, or NULL */
	unsigned char	*keyring_bin;	/* dearmoured: written for each gpgv run */
	size_t		 keyring_len;
	char		 signer[65];	/* --signer, normalised, or "" */
	unsigned char	*ssh_key;	/* SSH: --pubkey's blob, or NULL */
	size_t		 ssh_key_len;
	char		*allowed;	/* SSH: --allowed-signers' text */
	size_t		 allowed_len;
	void		*pem;		/* PEM: an attestation's key */
};

/* Where a signature may lie beside LIST, for each kind of key. */
static const char *const ed25519_beside[] = { ".minisig", ".sig" };
static const char *const pgp_beside[] = { ".asc", ".gpg", ".sign", ".sig" };
static const char *const ssh_beside[] = { ".sig" };

/* --pubkey: a key file, else minisign's -P base64. */
static int
load_pubkey(struct ms_verifier *v)
{
	const char *arg = v->o->pubkey, *why;
	char *text;
	size_t len;
	int rc = 0;

	if (ms_file_read(arg, SIG_MAX, &text, &len) == -1) {
		int err = errno;

		if (err == ENOENT && ms_pubkey_base64(arg, strlen(arg), &v->pub) == 0)
			rc = 0;
		else {
			ms_warn("--pubkey: %s: %s%s", ms_quotef(arg), strerror(err),
			    err == ENOENT ? " (nor is it a public key in base64)" : "");
			rc = -1;
		}
	} else if (ms_ssh_pubkey_shaped(text, len)) {
		v->kind = SSH;
		if (ms_ssh_pubkey_text(text, len, &v->ssh_key, &v->ssh_key_len,
		    &why) == -1) {
			ms_warn("%s: %s", ms_quotef(arg), why);
			rc = -1;
		}
	} else if (len > 11 && memcmp(text, "-----BEGIN ", 11) == 0) {
		/* a PEM key checks attestations (signature_attest.c) */
		if ((v->pem = ms_attest_key(text, len, &why)) == NULL) {
			ms_warn("%s: %s", ms_quotef(arg), why);
			rc = -1;
		}
		v->kind = PEM;
	} else if (ms_pubkey_parse(text, len, &v->pub, &why) == -1) {
		ms_warn("%s: not a signify, minisign or OpenSSH public key: %s",
		    ms_quotef(arg), why);
		rc = -1;
	}
	free(text);
	return rc;
}

/*
 * --keyring: as it is for gpgv, or dearmoured into memory (gpgv gets it in
 * a temporary file that lives only while gpgv runs: signature_gpgv.c).
 */
static int
load_keyring(struct ms_verifier *v)
{
	const char *arg = v->o->keyring, *why;
	char *text;
	size_t len;
	int rc = -1;

	if (ms_file_read(arg, KEY_MAX, &text, &len) == -1) {
		ms_warn("--keyring: %s: %s", ms_quotef(arg), strerror(errno));
		free(text);
		return -1;
	}
	if (len == 0)
		ms_warn("%s: the keyring is empty", ms_quotef(arg));
	else if (!ms_pgp_armored_key(text, len)) {
		/* gpgv looks for a name without a slash in its home directory */
		v->keyring = ms_xasprintf("%s%s", strchr(arg, '/') ? "" : "./", arg);
		rc = 0;
	} else if (ms_pgp_dearmor(text, len, &v->keyring_bin, &v->keyring_len,
	    &why) == -1)
		ms_warn("%s: %s", ms_quotef(arg), why);
	else
		rc = 0;
	free(text);
	return rc;
}

int
ms_signature_fingerprint(const char *s, char out[65])
{
	char buf[65];
	size_t n = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s != '\0'; s++) {
		if (*s == ' ')
			continue;
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') ||
		    (*s >= 'A' && *s <= 'F')) || n == 64)
			return -1;
		buf[n++] = *s;
	}
	buf[n] = '\0';
	if (n != 40 && n != 64)
		return -1;
	if (out != NULL)
		memcpy(out, buf, n + 1);
	return 0;
}

int
ms_verifier_new(const struct ms_signature_opts *o, struct ms_verifier **out)
{
	struct ms_verifier *v;
	int rc = 0;

	*out = NULL;
	if (o == NULL)
		return 0;
	v = ms_xcalloc(1, sizeof(*v));
	v->o = o;
	v->kind = o->pubkey != NULL ? ED25519 : o->keyring != NULL ? KEYRING :
	    o->allowed_signers != NULL ? SSH : NO_KEY;
	if (v->kind == ED25519)
		rc = load_pubkey(v);
	else if (v->kind == KEYRING)
		rc = load_keyring(v);
	else if (v->kind == SSH &&
	    ms_file_read(o->allowed_signers, KEY_MAX, &v->allowed,
	    &v->allowed_len) == -1) {
		ms_warn("--allowed-signers: %s: %s", ms_quotef(o->allowed_signers),
		    strerror(errno));
		rc = -1;
	}
	if (rc == 0 && o->ns != NULL && v->kind != SSH) {
		ms_warn("--namespace is for SSH signatures, and %s is not an "
		    "OpenSSH public key", ms_quotef(o->pubkey));
		rc = -1;
	}
	if (rc == 0 && o->signer != NULL && v->kind == KEYRING &&
	    ms_signature_fingerprint(o->signer, v->signer) == -1) {
		ms_warn("--signer: '%s' is not an OpenPGP fingerprint (40 or "
		    "64 hex digits)", o->signer);
		rc = -1;
	}
	if (rc == -1) {
		ms_verifier_free(v);
		return -1;
	}
	*out = v;
	return 0;
}

void
ms_verifier_free(struct ms_verifier *v)
{
	if (v == NULL)
		return;
	free(v->keyring);
	free(v->keyring_bin);
	free(v->ssh_key);
	free(v->allowed);
	ms_der_pubkey_free(v->pem);
	free(v);
}

void
ms_signed_list_free(struct ms_signed_list *l)
{
	free(l->data);
	free(l->own);
	free(l->said);
	memset(l, 0, sizeof(*l));
}

/* The list's name in messages. */
static const char *
list_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "standard input" : path;
}

/* A signature file read whole: 0, 1 if it does not exist, -1 after why. */
static int
read_sig(const char *path, char **buf, size_t *len, char **said)
{
	if (ms_file_read(path, SIG_MAX, buf, len) == 0)
		return 0;
	if (errno == ENOENT) {
		free(*buf);
		*buf = NULL;
		return 1;
	}
	*said = ms_xasprintf("%s: %s", ms_quotef(path), errno == EFBIG ?
	    "too long for a signature" : strerror(errno));
	free(*buf);
	*buf = NULL;
	return -1;
}

/* --signature, or the first of path+suffix that exists. */
static int
find_sig(const struct ms_verifier *v, const char *path,
    const char *const *suffix, size_t n, char **name, char **buf, size_t *len,
    char **said)
{
	int rc;

	*name = NULL;
	if (v->o->signature != NULL) {
		*name = ms_xstrdup(v->o->signature);
		rc = read_sig(*name, buf, len, said);
		if (rc == 1)
			*said = ms_xasprintf("%s: %s", ms_quotef(*name),
			    strerror(ENOENT));
		return rc == 0 ? 0 : -1;
	}
	for (size_t i = 0; strcmp(path, "-") != 0 && i < n; i++) {
		*name = ms_xasprintf("%s%s", path, suffix[i]);
		rc = read_sig(*name, buf, len, said);
		if (rc != 1)
			return rc;
		free(*name);
		*name = NULL;
	}
	return 1;
}

/* A refusal: nothing of the list is parsed. */
static void
refuse(struct ms_signed_list *l, const char *path, const char *sig, char *why)
{
	free(l->said);
	l->said = ms_xasprintf("%s: signature not valid: %s%s%s; no file checked",
	    ms_quotef(list_name(path)), sig ? sig : "", sig ? ": " : "", why);
	free(why);
	l->refused = true;
	l->body = NULL;
	l->body_len = 0;
}

/* "(looked for LIST.minisig, LIST.sig and ...)" */
static char *
not_found(const char *path, const char *const *suffix, size_t n,
    const char *embedded)
{
	char *s, *t;

	if (strcmp(path, "-") == 0)
		return ms_xasprintf("found no %s in it, and a detached "
		    "signature of standard input needs --signature=FILE",
		    embedded);
	s = ms_xstrdup("");
	for (size_t i = 0; i < n; i++) {
		t = ms_xasprintf("%s%s%s", s, path, suffix[i]);
		free(s);
		s = ms_xasprintf("%s, ", t);
		free(t);
	}
	t = ms_xasprintf("no signature found (looked for %sand a %s in it)",
	    s, embedded);
	free(s);
	return t;
}

/* A detached signify or minisign signature sig of the whole list. */
static void
detached_ed25519(const struct ms_verifier *v, const char *path,
    const char *name, const char *sig, size_t siglen, struct ms_signed_list *l)
{
	char kn[2 * MS_KEYNUM + 1], tc[256], *why;
	struct ms_minisign_sig ms;
	struct ms_signify_sig ss;
	const char *pwhy;

	ms_keynum_text(kn, v->pub.keynum);
	if (ms_minisign_shaped(sig, siglen)) {
		if (ms_minisign_parse(sig, siglen, &ms, &pwhy) == -1)
			refuse(l, path, name, ms_xasprintf("not a minisign "
			    "signature: %s", pwhy));
		else if (ms_minisign_verify(&ms, &v->pub, l->data, l->len, &why) == -1)
			refuse(l, path, name, why);
		else {
			ms_printable(tc, sizeof(tc), ms.trusted, ms.trusted_len);
			l->said = ms_xasprintf("%s: good minisign signature (%s, "
			    "key %s); trusted comment: %s",
			    ms_quotef(list_name(path)), name, kn, tc);
		}
	} else if (ms_signify_parse(sig, siglen, &ss, &pwhy) == -1) {
		refuse(l, path, name, ms_xasprintf("not a signify or minisign "
		    "signature: %s", pwhy));
	} else if (ms_signify_verify(&ss, &v->pub, l->data, l->len, &why) == -1) {
		refuse(l, path, name, why);
	} else {
		l->said = ms_xasprintf("%s: good signify signature (%s, key %s)",
		    ms_quotef(list_name(path)), name, kn);
	}
}

/* signify -e: the signature at the top, the list under it. */
static void
embedded_ed25519(const struct ms_verifier *v, const char *path,
    struct ms_signed_list *l)
{
	char kn[2 * MS_KEYNUM + 1], *why;
	struct ms_signify_sig ss;
	const char *pwhy;

	ms_keynum_text(kn, v->pub.keynum);
	if (strncmp(l->data, MS_COMMENT_PREFIX, strlen(MS_COMMENT_PREFIX)) != 0)
		refuse(l, path, NULL, not_found(path, ed25519_beside,
		    MS_ARRAY_LEN(ed25519_beside), "signify signature"));
	else if (ms_signify_parse(l->data, l->len, &ss, &pwhy) == -1)
		refuse(l, path, NULL, ms_xasprintf("not a signify signature at "
		    "its top: %s", pwhy));
	else if (ms_signify_verify(&ss, &v->pub, l->data + ss.used,
	    l->len - ss.used, &why) == -1)
		refuse(l, path, NULL, why);
	else {
		l->body = l->data + ss.used;
		l->body_len = l->len - ss.used;
		l->said = ms_xasprintf("%s: good signify signature (at its top, "
		    "key %s)", ms_quotef(list_name(path)), kn);
	}
}

/* gpgv's verdict on sig over data: the good line, or a refusal. */
static void
judge_pgp(const struct ms_verifier *v, const char *path, const char *name,
    const char *sig, size_t siglen, const char *data, size_t len,
    struct ms_signed_list *l)
{
	struct ms_gpgv_verdict verdict;
	char *status, *why;
	size_t status_len;

	if (ms_gpgv_run(v->keyring, v->keyring_bin, v->keyring_len, sig, siglen,
	    data, len, &status, &status_len, &why) == -1) {
		refuse(l, path, name, why);
		return;
	}
	ms_gpgv_judge(status, status_len, v->signer[0] ? v->signer : NULL,
	    &verdict);
	free(status);
	if (!verdict.good)
		refuse(l, path, name, ms_xstrdup(verdict.why));
	else
		l->said = ms_xasprintf("%s: good OpenPGP signature (%s) by %s, "
		    "key %s", ms_quotef(list_name(path)), name, verdict.uid,
		    verdict.fpr);
}

/* A detached OpenPGP signature of the whole list. */
static void
detached_pgp(const struct ms_verifier *v, const char *path, const char *name,
    const char *sig, size_t siglen, struct ms_signed_list *l)
{
	judge_pgp(v, path, name, sig, siglen, l->data, l->len, l);
}

/* A clear-signed list: its signed text is what gpgv checks, and parsed. */
static void
embedded_pgp(const struct ms_verifier *v, const char *path,
    struct ms_signed_list *l)
{
	struct ms_pgp_clear c;
	const char *why;
	unsigned long line;
	int rc = ms_pgp_clear_parse(l->data, l->len, &c, &why, &line);

	if (rc == 1) {
		l->own = c.body;
		judge_pgp(v, path, "clear-signed", c.sig, c.sig_len, c.body,
		    c.body_len, l);
		if (!l->refused) {
			l->body = l->own;
			l->body_len = c.body_len;
		}
	} else if (rc == -1) {
		refuse(l, path, NULL, ms_xasprintf("line %lu: %s", line, why));
	} else {
		refuse(l, path, NULL, not_found(path, pgp_beside,
		    MS_ARRAY_LEN(pgp_beside), "clear-signed message"));
	}
}

/* Is the key of s allowed: --pubkey's, or a line of --allowed-signers? */
static char *
ssh_allowed(const struct ms_verifier *v, const struct ms_sshsig *s,
    char **by)
{
	struct ms_allowed_match m;
	const char *ns = v->o->ns != NULL ? v->o->ns : "file";

	*by = NULL;
	if (v->ssh_key != NULL) {
		if (s->pubkey.n == v->ssh_key_len &&
		    memcmp(s->pubkey.p, v->ssh_key, v->ssh_key_len) == 0)
			return NULL;
		return ms_xasprintf("signed by another key than %s",
		    v->o->pubkey);
	}
	if (ms_allowed_find(v->allowed, v->allowed_len, s->pubkey.p,
	    s->pubkey.n, v->o->signer, ns, (long long)time(NULL), &m) == 0) {
		/* the principal asked for, else the line's patterns */
		*by = v->o->signer != NULL ? ms_xstrdup(v->o->signer) :
		    m.principals;
		if (v->o->signer != NULL)
			free(m.principals);
		return NULL;
	}
	if (m.line != 0)
		return ms_xasprintf("%s line %lu: %s", v->o->allowed_signers,
		    m.line, m.why);
	return ms_xasprintf("%s: %s", v->o->allowed_signers, m.why);
}

/* A detached SSH signature (ssh-keygen -Y sign) of the whole list. */
static void
detached_ssh(const struct ms_verifier *v, const char *path, const char *name,
    const char *sig, size_t siglen, struct ms_signed_list *l)
{
	const char *ns = v->o->ns != NULL ? v->o->ns : "file", *why;
	struct ms_sshsig s;
	struct ms_ssh_key k;
	char fp[64], *refusal, *by;
	bool untouched;

	if (ms_sshsig_parse(sig, siglen, &s, &why) == -1) {
		refuse(l, path, name, ms_xasprintf("not an SSH signature: %s",
		    why));
		return;
	}
	if (ms_ssh_key_parse(s.pubkey.p, s.pubkey.n, &k, &why) == -1)
		refuse(l, path, name, ms_xasprintf("its key: %s", why));
	else if ((refusal = ssh_allowed(v, &s, &by)) != NULL) {
		refuse(l, path, name, refusal);
		ms_ssh_key_free(&k);
	} else {
		if (ms_sshsig_verify(&s, &k, ns, l->data, l->len, &untouched,
		    &why) == -1)
			refuse(l, path, name, ms_xstrdup(why));
		else {
			ms_ssh_fingerprint(k.blob, k.blob_len, fp);
			l->said = ms_xasprintf("%s: good SSH signature (%s, %s "
			    "key %s, namespace %s)%s%s%s",
			    ms_quotef(list_name(path)), name, ms_ssh_key_kind(&k),
			    fp, ns, by != NULL ? " by " : "", by != NULL ? by : "",
			    untouched ? "; the security key was not touched "
			    "(no user-presence flag)" : "");
		}
		free(by);
		ms_ssh_key_free(&k);
	}
	ms_sshsig_free(&s);
}

/* An SSH signature is never inside the list. */
static void
embedded_ssh(const struct ms_verifier *v, const char *path,
    struct ms_signed_list *l)
{
	(void)v;
	refuse(l, path, NULL, strcmp(path, "-") == 0 ? ms_xstrdup("an SSH "
	    "signature of standard input needs --signature=FILE") :
	    ms_xasprintf("no signature found (looked for %s.sig)", path));
}

/* The ways of each kind of key: where to look, what to check. */
static const struct kind {
	const char *const *beside;
	size_t		 nbeside;
	void		(*detached)(const struct ms_verifier *, const char *,
			    const char *, const char *, size_t,
			    struct ms_signed_list *);
	void		(*embedded)(const struct ms_verifier *, const char *,
			    struct ms_signed_list *);
} kinds[] = {
	[ED25519] = { ed25519_beside, MS_ARRAY_LEN(ed25519_beside),
	    detached_ed25519, embedded_ed25519 },
	[KEYRING] = { pgp_beside, MS_ARRAY_LEN(pgp_beside), detached_pgp,
	    embedded_pgp },
	[SSH] = { ssh_beside, MS_ARRAY_LEN(ssh_beside), detached_ssh,
	    embedded_ssh },
};

/* With a key: the signature found and judged; only what it covers kept. */
static void
judge(const struct ms_verifier *v, const char *path, struct ms_signed_list *l)
{
	const struct kind *k = &kinds[v->kind];
	char *name, *sig = NULL, *why = NULL;
	size_t siglen;
	int rc = find_sig(v, path, k->beside, k->nbeside, &name, &sig, &siglen,
	    &why);

	if (rc == -1)
		refuse(l, path, NULL, why);
	else if (rc == 0)
		k->detached(v, path, name, sig, siglen, l);
	else
		k->embedded(v, path, l);
	l->verified = !l->refused;
	free(name);
	free(sig);
}

/*
 * An attestation: its envelopes checked with the PEM key (or not, said
 * so), its subjects handed back as a list's lines.
 */
static void
attestation(const struct ms_verifier *v, const char *path,
    struct ms_signed_list *l)
{
	size_t skipped;
	char *why;

	if (v->kind != NO_KEY && v->kind != PEM) {
		refuse(l, path, NULL, ms_xstrdup("an attestation is checked with "
		    "--pubkey=KEY.pem (ECDSA P-256 or Ed25519), not a signify, "
		    "minisign, OpenSSH or OpenPGP key"));
		return;
	}
	why = ms_attest_read(v->pem, path, l->data, l->len, &l->own,
	    &l->body_len, &skipped);
	if (why != NULL) {
		refuse(l, path, NULL, why);
		return;
	}
	l->body = l->own;
	l->verified = v->pem != NULL;
	l->said = v->pem != NULL ? ms_xasprintf("%s: good DSSE signature "
	    "(%s key)%s", ms_quotef(list_name(path)),
	    ms_der_pubkey_kind(v->pem), skipped ? "; a subject without a digest "
	    "multisum checks (sha256 or stronger) is not checked" : "") :
	    ms_xasprintf("%s: its DSSE signature was NOT checked (check it "
	    "with --pubkey=KEY.pem)%s", ms_quotef(list_name(path)),
	    skipped ? "; a subject without a digest multisum checks (sha256 "
	    "or stronger) is not checked" : "");
}

bool
ms_verifier_keyed(const struct ms_verifier *v)
{
	return v != NULL && v->kind != NO_KEY;
}

char *
ms_unchecked_beside(const char *path)
{
	static const char *const any_beside[] = {
		".minisig", ".sig", ".asc", ".gpg", ".sign",
	};
	struct stat st;

	for (size_t i = 0; strcmp(path, "-") != 0 && i < MS_ARRAY_LEN(any_beside);
	    i++) {
		char *sig = ms_xasprintf("%s%s", path, any_beside[i]), *said;
		bool ed = i == 0;
		char head[sizeof("-----BEGIN SSH SIGNATURE-----")] = "";
		bool ssh = false;
		int fd;

		if (stat(sig, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(sig);
			continue;
		}
		/* a .sig is signify's, SSH's, or OpenPGP's (GNU's tarballs) */
		if (i == 1 && (fd = open(sig, O_RDONLY | O_CLOEXEC)) != -1) {
			ssize_t got = read(fd, head, sizeof(head) - 1);

			ed = got > 0 && ms_begins(head, (size_t)got,
			    MS_COMMENT_PREFIX);
			ssh = got > 0 && ms_sshsig_shaped(head, (size_t)got);
			close(fd);
		}
		said = ms_xasprintf("%s: its signature %s was NOT checked (check "
		    "it with --%s)", ms_quotef(list_name(path)), sig,
		    ssh ? "allowed-signers=FILE or --pubkey=KEY.pub" :
		    ed ? "pubkey=KEY.pub" : "keyring=KEYRING");
		free(sig);
		return said;
	}
	return NULL;
}

bool
ms_unchecked_top_begins(const char *line, size_t len)
{
	return ms_begins(line, len, MS_COMMENT_PREFIX);
}

char *
ms_unchecked_top(const char *path, const char *head, size_t len, size_t *used)
{
	struct ms_signify_sig ss;
	const char *why;

	*used = 0;
	if (ms_signify_parse(head, len, &ss, &why) == -1)
		return NULL;
	*used = ss.used;
	return ms_xasprintf("%s: the signify signature at its top was NOT "
	    "checked (check it with --pubkey=KEY.pub)",
	    ms_quotef(list_name(path)));
}

char *
ms_unchecked_pgp(const char *path)
{
	return ms_xasprintf("%s: its PGP signature was NOT checked (check it "
	    "with --keyring=KEYRING)", ms_quotef(list_name(path)));
}

void
ms_signed_list_read(struct ms_verifier *v, const char *path,
    struct ms_signed_list *l)
{
	memset(l, 0, sizeof(*l));
	if (ms_file_read(path, LIST_MAX, &l->data, &l->len) == -1) {
		if (l->data == NULL) {
			l->open_errno = errno;
			return;
		}
		l->read_errno = errno;
	}
	l->body = l->data;
	l->body_len = l->len;
	if (l->read_errno != 0) {
		/* the bytes read are not the list: there is nothing to check */
		l->refused = true;
		l->body_len = 0;
		return;
	}
	if (ms_attest_named(path))
		attestation(v, path, l);
	else if (v->kind == NO_KEY)
		ms_bug("a list read whole without a key");
	else if (v->kind == PEM)
		refuse(l, path, NULL, ms_xstrdup("a PEM key checks attestations "
		    "only (.intoto.jsonl, .sigstore.json)"));
	else
		judge(v, path, l);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signature_key.c - signify's and minisign's key files: public keys,
 * secret keys (minisign's scrypt encryption, signify's unencrypted form)
 * and --generate-key.
 *
 * The layouts come from the tools' sources (signify.c's struct pubkey and
 * struct enckey; minisign.h's PubkeyStruct and SeckeyStruct): every file
 * is an untrusted comment line and a line of base64.  A public key is
 * "Ed", an 8-byte key number and the Ed25519 key, for both tools.  A
 * minisign secret key is "Ed", the KDF ("Sc" for scrypt, two zero bytes
 * for none), "B2", a 32-byte salt, scrypt's opslimit and memlimit
 * (little-endian), then the key number, the 64-byte secret (seed and
 * public key) and a BLAKE2b-256 checksum of "Ed", key number and secret,
 * those 104 bytes XORed with scrypt's output.  A signify secret key is
 * "Ed", "BK", bcrypt_pbkdf rounds (0: no passphrase), salt, 8 bytes of
 * the secret's SHA-512 as a checksum, key number and secret.  The
 * passphrase prompt is signature_passphrase.c's.
 */
#include "signature/signature_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "digest/digest_set.h"
#include "base/bytes.h"
#include "base/quote.h"
#include "base/util.h"

#define PUB_BYTES	(2 + MS_KEYNUM + MS_ED25519_PUBLIC)
#define MINISIGN_SEC	(2 + 2 + 2 + 32 + 8 + 8 + MS_KEYNUM + 64 + 32)
#define SIGNIFY_SEC	(2 + 2 + 4 + 16 + 8 + MS_KEYNUM + 64)
/* minisign's part under the XOR: key number, secret, checksum */
#define SECRET_PART	(MS_KEYNUM + 64 + 32)
#define SECRET_AT	(2 + 2 + 2 + 32 + 8 + 8)
#define KEY_FILE_MAX	(64 * 1024)
/* libsodium's crypto_pwhash_scryptsalsa208sha256_*_SENSITIVE: minisign -G */
#define OPSLIMIT	UINT64_C(33554432)
#define MEMLIMIT	UINT64_C(1073741824)
/* The most scrypt may take for a key file's cost (4 GiB). */
#define SCRYPT_MAX	(UINT64_C(1) << 32)

static int
pub_decode(const unsigned char raw[PUB_BYTES], struct ms_pubkey *k)
{
	if (memcmp(raw, "Ed", 2) != 0)
		return -1;
	memcpy(k->keynum, raw + 2, MS_KEYNUM);
	memcpy(k->key, raw + 2 + MS_KEYNUM, MS_ED25519_PUBLIC);
	return 0;
}

int
ms_pubkey_parse(const char *text, size_t len, struct ms_pubkey *k,
    const char **why)
{
	unsigned char raw[PUB_BYTES];

	if (ms_block_parse(text, len, raw, sizeof(raw), why) == -1)
		return -1;
	if (pub_decode(raw, k) == -1) {
		*why = "it is not an Ed25519 public key (\"Ed\")";
		return -1;
	}
	return 0;
}

int
ms_pubkey_base64(const char *s, size_t len, struct ms_pubkey *k)
{
	unsigned char raw[PUB_BYTES];

	if (ms_unbase64(raw, sizeof(raw), s, len) != PUB_BYTES)
		return -1;
	return pub_decode(raw, k);
}

int
ms_pubkey_verify(const struct ms_pubkey *k, const unsigned char *keynum,
    const unsigned char sig[MS_ED25519_SIG], const void *msg, size_t len,
    const char *what, char **said)
{
	char want[2 * MS_KEYNUM + 1], got[2 * MS_KEYNUM + 1];
	int ok;

	if (keynum != NULL && memcmp(keynum, k->keynum, MS_KEYNUM) != 0) {
		ms_keynum_text(got, keynum);
		ms_keynum_text(want, k->keynum);
		*said = ms_xasprintf("made by key %s, not by the key given (%s)",
		    got, want);
		return -1;
	}
	ok = ms_ed25519_verify(k->key, sig, msg, len);
	if (ok == 1)
		return 0;
	*said = ok == 0 ? ms_xasprintf("BAD signature: %s is not what the key "
	    "signed", what) : ms_xstrdup("the signature could not be checked");
	return -1;
}

int
ms_seckey_parse(const char *text, size_t len, struct ms_seckey *k,
    const char **why)
{
	unsigned char raw[MINISIGN_SEC];
	long used = ms_block_parse(text, len, raw, MINISIGN_SEC, why);
	const unsigned char *p = raw;

	memset(k, 0, sizeof(*k));
	if (used != -1) {
		k->kind = MS_SECKEY_MINISIGN;
		if (memcmp(p, "Ed", 2) != 0 || memcmp(p + 4, "B2", 2) != 0) {
			*why = "it is not a minisign secret key (\"Ed\", \"B2\")";
			return -1;
		}
		if (memcmp(p + 2, "Sc", 2) == 0)
			k->encrypted = true;
		else if (memcmp(p + 2, "\0\0", 2) != 0) {
			*why = "its key derivation is neither scrypt nor none";
			return -1;
		}
		memcpy(k->salt, p + 6, 32);
		k->opslimit = ms_load_le64(p + 38);
		k->memlimit = ms_load_le64(p + 46);
		memcpy(k->keynum, p + SECRET_AT, MS_KEYNUM);
		memcpy(k->secret, p + SECRET_AT + MS_KEYNUM, 64);
		memcpy(k->checksum, p + SECRET_AT + MS_KEYNUM + 64, 32);
		return 0;
	}
	if (ms_block_parse(text, len, raw, SIGNIFY_SEC, why) == -1) {
		*why = "it is neither a minisign nor a signify secret key";
		return -1;
	}
	k->kind = MS_SECKEY_SIGNIFY;
	if (memcmp(p, "Ed", 2) != 0 || memcmp(p + 2, "BK", 2) != 0) {
		*why = "it is not a signify secret key (\"Ed\", \"BK\")";
		return -1;
	}
	k->rounds = (uint32_t)p[4] << 24 | (uint32_t)p[5] << 16 |
	    (uint32_t)p[6] << 8 | p[7];
	k->encrypted = k->rounds != 0;
	memcpy(k->salt, p + 8, 16);
	memcpy(k->checksum, p + 24, 8);
	memcpy(k->keynum, p + 32, MS_KEYNUM);
	memcpy(k->secret, p + 32 + MS_KEYNUM, 64);
	return 0;
}

/*
 * libsodium's pickparams (crypto_pwhash_scryptsalsa208sha256), which
 * minisign's opslimit and memlimit go through: r = 8, and N and p from the
 * two limits.
 */
int
ms_seckey_cost(uint64_t opslimit, uint64_t memlimit, struct ms_scrypt_cost *c)
{
	uint64_t max_n, max_rp;
	unsigned log2;

	if (opslimit < 32768)
		opslimit = 32768;
	c->r = 8;
	if (opslimit < memlimit / 32) {
		c->p = 1;
		max_n = opslimit / (c->r * 4);
	} else {
		max_n = memlimit / (c->r * 128);
	}
	for (log2 = 1; log2 < 63; log2++)
		if ((UINT64_C(1) << log2) > max_n / 2)
			break;
	c->n = UINT64_C(1) << log2;
	if (!(opslimit < memlimit / 32)) {
		max_rp = (opslimit / 4) / c->n;
		if (max_rp > 0x3fffffff)
			max_rp = 0x3fffffff;
		c->p = (uint32_t)max_rp / c->r;
	}
	if (c->p == 0 || log2 >= 40 || 128 * (uint64_t)c->r * c->n > SCRYPT_MAX)
		return -1;
	return 0;
}

/* minisign's checksum: BLAKE2b-256 of "Ed", the key number and secret. */
static int
minisign_checksum(const unsigned char keynum[MS_KEYNUM],
    const unsigned char secret[64], unsigned char out[32])
{
	unsigned char in[2 + MS_KEYNUM + 64];

	memcpy(in, "Ed", 2);
	memcpy(in + 2, keynum, MS_KEYNUM);
	memcpy(in + 2 + MS_KEYNUM, secret, 64);
	return ms_digest_buffer("blake2b", 256, in, sizeof(in), out);
}

/* XOR minisign's secret part with scrypt of the passphrase. */
static int
minisign_xor(struct ms_seckey *k, const char *pass)
{
	struct ms_scrypt_cost cost;
	unsigned char stream[SECRET_PART];

	if (ms_seckey_cost(k->opslimit, k->memlimit, &cost) == -1) {
		errno = EINVAL;
		return -1;
	}
	if (ms_scrypt(pass, strlen(pass), k->salt, 32, &cost, stream,
	    sizeof(stream)) == -1)
		return -1;
	for (size_t i = 0; i < MS_KEYNUM; i++)
		k->keynum[i] ^= stream[i];
	for (size_t i = 0; i < 64; i++)
		k->secret[i] ^= stream[MS_KEYNUM + i];
	for (size_t i = 0; i < 32; i++)
		k->checksum[i] ^= stream[MS_KEYNUM + 64 + i];
	explicit_bzero(stream, sizeof(stream));
	return 0;
}

/* An unlocked minisign key's checksum holds (zero: minisign -W wrote none). */
static int
minisign_check(const struct ms_seckey *k, const char *name)
{
	static const unsigned char none[32];
	unsigned char sum[32];

	if (!k->encrypted && memcmp(k->checksum, none, 32) == 0)
		return 0;
	if (minisign_checksum(k->keynum, k->secret, sum) == -1)
		return -1;
	if (memcmp(sum, k->checksum, 32) != 0) {
		if (k->encrypted)
			ms_warn("%s: wrong passphrase for this key", ms_quotef(name));
		else
			ms_warn("%s: corrupt minisign key (its checksum does not "
			    "match)", ms_quotef(name));
		return -1;
	}
	return 0;
}

static int
minisign_unlock(const struct ms_signature_opts *o, struct ms_seckey *k)
{
	char pass[1024];

	if (!k->encrypted)
		return minisign_check(k, o->sign);
	if (ms_passphrase_unlock(o, "Passphrase of the minisign key: ", pass,
	    sizeof(pass)) != 0)
		return -1;
	if (minisign_xor(k, pass) == -1) {
		explicit_bzero(pass, sizeof(pass));
		ms_warn("%s: the key's scrypt cost cannot be met: %s",
		    ms_quotef(o->sign), errno == EINVAL ? "out of range" :
		    strerror(errno));
		return -1;
	}
	explicit_bzero(pass, sizeof(pass));
	return minisign_check(k, o->sign);
}

static int
signify_unlock(const struct ms_signature_opts *o, const struct ms_seckey *k)
{
	unsigned char sum[64];

	if (k->encrypted) {
		ms_warn("%s: a passphrase-protected signify key: its passphrase "
		    "goes through bcrypt_pbkdf, which libcrypto lacks, so "
		    "multisum cannot open it (sign with signify -S, or use a "
		    "key of signify -G -n or multisum --generate-key)",
		    ms_quotef(o->sign));
		return -1;
	}
	if (ms_digest_buffer("sha512", 0, k->secret, 64, sum) == -1)
		return -1;
	if (memcmp(sum, k->checksum, 8) != 0) {
		ms_warn("%s: corrupt signify key (its checksum does not match)",
		    ms_quotef(o->sign));
		return -1;
	}
	return 0;
}

/* signify -S's comment: "verify with NAME.pub" for a key NAME.sec. */
static char *
signify_comment(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base != NULL ? base + 1 : path;
	n = strlen(base);
	if (n > 4 && strcmp(base + n - 4, ".sec") == 0)
		return ms_xasprintf("verify with %.*s.pub", (int)(n - 4), base);
	return ms_xstrdup("signature from multisum");
}

int
ms_signer_load(const struct ms_signature_opts *o, struct ms_signer *s)
{
	struct ms_seckey k;
	const char *why;
	char *text;
	size_t len;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	if (ms_file_read(o->sign, KEY_FILE_MAX, &text, &len) == -1) {
		ms_warn("%s: %s", ms_quotef(o->sign), errno == EFBIG ?
		    "too long for a key file" : strerror(errno));
		free(text);
		return -1;
	}
	if (ms_seckey_parse(text, len, &k, &why) == -1)
		ms_warn("%s: not a secret key: %s", ms_quotef(o->sign), why);
	else if ((k.kind == MS_SECKEY_MINISIGN ? minisign_unlock(o, &k) :
	    signify_unlock(o, &k)) == 0 &&
	    ms_ed25519_public(k.secret, s->pub) == 0) {
		if (memcmp(s->pub, k.secret + MS_ED25519_SEED,
		    MS_ED25519_PUBLIC) != 0)
			ms_warn("%s: corrupt key (its public half does not "
			    "match its secret)", ms_quotef(o->sign));
		else
			rc = 0;
	}
	if (rc == 0) {
		s->kind = k.kind;
		memcpy(s->keynum, k.keynum, MS_KEYNUM);
		memcpy(s->seed, k.secret, MS_ED25519_SEED);
		s->comment = signify_comment(o->sign);
	}
	explicit_bzero(&k, sizeof(k));
	explicit_bzero(text, len);
	free(text);
	return rc;
}

void
ms_signer_forget(struct ms_signer *s)
{
	free(s->comment);
	explicit_bzero(s, sizeof(*s));
}

/* Create path for writing, never over an existing file; -1 after a message. */
static int
create_new(const char *path, mode_t mode, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
	    mode);

	if (fd == -1) {
		ms_warn("%s: %s%s", ms_quotef(path), strerror(errno),
		    errno == EEXIST ? " (not replaced: remove it first)" : "");
		return -1;
	}
	if (ms_write_full(fd, text, strlen(text)) == -1 || fsync(fd) == -1 ||
	    close(fd) == -1) {
		ms_warn("%s: write error: %s", ms_quotef(path), strerror(errno));
		unlink(path);
		return -1;
	}
	return 0;
}

/* The two files of a new key pair, from seed and key number. */
static int
write_pair(const char *name, const unsigned char seed[MS_ED25519_SEED],
    const unsigned char keynum[MS_KEYNUM], const char *pass)
{
	unsigned char raw[MINISIGN_SEC], pub[PUB_BYTES];
	char b64[4 * ((MINISIGN_SEC + 2) / 3) + 1], kn[2 * MS_KEYNUM + 1];
	char pb64[4 * ((PUB_BYTES + 2) / 3) + 1];
	char *key = ms_xasprintf("%s.key", name), *pubf = ms_xasprintf("%s.pub", name);
	char *text;
	struct ms_seckey k = { .kind = MS_SECKEY_MINISIGN, .encrypted = pass != NULL,
	    .opslimit = pass != NULL ? OPSLIMIT : 0,
	    .memlimit = pass != NULL ? MEMLIMIT : 0 };
	int rc = -1;

	memcpy(pub, "Ed", 2);
	memcpy(pub + 2, keynum, MS_KEYNUM);
	if (ms_ed25519_public(seed, pub + 2 + MS_KEYNUM) == -1)
		goto out;
	/* libsodium's secret key: the seed, then the public key */
	memcpy(k.keynum, keynum, MS_KEYNUM);
	memcpy(k.secret, seed, MS_ED25519_SEED);
	memcpy(k.secret + MS_ED25519_SEED, pub + 2 + MS_KEYNUM, MS_ED25519_PUBLIC);
	if (minisign_checksum(k.keynum, k.secret, k.checksum) == -1)
		goto out;
	if (pass != NULL && (ms_random(k.salt, sizeof(k.salt)) == -1 ||
	    minisign_xor(&k, pass) == -1)) {
		if (errno == ENOMEM)
			ms_warn("scrypt needs 1 GiB of memory to encrypt the key");
		goto out;
	}
	memcpy(raw, "Ed", 2);
	memcpy(raw + 2, pass != NULL ? "Sc" : "\0\0", 2);
	memcpy(raw + 4, "B2", 2);
	memcpy(raw + 6, k.salt, 32);
	ms_store_le64(raw + 38, k.opslimit);
	ms_store_le64(raw + 46, k.memlimit);
	memcpy(raw + SECRET_AT, k.keynum, MS_KEYNUM);
	memcpy(raw + SECRET_AT + MS_KEYNUM, k.secret, 64);
	memcpy(raw + SECRET_AT + MS_KEYNUM + 64, k.checksum, 32);
	ms_base64(b64, raw, sizeof(raw));
	text = ms_xasprintf(MS_COMMENT_PREFIX "minisign %ssecret key\n%s\n",
	    pass != NULL ? "encrypted " : "unencrypted ", b64);
	rc = create_new(key, 0600, text);
	explicit_bzero(text, strlen(text));
	free(text);
	if (rc == 0) {
		ms_keynum_text(kn, keynum);
		ms_base64(pb64, pub, sizeof(pub));
		text = ms_xasprintf(MS_COMMENT_PREFIX "minisign public key %s\n"
		    "%s\n", kn, pb64);
		rc = create_new(pubf, 0644, text);
		free(text);
		if (rc == -1)
			unlink(key);
	}
	if (rc == 0)
		printf("%s: the secret key%s: keep it secret\n"
		    "%s: the public key %s (minisign -P form: %s)\n",
		    key, pass != NULL ? ", encrypted with your passphrase" :
		    ", not encrypted", pubf, kn, pb64);
out:
	explicit_bzero(&k, sizeof(k));
	explicit_bzero(b64, sizeof(b64));
	explicit_bzero(raw, sizeof(raw));
	free(key);
	free(pubf);
	return rc;
}

int
ms_generate_key(const struct ms_signature_opts *o)
{
	unsigned char seed[MS_ED25519_SEED], keynum[MS_KEYNUM];
	char pass[1024];
	int got = 1, rc;

	/* Refused before the passphrase is typed, not after. */
	for (int i = 0; i < 2; i++) {
		char *f = ms_xasprintf("%s.%s", o->generate, i ? "pub" : "key");
		struct stat st;

		rc = lstat(f, &st);
		if (rc == 0)
			ms_warn("%s: exists: not replaced (remove it first, or "
			    "choose another NAME)", ms_quotef(f));
		free(f);
		if (rc == 0)
			return MS_EXIT_FAIL;
	}
	if (!o->no_passphrase) {
		got = ms_passphrase_get(o, "Passphrase for the new key: ", true,
		    pass, sizeof(pass));
		if (got == -1)
			return MS_EXIT_FAIL;
		if (got == 1) {
			/* never a secret key in the clear unless asked for */
			ms_warn("no terminal to ask a passphrase on: %s.key not "
			    "written (--passphrase-file=FILE encrypts it, "
			    "--no-passphrase leaves it unencrypted)", o->generate);
			return MS_EXIT_FAIL;
		}
		if (pass[0] == '\0') {
			ms_warn("an empty passphrase: give --no-passphrase for a "
			    "key that is not encrypted");
			return MS_EXIT_FAIL;
		}
	}
	if (ms_random(seed, sizeof(seed)) == -1 ||
	    ms_random(keynum, sizeof(keynum)) == -1)
		return MS_EXIT_FAIL;
	rc = write_pair(o->generate, seed, keynum, got == 0 ? pass : NULL);
	explicit_bzero(pass, sizeof(pass));
	explicit_bzero(seed, sizeof(seed));
	return rc == 0 ? MS_EXIT_OK : MS_EXIT_FAIL;
}

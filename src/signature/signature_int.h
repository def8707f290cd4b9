/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signature_int.h - what the files of src/signature/ share: the parsed
 * forms of keys and signatures, the pure parsers (fuzzed by
 * fuzz/fuzz-signature.c), the crypto primitives and the helpers for
 * text and files.  The modes use signature.h only.
 *
 * Every parser takes the bytes of a file as read and never does I/O; a
 * refusal comes with a reason (a static string) for the one line the
 * user sees.
 */
#ifndef MS_SIGNATURE_INT_H
#define MS_SIGNATURE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "signature/signature.h"

#define MS_ED25519_PUBLIC	32
#define MS_ED25519_SEED		32
#define MS_ED25519_SIG		64
#define MS_KEYNUM		8	/* signify's and minisign's key id */

/* "untrusted comment: ", the first line of signify's and minisign's files */
#define MS_COMMENT_PREFIX	"untrusted comment: "

/* ----------------------------------------------- signature_crypto.c */

struct ms_scrypt_cost {
	uint64_t	 n;		/* CPU/memory cost, a power of 2 */
	uint32_t	 r, p;
};

/* 1 if sig is pub's signature of msg, 0 if not, -1 after a message. */
int	 ms_ed25519_verify(const unsigned char pub[MS_ED25519_PUBLIC],
	    const unsigned char sig[MS_ED25519_SIG], const void *msg, size_t len);
/* The public key of a seed (RFC 8032's 32-byte private key). */
int	 ms_ed25519_public(const unsigned char seed[MS_ED25519_SEED],
	    unsigned char pub[MS_ED25519_PUBLIC]);
int	 ms_ed25519_sign(const unsigned char seed[MS_ED25519_SEED],
	    const void *msg, size_t len, unsigned char sig[MS_ED25519_SIG]);
/*
 * 1 if sig is the signature of msg by the key of spki (DER
 * SubjectPublicKeyInfo) with digest md (NULL: Ed25519's own), 0 if not
 * (or libcrypto cannot read the key), -1 after a message.
 */
int	 ms_pkey_verify(const unsigned char *spki, size_t n, const char *md,
	    const unsigned char *sig, size_t siglen, const void *msg, size_t len);
/* msg signed with der, a private key of EVP_PKEY type (malloc); NULL after a message. */
unsigned char *ms_pkey_sign(int type, const unsigned char *der, size_t n,
	    const char *md, const void *msg, size_t len, size_t *siglen);
/* AES-256-CTR of buf in place; -1 after a message. */
int	 ms_aes256_ctr(const unsigned char key[32], const unsigned char iv[16],
	    unsigned char *buf, size_t n);
/*
 * a mod (m - 1), both big-endian magnitudes, as a DER INTEGER's content
 * (malloc, a zero byte first): an RSA key's CRT exponents.  NULL after
 * a message.
 */
unsigned char *ms_mod_less_one(const unsigned char *a, size_t an,
	    const unsigned char *m, size_t mn, size_t *outn);
/*
 * A public key in DER (SubjectPublicKeyInfo, a PEM file's body): ECDSA
 * P-256 or Ed25519, else NULL with *why.  verify: 1 if sig (ECDSA: DER,
 * over SHA-256) is the key's of msg, 0 if not, -1 after a message.
 */
void	*ms_der_pubkey(const unsigned char *der, size_t len, const char **why);
const char *ms_der_pubkey_kind(void *key);
int	 ms_der_pubkey_verify(void *key, const unsigned char *sig,
	    size_t siglen, const void *msg, size_t len);
void	 ms_der_pubkey_free(void *key);
/* ----------------------------------------------- signature_attest.c */

/* A bundle by its name (.sigstore.json, .sigstore). */
bool	 ms_attest_bundle(const char *path);
/* The key of a PEM file (ECDSA P-256 or Ed25519), or NULL with *why. */
void	*ms_attest_key(const char *text, size_t len, const char **why);
/*
 * The attestation data[0..len) called path: its envelopes' signatures
 * checked with key (NULL: not checked), its subjects as the lines of a
 * list into *body (malloc), *body_len; *skipped subjects had no digest
 * multisum checks.  NULL, or the reason it is refused (malloc).
 */
char	*ms_attest_read(void *key, const char *path, const char *data,
	    size_t len, char **body, size_t *body_len, size_t *skipped);

/* scrypt into out; -1 with errno (ENOMEM: the cost is more than we have). */
int	 ms_scrypt(const char *pass, size_t passlen, const unsigned char *salt,
	    size_t saltlen, const struct ms_scrypt_cost *cost,
	    unsigned char *out, size_t outlen);
/* n bytes from the kernel's random source; -1 after a message. */
int	 ms_random(void *p, size_t n);

/* ------------------------------------------------- signature_text.c */

/* One line of a text: its bytes without the newline and a CR before it. */
struct ms_line_view {
	const char	*p;
	size_t		 len;
	bool		 newline;	/* it ended in a newline */
};

/* The line at *at of buf[0..len), moving *at past it; false at the end. */
bool	 ms_text_line(const char *buf, size_t len, size_t *at,
	    struct ms_line_view *l);

/*
 * The block signify and minisign begin every file with: an untrusted
 * comment line, then one line of base64 that decodes to exactly n bytes.
 * Returns the bytes of buf the two lines take, or -1 with *why.
 */
long	 ms_block_parse(const char *buf, size_t len, unsigned char *out,
	    size_t n, const char **why);

/* minisign's key id text: the 8 bytes as one little-endian number, in hex. */
void	 ms_keynum_text(char out[2 * MS_KEYNUM + 1],
	    const unsigned char keynum[MS_KEYNUM]);

/*
 * The whole of path ("-": standard input) in memory, at most cap bytes:
 * 0, or -1 with errno (EFBIG: longer than cap).  *buf is NUL-terminated,
 * holds what was read before an error, and is NULL if path did not open;
 * the caller frees it in every case.
 */
int	 ms_file_read(const char *path, size_t cap, char **buf, size_t *len);

/* text with control characters (but tabs) as '?', into at most cap bytes. */
void	 ms_printable(char *out, size_t cap, const char *text, size_t len);

/* -------------------------------------------------- signature_key.c */

/* A public key as signify and minisign write it (they share the form). */
struct ms_pubkey {
	unsigned char	 keynum[MS_KEYNUM];
	unsigned char	 key[MS_ED25519_PUBLIC];
};

/* A key file's text (comment line, base64 line); -1 with *why. */
int	 ms_pubkey_parse(const char *text, size_t len, struct ms_pubkey *k,
	    const char **why);
/* minisign's -P form: the base64 line alone. */
int	 ms_pubkey_base64(const char *s, size_t len, struct ms_pubkey *k);

/*
 * Is sig k's signature of msg, made by the key numbered keynum (NULL: no
 * number to compare)?  0, or -1 with *said (malloc): another key's, or
 * what ("the list") is not what the key signed.
 */
int	 ms_pubkey_verify(const struct ms_pubkey *k, const unsigned char *keynum,
	    const unsigned char sig[MS_ED25519_SIG], const void *msg, size_t len,
	    const char *what, char **said);

enum ms_seckey_kind { MS_SECKEY_SIGNIFY, MS_SECKEY_MINISIGN };

/* A secret key file as parsed: its secret may still be encrypted. */
struct ms_seckey {
	enum ms_seckey_kind kind;
	bool		 encrypted;
	uint32_t	 rounds;	/* signify: bcrypt_pbkdf rounds (0: none) */
	uint64_t	 opslimit, memlimit;	/* minisign: scrypt's cost */
	unsigned char	 salt[32];
	/* minisign encrypts keynum, secret and checksum together */
	unsigned char	 keynum[MS_KEYNUM];
	unsigned char	 secret[64];	/* seed, then the public key */
	unsigned char	 checksum[32];	/* minisign: BLAKE2b-256; signify: 8 of SHA-512 */
};

int	 ms_seckey_parse(const char *text, size_t len, struct ms_seckey *k,
	    const char **why);
/* minisign's scrypt cost from its opslimit and memlimit (libsodium's rule). */
int	 ms_seckey_cost(uint64_t opslimit, uint64_t memlimit,
	    struct ms_scrypt_cost *cost);

/*
 * A passphrase into buf: the first line of --passphrase-file, else asked
 * on the terminal with prompt (twice, to confirm, when twice).  0; 1 if
 * there is no terminal to ask on; -1 after a message.
 */
int	 ms_passphrase_get(const struct ms_signature_opts *o, const char *prompt,
	    bool twice, char *buf, size_t cap);
/* The passphrase of the encrypted key --sign names, asked once: 0; -1
 * after a message (no terminal: how to give it). */
int	 ms_passphrase_unlock(const struct ms_signature_opts *o,
	    const char *prompt, char *buf, size_t cap);

/* A secret key ready to sign with. */
struct ms_signer {
	enum ms_seckey_kind kind;
	unsigned char	 keynum[MS_KEYNUM];
	unsigned char	 seed[MS_ED25519_SEED];
	unsigned char	 pub[MS_ED25519_PUBLIC];
	char		*comment;	/* signify: "verify with NAME.pub" */
};

/* --sign=FILE: read, decrypted (asking the passphrase), checked. */
int	 ms_signer_load(const struct ms_signature_opts *o, struct ms_signer *s);
void	 ms_signer_forget(struct ms_signer *s);

/* ----------------------------------------------- signature_signify.c */

struct ms_signify_sig {
	unsigned char	 keynum[MS_KEYNUM];
	unsigned char	 sig[MS_ED25519_SIG];
	size_t		 used;		/* its two lines; a message may follow */
};

int	 ms_signify_parse(const char *buf, size_t len, struct ms_signify_sig *s,
	    const char **why);
/* Verify msg against s and k; 0, or -1 with *said (malloc) saying why. */
int	 ms_signify_verify(const struct ms_signify_sig *s,
	    const struct ms_pubkey *k, const char *msg, size_t len, char **said);
/* The two lines of a signify signature of msg (malloc, NUL-terminated). */
char	*ms_signify_sign(const struct ms_signer *s, const char *msg, size_t len);

/* ---------------------------------------------- signature_minisign.c */

struct ms_minisign_sig {
	bool		 prehashed;	/* "ED": BLAKE2b-512 of the file signed */
	unsigned char	 keynum[MS_KEYNUM];
	unsigned char	 sig[MS_ED25519_SIG];
	unsigned char	 global[MS_ED25519_SIG];	/* of sig || trusted comment */
	const char	*trusted;	/* inside the parsed buffer */
	size_t		 trusted_len;
};

/* Is buf shaped as minisign's four lines (a trusted comment third)? */
bool	 ms_minisign_shaped(const char *buf, size_t len);
int	 ms_minisign_parse(const char *buf, size_t len,
	    struct ms_minisign_sig *s, const char **why);
int	 ms_minisign_verify(const struct ms_minisign_sig *s,
	    const struct ms_pubkey *k, const char *msg, size_t len, char **said);
/* minisign's four lines for msg, prehashed, trusted comment as minisign's. */
char	*ms_minisign_sign(const struct ms_signer *s, const char *msg,
	    size_t len, const char *file);

/* ----------------------------------------------- signature_openpgp.c */

/* Does text hold an ASCII-armoured OpenPGP public key block? */
bool	 ms_pgp_armored_key(const char *text, size_t len);
/* Every armoured key block of text, decoded (malloc); -1 with *why. */
int	 ms_pgp_dearmor(const char *text, size_t len, unsigned char **out,
	    size_t *outlen, const char **why);

/* A clear-signed message taken apart (RFC 4880, 7). */
struct ms_pgp_clear {
	char		*body;		/* the signed text as signed (malloc) */
	size_t		 body_len;
	const char	*sig;		/* the armoured signature, inside buf */
	size_t		 sig_len;
};

/*
 * 1 if buf is a clear-signed message (c filled), 0 if it holds none, -1
 * with *why if it is malformed, holds two, or has text outside its
 * signed part (*line then says where).
 */
int	 ms_pgp_clear_parse(const char *buf, size_t len, struct ms_pgp_clear *c,
	    const char **why, unsigned long *line);
/* Is there a clear-signed header line in buf? */
bool	 ms_pgp_clear_present(const char *buf, size_t len);

/* ---------------------------------------------------- signature_ssh.c */

/* SSH's wire encoding, read: a failed read sets bad and gives nothing. */
struct ms_ssh_rd {
	const unsigned char *p;
	size_t		 n;
	bool		 bad;
};
struct ms_ssh_str {
	const unsigned char *p;
	size_t		 n;
};
/* A growing buffer of bytes (p malloc). */
struct ms_buf {
	unsigned char	*p;
	size_t		 n, cap;
};

uint32_t ms_ssh_u32(struct ms_ssh_rd *r);
struct ms_ssh_str ms_ssh_string(struct ms_ssh_rd *r);
bool	 ms_ssh_is(struct ms_ssh_str s, const char *text);
void	 ms_ssh_put(struct ms_buf *b, const void *p, size_t n);
void	 ms_ssh_put_string(struct ms_buf *b, const void *p, size_t n);
/* DER: one TLV; an mpint as INTEGER; b's bytes wrapped (b emptied). */
void	 ms_der_put(struct ms_buf *b, unsigned char tag, const void *p,
	    size_t n);
void	 ms_der_int(struct ms_buf *b, struct ms_ssh_str m);
void	 ms_der_wrap(struct ms_buf *out, unsigned char tag, struct ms_buf *b);

/* The NIST curves: SSH's name, the digest of its ECDSA, DER's OID. */
struct ms_ssh_curve {
	const char	*name;
	const char	*md;
	unsigned char	 oid[12];
	size_t		 oidlen;
	size_t		 bytes;		/* of a scalar */
};
extern const struct ms_ssh_curve ms_ssh_curves[];	/* P-256 first */
const struct ms_ssh_curve *ms_ssh_curve(struct ms_ssh_str name);

enum ms_ssh_kind {
	MS_SSH_ED25519, MS_SSH_ECDSA, MS_SSH_RSA, MS_SSH_SK_ED25519,
	MS_SSH_SK_ECDSA,
};

/* An OpenSSH public key, from its wire blob (which it points into). */
struct ms_ssh_key {
	enum ms_ssh_kind kind;
	const unsigned char *blob;
	size_t		 blob_len;
	const struct ms_ssh_curve *curve;	/* ECDSA */
	struct ms_ssh_str application;		/* sk- keys */
	struct ms_buf	 spki;		/* for libcrypto */
};

int	 ms_ssh_key_parse(const unsigned char *blob, size_t n,
	    struct ms_ssh_key *k, const char **why);
void	 ms_ssh_key_free(struct ms_ssh_key *k);
/* "ED25519", "ECDSA", "RSA", "ED25519-SK", "ECDSA-SK", as ssh-keygen says. */
const char *ms_ssh_key_kind(const struct ms_ssh_key *k);
/* "SHA256:" and the unpadded base64 of the blob's SHA-256. */
void	 ms_ssh_fingerprint(const unsigned char *blob, size_t n, char out[64]);
/* Does text begin as an OpenSSH public key line (ssh-, ecdsa-, sk-)? */
bool	 ms_ssh_pubkey_shaped(const char *text, size_t len);
/* "TYPE BASE64 [COMMENT]": the blob (malloc); -1 with *why. */
int	 ms_ssh_pubkey_text(const char *text, size_t len, unsigned char **blob,
	    size_t *n, const char **why);

/* An SSH signature as parsed; the strings point into raw. */
struct ms_sshsig {
	unsigned char	*raw;
	uint32_t	 version;
	struct ms_ssh_str pubkey, ns, reserved, hash, sig;
};

bool	 ms_sshsig_shaped(const char *buf, size_t len);
int	 ms_sshsig_parse(const char *buf, size_t len, struct ms_sshsig *s,
	    const char **why);
void	 ms_sshsig_free(struct ms_sshsig *s);
/* What an SSH signature signs, appended to out; -1 after a message. */
int	 ms_sshsig_blob(const char *ns, struct ms_ssh_str reserved,
	    const char *hash, const void *msg, size_t len, struct ms_buf *out);
/*
 * Is s k's signature of msg in namespace ns?  0, or -1 with *why (static).
 * k must be s's own key (the caller compared the blobs).  *untouched: a
 * security key signed without the user-presence flag.
 */
int	 ms_sshsig_verify(const struct ms_sshsig *s, const struct ms_ssh_key *k,
	    const char *ns, const char *msg, size_t len, bool *untouched,
	    const char **why);

/* ------------------------------------------------- signature_bcrypt.c */

/* OpenBSD's bcrypt_pbkdf into key[0..keylen) (at most 1024); -1 after a message. */
int	 ms_bcrypt_pbkdf(const char *pass, size_t passlen,
	    const unsigned char *salt, size_t saltlen, unsigned rounds,
	    unsigned char *key, size_t keylen);

/* ------------------------------------------------- signature_sshkey.c */

/* OpenSSH's private key, unlocked (signature_sshkey.c). */
struct ms_ssh_signer;

/* Is text an OpenSSH private key ("-----BEGIN OPENSSH PRIVATE KEY-----")? */
bool	 ms_ssh_seckey_shaped(const char *text, size_t len);
/* --sign=FILE, an OpenSSH private key: read, decrypted, checked. */
int	 ms_ssh_signer_load(const struct ms_signature_opts *o,
	    const char *text, size_t len, struct ms_ssh_signer **out);
void	 ms_ssh_signer_free(struct ms_ssh_signer *s);
/* The armoured SSH signature of msg (malloc); NULL after a message. */
char	*ms_ssh_sign(const struct ms_ssh_signer *s, const char *ns,
	    const char *msg, size_t len);

/* ------------------------------------------------ signature_allowed.c */

/* The allowed signers line that holds a key, and what it allows. */
struct ms_allowed_match {
	char		*principals;	/* as written (malloc) */
	const char	*why;		/* no line: why (static) */
	unsigned long	 line;		/* of why, when it is one line's */
};

/*
 * Find the key blob in the allowed signers text for principal (NULL:
 * any), namespace ns at time now: 0 with m->principals, or -1 with
 * m->why.
 */
int	 ms_allowed_find(const char *text, size_t len, const unsigned char *blob,
	    size_t n, const char *principal, const char *ns, long long now,
	    struct ms_allowed_match *m);

/* -------------------------------------------------- signature_gpgv.c */

/* What gpgv's status lines say about the signatures of one run. */
struct ms_gpgv_verdict {
	bool		 good;		/* a good signature by a wanted key */
	char		 fpr[65];	/* its primary key's fingerprint */
	char		 uid[160];	/* its user id, printable */
	char		 why[512];	/* not good: the first reason */
};

/*
 * Judge gpgv's --status-fd output: good when a signature is GOODSIG and
 * VALIDSIG (by signer's primary key or subkey if signer is not NULL) and
 * no signature is BAD; an expired or revoked key, an expired signature
 * or a missing key make a signature count for nothing.
 */
void	 ms_gpgv_judge(const char *status, size_t len, const char *signer,
	    struct ms_gpgv_verdict *v);

/*
 * Run gpgv with a keyring on the detached signature sig over data, both
 * from memory; its status lines into *status (malloc).  The keyring is
 * the file keyring, else the bytes bin (a temporary file in TMPDIR while
 * gpgv runs).  gpgv has MULTISUM_GPGV_TIMEOUT seconds (ms_gpgv_timeout)
 * and is killed after them; a fatal signal kills it and removes the
 * temporary keyring.  -1 with *why (malloc) if gpgv could not be run or
 * did not answer in time.
 */
int	 ms_gpgv_run(const char *keyring, const unsigned char *bin,
	    size_t binlen, const char *sig, size_t siglen, const char *data,
	    size_t len, char **status, size_t *status_len, char **why);

#endif

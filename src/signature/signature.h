/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * signature.h - signed checksum lists: what the modes ask of the
 * signature layer.
 *
 * Verifying (-c with a key): a list is read into memory once, its
 * signature found and checked against exactly those bytes, and only the
 * signed bytes are handed back to be parsed.  Without a key the list is
 * read as any other, as a stream, and a signed list gets a note that its
 * signature was not checked (ms_unchecked_*).  Signing (-o with --sign): the secret key is unlocked
 * before anything is hashed, and the signature is written with the list,
 * atomically (io/output.h's companion file).  --generate-key makes a
 * minisign key pair.
 */
#ifndef MS_SIGNATURE_H
#define MS_SIGNATURE_H

#include <stdbool.h>
#include <stddef.h>

#include "io/output.h"

/* The command line's signature options (SPEC.md, "Signed lists"). */
struct ms_signature_opts {
	const char	*pubkey;	/* --pubkey: signify, minisign or OpenSSH key, or
					 * base64; PEM for attestations */
	const char	*keyring;	/* --keyring: OpenPGP keys, for gpgv */
	const char	*allowed_signers;	/* --allowed-signers: OpenSSH's */
	const char	*ns;		/* --namespace: SSH signatures' (NULL: file) */
	const char	*signature;	/* --signature: else beside or embedded */
	const char	*signer;	/* --signer: OpenPGP fingerprint or SSH principal */
	const char	*sign;		/* --sign: a secret key */
	bool		 sign_embedded;	/* --sign-embedded: signify's -e form */
	const char	*passphrase_file;	/* --passphrase-file */
	const char	*generate;	/* --generate-key=NAME */
	bool		 no_passphrase;	/* --no-passphrase */
};

/* A list as read, and the part of it to parse. */
struct ms_signed_list {
	char		*data;		/* every byte read, once */
	size_t		 len;
	const char	*body;		/* what to parse: data, or signed part */
	size_t		 body_len;
	char		*own;		/* body when it is not inside data */
	int		 open_errno;	/* it could not be opened */
	int		 read_errno;	/* it could not be read to the end */
	bool		 refused;	/* a signature problem: parse nothing */
	bool		 verified;	/* the signature was checked and is good */
	/*
	 * One line for the report (malloc, or NULL): the good signature and
	 * by whom; the reason of a refusal; or, without a key, that the
	 * list's signature was not checked.
	 */
	char		*said;
};

struct ms_verifier;

/*
 * The verifier of a check run: the key of --pubkey or --keyring loaded
 * once (NULL opts: the faces, which read lists plainly).  -1 after a
 * message if the key is unusable.
 */
int	 ms_verifier_new(const struct ms_signature_opts *opts,
	    struct ms_verifier **out);
void	 ms_verifier_free(struct ms_verifier *v);

/*
 * Is path an attestation (.intoto.jsonl, .sigstore.json, .sigstore)?
 * Such a list is read whole, keyed or not (ms_signed_list_read), and
 * handed back as the lines of its subjects' digests.
 */
bool	 ms_attest_named(const char *path);

/* Was a key given (--pubkey, --keyring)?  False for NULL. */
bool	 ms_verifier_keyed(const struct ms_verifier *v);

/*
 * With a key: read the list path ("-": standard input) whole, once, and
 * judge its signature.
 */
void	 ms_signed_list_read(struct ms_verifier *v, const char *path,
	    struct ms_signed_list *l);
void	 ms_signed_list_free(struct ms_signed_list *l);

/*
 * Without a key, the notes of a signed list (malloc, or NULL): that a
 * signature beside path (LIST.minisig, .sig, .asc, .gpg, .sign) was not
 * checked, and how to check it; that a signify signature at its top was
 * not (head: the list's first two lines; ms_unchecked_top_begins says
 * whether the first may begin one; *used: the bytes of the signature,
 * which are not to be parsed); that its PGP signature was not.
 */
char	*ms_unchecked_beside(const char *path);
bool	 ms_unchecked_top_begins(const char *line, size_t len);
char	*ms_unchecked_top(const char *path, const char *head, size_t len,
	    size_t *used);
char	*ms_unchecked_pgp(const char *path);

/*
 * -o with --sign: unlock the secret key (asking its passphrase now, not
 * after the hashing) and attach the signature file to out, which then
 * writes both or neither.  -1 after a message.
 */
int	 ms_sign_prepare(const struct ms_signature_opts *opts,
	    struct ms_output *out);

/*
 * --sign for a run that writes many lists (--per-dir): the key unlocked
 * once (NULL after a message), then attached to each list's output,
 * which writes list and signature together (-1 after a message), and
 * closed (forgotten) at the end.  ms_sign_suffix: ".minisig" or ".sig".
 */
struct ms_sign_key;
struct ms_sign_key *ms_sign_key_open(const struct ms_signature_opts *opts);
int	 ms_sign_attach(struct ms_sign_key *k, struct ms_output *out);
const char *ms_sign_suffix(const struct ms_sign_key *k);
void	 ms_sign_key_close(struct ms_sign_key *k);

/*
 * --signer's value as gpgv prints fingerprints: 40 or 64 hex digits
 * (spaces and a leading 0x dropped) into out (if not NULL); -1 if it is
 * no fingerprint.
 */
int	 ms_signature_fingerprint(const char *s, char out[65]);

/* --generate-key=NAME: NAME.key and NAME.pub; an exit status. */
int	 ms_generate_key(const struct ms_signature_opts *opts);

#endif

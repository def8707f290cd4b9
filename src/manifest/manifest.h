/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * manifest.h - one manifest line in, one entry (or a verdict) out.
 *
 * The parser is pure: it never opens, reads or prints anything.  The
 * caller hands it each line as read (newline included) and gets back the
 * file name, the algorithm and the expected digest, or "improperly
 * formatted".  Two sets of rules exist: multisum's own, which detect the
 * format of every line (GNU, BSD tags of coreutils, RHash and xxhsum,
 * OpenSSL, SFV; hex or base64; CertUtil and Get-FileHash records), those
 * of one GNU coreutils 9.1 tool, reproduced quirk for quirk for the
 * personalities, and b3sum 1.2's.
 */
#ifndef MS_MANIFEST_H
#define MS_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "digest/algorithm.h"
#include "digest/digest_set.h"

enum ms_line {
	MS_LINE_BAD = -1,	/* improperly formatted */
	MS_LINE_SKIP = 0,	/* comment or empty line */
	MS_LINE_ENTRY = 1,
	/*
	 * Well formed, but this build cannot verify it: an algorithm it
	 * lacks (BLAKE3 without H3's code), or an untagged digest whose
	 * length several non-cryptographic checksums share.  Neither OK nor
	 * FAILED; e->name and e->why say which.
	 */
	MS_LINE_UNSUPPORTED = 2,
};

enum ms_dialect {
	MS_DIALECT_NATIVE,
	MS_DIALECT_COREUTILS,	/* md5sum, sha*sum, b2sum, cksum -a ALG */
	MS_DIALECT_CKSUM,	/* cksum 9.11 without -a: tagged lines only */
	/*
	 * b3sum 1.2 (tool: blake3): "HEX  NAME" only, every refused line
	 * with its reason in e->why; a line that is not UTF-8 is refused
	 * and ends the manifest (st->refused), as b3sum stops there.
	 */
	MS_DIALECT_B3SUM,
};

struct ms_manifest_rules {
	enum ms_dialect	 dialect;
	/*
	 * Coreutils: the tool's algorithm.  For b2sum and cksum -a blake2b
	 * (auto_length) the length of each line is its own.
	 */
	const struct ms_algo *tool;
	bool		 tag_length;	/* "TAG-BITS (": b2sum and cksum */
	bool		 auto_length;	/* untagged length from the digest */
	size_t		 min_line;	/* coreutils' shortest untagged line */
	/* Native: -a, the algorithms of untagged lines; with length_given
	 * (-l), of that length only, else of the digest's (b2sum -c). */
	const struct ms_selection *given;
	bool		 length_given;
	bool		 zero;		/* -z: NUL-terminated lines, no escaping */
	/*
	 * The cksum face, as coreutils 9.11 reads: base64 digests too, the
	 * SHA2 and SHA3 tags, a tag not followed by "(" read again as an
	 * untagged digest (always so in MS_DIALECT_CKSUM).  cksum: -a's
	 * algorithm, NULL without -a; tool is its row.
	 */
	bool		 cksum_face;
	const struct ms_cksum_algo *cksum;
	/* --root: where a Packages index's Filename paths are (NULL: the
	 * folder above its dists/, else its own) */
	const char	*root;
};

/* The digest columns of a hashdeep file, at most (it has five). */
#define MS_HASHDEEP_COLS	8

/*
 * Windows' hash files (manifest_windows.c): CertUtil -hashfile's
 * "ALG hash of NAME:" record, Get-FileHash's table and list layouts.
 */
struct ms_manifest_windows {
	enum { MS_WIN_NONE, MS_WIN_CERTUTIL, MS_WIN_TABLE_HEAD, MS_WIN_TABLE,
	    MS_WIN_LIST } at;
	char		 alg[16];	/* the record's algorithm, as written */
	char		*name;		/* its name or Windows path (malloc) */
	char		*hash;		/* list layout: the Hash value (malloc) */
	char		*last;		/* list layout: the value a wrapped
					 * line continues (name or hash) */
	char		*given;		/* the name handed out (malloc) */
	const char	*list;		/* its path (the caller's), for its folder */
	char		*note;		/* a Windows path's base name was taken */
	char		*note_relative;	/* a relative one was read with '/' */
	bool		 outside;	/* not in a PGP message's signed part */
};

/*
 * What the parser remembers between lines.  Native rules reset it for
 * each manifest (ms_manifest_begin); coreutils keeps some of it for the
 * whole run, as the tools do.
 */
struct ms_manifest_state {
	unsigned long	 line;		/* number of the last line parsed */
	int		 reversed;	/* -1 unknown, 0 "HEX  NAME", 1 "HEX NAME" */
	bool		 from_stdin;	/* the manifest is standard input */
	/* coreutils: digest length in hex digits, set by the last line */
	size_t		 hex_len;
	/* cksum: the algorithm of the last tag seen (named in warnings);
	 * with -a sha2, the length a tag named, kept as cksum keeps it */
	const struct ms_cksum_algo *cksum_algo;
	/* native: what the manifest's file name implies */
	const struct ms_algo *name_algo;
	bool		 sfv;		/* SFV lines ("NAME CRC32") expected */
	/* PGP clear-signed message: where the next line is */
	enum { MS_PGP_NONE, MS_PGP_HEADER, MS_PGP_BODY, MS_PGP_SIG,
	    MS_PGP_AFTER } pgp;
	bool		 pgp_seen;	/* a signed part began somewhere */
	bool		 refused;	/* UTF-16, b3sum's non-UTF-8: the rest is not read */
	/*
	 * gpg --print-md: a record ("NAME: HEX GROUPS", continued on
	 * indented lines) is handed out when the line after it comes
	 * (which is then parsed again: again) or at the end.
	 */
	bool		 gpg_pending, again, gpg_outside;
	char		*gpg_name, *gpg_given;	/* read, handed out (malloc) */
	char		 gpg_alg[16];		/* "NAME: SHA1 = ..." (.mds) */
	char		 gpg_hex[2 * MS_DIGEST_MAX + 1];
	size_t		 gpg_hexlen;
	char		*own_name;	/* "x.iso" of "x.iso.sha256" (malloc) */
	struct ms_manifest_windows win;
	/* hashdeep: "%%%% HASHDEEP-1.0" seen; its columns, once read
	 * (an algorithm this build lacks has a NULL algo) */
	bool		 hd_version, hd_header;
	size_t		 hd_cols;
	struct ms_digest_spec hd_spec[MS_HASHDEEP_COLS];
	char		 hd_unknown[16];	/* the first such column's name */
	char		*json_name;	/* "x.iso" of "x.iso.json" (malloc) */
	bool		 pyrecord;	/* Python's RECORD, by its name or a line */
	/* A record of several lines (gsutil hash, gcloud storage hash, aws
	 * s3api JSON): manifest_storage.c's. */
	struct ms_mf_record *rec;
	char		*rec_given;	/* its last entry's name (malloc) */
	/* Debian's lists (Release, Packages, .dsc): manifest_apt.c's;
	 * top: the caller's, set before ms_manifest_begin, the
	 * repository's top when the list's path does not show it (a
	 * Packages index named from inside dists/), or NULL */
	struct ms_mf_apt *apt;
	const char	*top;
	/* a reason put together for the last line: e->why points here
	 * until the next line is parsed */
	char		 why[96];
};

/*
 * How the algorithm of a digest was chosen.  An untagged digest has
 * exactly one algorithm: -a, else the manifest's name, else its length's
 * default (SPEC.md, "Verification"); nothing is retried with another.
 */
enum ms_resolved {
	MS_BY_TAG,		/* "SHA256 (f) = ", a JSON key, XXH3_ */
	MS_BY_OPTION,		/* -a */
	MS_BY_PREFIX,		/* --expect=sha256:HEX */
	MS_BY_NAME,		/* SHA256SUMS, x.sha512, B2SUMS */
	MS_BY_FORMAT,		/* SFV's CRC-32 */
	MS_BY_LENGTH,		/* the length's default */
	MS_BY_DECIMAL,		/* "SUM SIZE NAME" past 16 bits: cksum's */
	MS_BY_TRIAL,		/* a stand-in of the guess matched */
};

/* The digests one line may hold (RHash, NDJSON); more is a bad line. */
#define MS_MANIFEST_DIGESTS	16

struct ms_manifest_digest {
	struct ms_digest_spec spec;
	size_t		 len;		/* compared bytes; a prefix with cksum's "SHA256-128" */
	unsigned char	 digest[MS_DIGEST_MAX];
};

struct ms_manifest_entry {
	const char	*name;		/* inside the line, unescaped */
	enum ms_resolved how;
	/*
	 * MS_LINE_BAD: why, when there is more to say than "improperly
	 * formatted" (UTF-16, NUL-terminated lines); said once.
	 * MS_LINE_UNSUPPORTED: what cannot be verified and why.
	 */
	const char	*why;
	bool		 outside;	/* not in the signed part of a PGP message */
	bool		 escaped;	/* b3sum: the line began with a backslash */
	/*
	 * MS_LINE_ENTRY: said once per manifest when set: how the name
	 * was found ("C:\x\f.iso is a Windows path: ...").
	 */
	const char	*note;
	/* The line itself gave its digests' specs their parameters (a
	 * `hadoop fs -checksum` line's bytes per CRC and block size): -c
	 * keeps them.  (Here, not in d[]: the parsers zero what precedes d.) */
	bool		 own_params;
	/* A Debian list's or a Python RECORD's entry: the file's size
	 * (has_size), and whether it may be absent (a Release file's,
	 * from a partial mirror). */
	bool		 has_size, optional;
	uint64_t	 size;
	/* Bit i: d[i]'s algorithm is a guess (the digest's length, the
	 * list's name, SFV's CRC-32), for which check mode may try what
	 * stands in for it (ms_manifest_stand_ins). */
	unsigned	 guessed;
	size_t		 n;		/* digests on the line, every one must match */
	struct ms_manifest_digest d[MS_MANIFEST_DIGESTS];
};

/* Start reading a manifest called path ("-": standard input); path
 * stays the caller's, and must live until ms_manifest_end. */
void	 ms_manifest_begin(const struct ms_manifest_rules *r,
	    struct ms_manifest_state *st, const char *path);

/* Free what ms_manifest_begin allocated. */
void	 ms_manifest_end(struct ms_manifest_state *st);

/*
 * After the last line: MS_LINE_ENTRY if a last entry was still open (a
 * gpg --print-md record), else MS_LINE_SKIP.  If st->again is set
 * afterwards, more are to come (a Debian list's held lines): call again.
 */
enum ms_line ms_manifest_finish(const struct ms_manifest_rules *r,
	    struct ms_manifest_state *st, struct ms_manifest_entry *e);

/*
 * Is the parser at rest: past the first line (byte order marks), no PGP
 * armour, SFV, hashdeep table or refusal, no multi-line record (gpg,
 * Windows, storage tools) open?  Then a GNU or BSD line of the shapes
 * multisum writes means what it says, and a fast reader may take it
 * without the parser (manifest/ledger_read.c).
 */
bool	 ms_manifest_at_rest(const struct ms_manifest_state *st);

/*
 * Parse one line of len bytes (its newline, if any, included; it may hold
 * NUL bytes; line[len] must be a NUL, as getline leaves it).  If
 * st->again is set afterwards, the verdict was that of an earlier record
 * the line ended: call again with the same line.  The line is
 * modified in place and e->name points into it.
 */
enum ms_line ms_manifest_parse(const struct ms_manifest_rules *r,
	    struct ms_manifest_state *st, char *line, size_t len,
	    struct ms_manifest_entry *e);

/*
 * The algorithm name that warnings about a bad line use ("SHA256"), or
 * NULL when the rules do not tie the manifest to one algorithm.
 */
const char *ms_manifest_type(const struct ms_manifest_rules *r,
	    const struct ms_manifest_state *st);

/*
 * --expect: a digest given on the command line, hex or base64, and its
 * algorithm: a prefix ("sha256:HEX", "sha256=HEX", SRI "sha384-B64"),
 * else the first of given with that length, else the length's default.
 * Surrounding white space, a trailing CR/LF and a "  NAME" after the
 * digest are ignored.  Returns -1 if the text is no digest or no
 * algorithm fits (with *why set when there is more to say).
 */
int	 ms_manifest_expect(const char *text, const struct ms_selection *given,
	    struct ms_manifest_entry *e, const char **why);

/* How a digest's algorithm was chosen, for --debug ("its tag"). */
const char *ms_resolved_text(enum ms_resolved how);

/*
 * For a hint after a FAILED line: the other algorithms of the digest's
 * length, "xxh128" or "blake2b-256, sha3-256, ..." (at most cap bytes);
 * with tried, only those that may not stand in for spec
 * (ms_manifest_stand_ins), which -a alone can name.
 */
void	 ms_manifest_others(const struct ms_digest_spec *spec, bool tried,
	    char *buf, size_t cap);

/*
 * The algorithms that may stand in for guess, the algorithm taken for an
 * untagged digest by its length or its list's name, when the file does
 * not match it: guess first, then every other row of its length that is
 * no weaker for telling a file from another one made to match.  A
 * non-cryptographic checksum stands in for none but another checksum
 * (anyone who can forge an XXH128 cannot be kept out by MD5's name), a
 * broken digest (MD4, MD5, SHA-1) for none, and the unbroken ones
 * (secure, and legacy: RIPEMD-160, Whirlpool) for any.  Rows with
 * parameters of their own (S3's, HDFS's) and legacy text are left out.
 */
void	 ms_manifest_stand_ins(const struct ms_digest_spec *guess,
	    struct ms_selection *sel);

/*
 * The algorithm a manifest's file name implies: SHA256SUMS, x.sha256,
 * MD5SUMS, x.md5, B2SUMS, x.sfv, x.xxh128...  NULL if none.
 */
const struct ms_algo *ms_manifest_name_algo(const char *path, bool *sfv);

/* Is path a Python RECORD by its name (NAME.dist-info/RECORD)? */
bool	 ms_manifest_pyrecord_named(const char *path);

#endif

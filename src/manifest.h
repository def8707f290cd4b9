/*
 * manifest.h - one manifest line in, one entry (or a verdict) out.
 *
 * The parser is pure: it never opens, reads or prints anything.  The
 * caller hands it each line as read (newline included) and gets back the
 * file name, the algorithm and the expected digest, or "improperly
 * formatted".  Two sets of rules exist: multisum's own, which detect the
 * format of every line (GNU, BSD tags of coreutils, RHash and xxhsum,
 * OpenSSL, SFV; hex or base64), and those of one GNU coreutils 9.1 tool,
 * reproduced quirk for quirk for the personalities.
 */
#ifndef MS_MANIFEST_H
#define MS_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>

#include "algorithm.h"
#include "digest_set.h"

enum ms_line {
	MS_LINE_BAD = -1,	/* improperly formatted */
	MS_LINE_SKIP = 0,	/* comment or empty line */
	MS_LINE_ENTRY = 1,
};

enum ms_dialect {
	MS_DIALECT_NATIVE,
	MS_DIALECT_COREUTILS,	/* md5sum, sha*sum, b2sum, cksum -a ALG */
	MS_DIALECT_CKSUM,	/* cksum without -a: tagged lines only */
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
	/* Native: -a, whose algorithms untagged lines are tried against. */
	const struct ms_selection *given;
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
	/* cksum: the algorithm of the last tag seen (named in warnings) */
	const struct ms_algo *cksum_algo;
	/* native: what the manifest's file name implies */
	const struct ms_algo *name_algo;
	bool		 sfv;		/* SFV lines ("NAME CRC32") expected */
};

#define MS_MANIFEST_ALTS	2

struct ms_manifest_entry {
	const char	*name;		/* inside the line, unescaped */
	struct ms_digest_spec spec;
	/*
	 * Other algorithms the digest may be of: an untagged line that
	 * only its length identifies, where that length is shared with a
	 * non-cryptographic checksum (8 hex digits: crc32 or xxh32).  The
	 * line verifies if the file matches under any of them.
	 */
	struct ms_digest_spec alt[MS_MANIFEST_ALTS];
	size_t		 nalt;
	unsigned char	 digest[MS_DIGEST_MAX];
	size_t		 digest_len;	/* a prefix with cksum's "SHA256-128" */
};

/* Start reading a manifest called path ("-": standard input). */
void	 ms_manifest_begin(const struct ms_manifest_rules *r,
	    struct ms_manifest_state *st, const char *path);

/*
 * Parse one line of len bytes (its newline, if any, included; it may hold
 * NUL bytes; line[len] must be a NUL, as getline leaves it).  The line is
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
 * algorithm (the first of given with that length, else by the length
 * alone).  Returns -1 if the text is no digest or no algorithm fits.
 */
int	 ms_manifest_expect(const char *text, const struct ms_selection *given,
	    struct ms_manifest_entry *e);

/*
 * The algorithm a manifest's file name implies: SHA256SUMS, x.sha256,
 * MD5SUMS, x.md5, B2SUMS, x.sfv, x.xxh128...  NULL if none.
 */
const struct ms_algo *ms_manifest_name_algo(const char *path, bool *sfv);

#endif

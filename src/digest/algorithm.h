/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * algorithm.h - the descriptor table: every fact about every algorithm.
 *
 * One row per algorithm says how users name it, how manifests tag it, how
 * long its digest is, which library computes it and how safe it is.  The
 * backend files provide the operations a row points to; nothing outside
 * this table and those files may know which library is behind a name.
 */
#ifndef MS_ALGORITHM_H
#define MS_ALGORITHM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cpulevel.h"
#include "digest/digest_params.h"

/* The longest digest any row can produce (a SHAKE of 4096 bits). */
#define MS_DIGEST_MAX	512

enum ms_class {
	MS_CLASS_SECURE,
	MS_CLASS_LEGACY,	/* unbroken but outdated: RIPEMD-160 */
	MS_CLASS_BROKEN,	/* collisions known: MD5, SHA-1 */
	MS_CLASS_NONCRYPTO,	/* checksums: CRCs, xxHash, sums */
};

/* Rows whose reference tool prints something other than hex. */
enum ms_legacy {
	MS_LEGACY_NONE,
	MS_LEGACY_CKSUM,	/* "CRC SIZE NAME", decimal (POSIX cksum) */
	MS_LEGACY_SYSV,		/* "SUM BLOCKS NAME", 512-byte blocks */
	MS_LEGACY_BSD,		/* "SUM BLOCKS NAME", 1 KiB blocks, %05d */
	MS_LEGACY_HADOOP,	/* "NAME\tALGORITHM\tHEX" (hadoop fs -checksum) */
};

struct ms_algo;

/* One selected digest: a row, the length asked for, the run's
 * parameters of that row. */
struct ms_digest_spec {
	const struct ms_algo *algo;
	unsigned	 bits;
	struct ms_digest_params param;
};

/*
 * The operations of one primitive.  A state is created once (per worker
 * or per file) and then cycled through init, update and final many
 * times.  update cannot fail: a library error there is a bug.
 */
struct ms_digest_ops {
	const char *backend;	/* "OpenSSL", "libb2", "libxxhash", "built-in" */
	/* Once per run, before threads start: load the library, fetch the
	 * algorithm.  Returns -1 after printing why.  NULL: nothing to load. */
	int	 (*load)(const struct ms_algo *a);
	/* A state for the spec's row, length and parameters; NULL: ENOMEM.
	 * A row whose state is a struct points it at ms_state_create
	 * (state_create.h), which allocates state_size bytes, zeroed, and
	 * has make (NULL: nothing to make) fill it from the spec: its
	 * inner states and buffers, false if memory ran out, and then
	 * destroy frees what was made. */
	void	*(*create)(const struct ms_digest_spec *s);
	size_t	 state_size;
	bool	 (*make)(void *state, const struct ms_digest_spec *s);
	void	 (*init)(void *state);
	void	 (*update)(void *state, const void *p, size_t n);
	void	 (*final)(void *state, unsigned char *out);
	void	 (*destroy)(void *state);	/* destroy(NULL) does nothing */
	const char *(*version)(void);	/* library version, or NULL */
	/* The code path that runs for the spec ("pclmul", "table"), chosen
	 * once per run; NULL when the library chooses for itself. */
	const char *(*variant)(const struct ms_digest_spec *s);
	/* Write the digest (len raw bytes) as text, for digests that are
	 * not printed as plain hex or base64 (S3's "ETAG-N"); else NULL. */
	void	 (*text)(char *buf, const unsigned char *d, size_t len);
	/* The digests of cnt whole messages at once (msg[i] of len[i]
	 * bytes into out[i]: the small files of a batch), side by side in
	 * the lanes of a SIMD kernel, or one after another with less set-up
	 * than a state's; done[i] says which it hashed, the others are the
	 * caller's to run through a state.  NULL: none. */
	void	 (*many)(const struct ms_digest_spec *s, size_t cnt,
		    const unsigned char *const msg[], const size_t len[],
		    unsigned char *const out[], bool done[]);
	/* A built-in kernel family (cpulevel.h), else NULL: loading settles
	 * its level first, and without a variant its level is the variant. */
	struct ms_level_family *levels;
	/* The ops whose backend and version compute one stream of the
	 * spec, when they are another's (SHA-256 at MULTISUM_SHA256_LEVEL=
	 * libcrypto is OpenSSL's); NULL: these.  --debug names them. */
	const struct ms_digest_ops *(*stream)(const struct ms_digest_spec *s);
	/* A digest of the message's name too (btih's info dict holds the
	 * file's basename, and its default piece length follows the
	 * size): after init, before any update, the name (copied) and the
	 * size, UINT64_MAX if unknown.  Never called: the name is "".
	 * NULL: a digest of the bytes alone. */
	void	 (*subject)(void *state, const char *name, uint64_t size);
};

/*
 * A tree digest (BLAKE3, the CRCs) hashes parts of one input apart, on
 * any thread, and joins their values in order, so that one file can keep
 * every core busy.  part_ok: may [off, off + len), never the end of the input, be a
 * part?  part: its value (MS_PART_MAX bytes) under the spec, from no
 * state.  join: feed that value to a state that has seen exactly off
 * bytes.
 */
struct ms_tree_ops {
	bool	 (*part_ok)(uint64_t off, size_t len);
	void	 (*part)(const struct ms_digest_spec *s, const void *p,
		    size_t len, uint64_t off, unsigned char *out);
	void	 (*join)(void *state, const unsigned char *v, uint64_t off,
		    size_t len);
};

#define MS_PART_MAX	32

struct ms_bytes;

/*
 * A digest that composes across runs (--part=K/N, one part of a file per
 * machine): each run hashes one part and saves the digest's state, and a
 * merge joins the parts' states, in order, into the digest one run over
 * the whole file gives.  align: a part but the last starts and ends at a
 * multiple of it (S3's part size, HDFS's block size; 1 for a CRC); pow2:
 * and is that times a power of two (BLAKE3's parts are its subtrees).
 * begin: after init, the state is to hash the part that starts at off;
 * update feeds it, then save appends the state's bytes to out (final is
 * not called).  join: after init, the saved bytes (n) of the part
 * [off, off + len), every part before it joined; -1 if they cannot be
 * that part's.  final then gives the file's digest.
 */
struct ms_compose_ops {
	uint64_t (*align)(const struct ms_digest_spec *s);
	bool	 pow2;
	void	 (*begin)(void *state, uint64_t off);
	void	 (*save)(void *state, struct ms_bytes *out);
	int	 (*join)(void *state, const unsigned char *saved, size_t n,
		    uint64_t off, uint64_t len);
};

struct ms_algo {
	const char	*name;		/* canonical lower-case name, "sha256" */
	const char	*tag;		/* BSD tag, "SHA256"; variable rows add "-N" */
	const char	*aliases;	/* other accepted names, space separated, or NULL */
	const char	*family;	/* name that takes -l: "sha2", "blake2b" */
	const char	*impl;		/* the backend's own name, "SHA2-256" */
	/* what an untagged (GNU) line writes before the digest, or NULL:
	 * xxhsum's "XXH3_" (its bare 16 hex digits are XXH64) */
	const char	*gnu_prefix;
	unsigned	 bits;		/* default digest length */
	unsigned	 min_bits;	/* == max_bits == bits unless variable */
	unsigned	 max_bits;
	enum ms_class	 class;
	enum ms_legacy	 legacy;
	bool		 in_all;	/* part of "-a all" and the default bench */
	unsigned	 params;	/* MS_PARAM_* its backend reads in a spec */
	const struct ms_digest_ops *ops;
	const struct ms_tree_ops *tree;	/* splittable digests, else NULL */
	const struct ms_compose_ops *compose;	/* --part: else NULL */
};

/*
 * GNU cksum 9.11's algorithms, in its -a order: its argument, our row's
 * name and cksum's tag, which it writes and `cksum -c` reads.  A family
 * (sha2, sha3) takes -l 224, 256, 384 or 512; a sum (bsd, sysv, crc,
 * crc32b) is written as a decimal line and cannot be checked.
 */
struct ms_cksum_algo {
	const char	*arg;		/* "crc", "sha2" */
	const char	*algo;		/* "cksum", "sha512" */
	const char	*tag;		/* "CRC", "SHA2" */
	const char	*family;	/* "sha2", "sha3"; NULL */
	bool		 sum;		/* bsd, sysv, crc, crc32b */
};

extern const struct ms_cksum_algo ms_cksum_algos[];
extern const size_t ms_cksum_algo_count;

extern const struct ms_algo ms_algos[];
extern const size_t ms_algo_count;

/*
 * Resolve a user-given name (any case, any alias, "blake2b-256",
 * "sha3" with bits) to a spec.  bits 0 means "not given".  Returns -1 with
 * *why set to a message fragment when the name or length is invalid.
 */
int	 ms_algo_resolve(const char *name, unsigned bits,
	    struct ms_digest_spec *out, const char **why);

/* The row whose canonical name is name exactly; NULL if none. */
const struct ms_algo *ms_algo_named(const char *name);

/* The same for a row the table must hold (a backend's own), or ms_bug(). */
const struct ms_algo *ms_algo_row(const char *name);

/*
 * The row a wrapping row is built on, which its impl names ("sha1" for
 * btih and AICH, "md5" for s3etag, "crc32c" for HDFS's).
 * ms_algo_inner_load is such a row's load hook.
 */
const struct ms_algo *ms_algo_inner(const struct ms_algo *a);
int	 ms_algo_inner_load(const struct ms_algo *a);

/* Is this name a variable-length algorithm or a family that takes -l? */
bool	 ms_algo_takes_length(const char *name);

/*
 * The lengths -l may give name, for a refusal: "8 to 512 bits, a
 * multiple of 8" or "224, 256, 384 or 512 bits" (into buf).
 */
const char *ms_algo_lengths(const char *name, char *buf, size_t cap);

/* Tag for manifests: "SHA256", "BLAKE2b-256" (static or thread-local). */
const char *ms_spec_tag(const struct ms_digest_spec *s, char *buf, size_t cap);

/* Display name: "sha256", "blake2b-256". */
const char *ms_spec_name(const struct ms_digest_spec *s, char *buf, size_t cap);

const char *ms_class_name(enum ms_class c);

/* What computes a row: "OpenSSL", or "built-in/pclmul" where the backend
 * chose a code path at run time. */
const char *ms_algo_backend(const struct ms_algo *a, char *buf, size_t cap);

/* The code path behind a spec ("pclmul"), or NULL when its library
 * chooses for itself. */
const char *ms_spec_variant(const struct ms_digest_spec *s);

/* The ops that compute one stream of the spec (ms_digest_ops.stream):
 * what --debug and --list name as its backend. */
const struct ms_digest_ops *ms_spec_stream_ops(const struct ms_digest_spec *s);

/* Load what the spec's backend needs; -1 after a message. */
int	 ms_spec_load(const struct ms_digest_spec *s);

/* The same for a row, without ms_spec_load's lock (a backend that wraps
 * another row, S3's, loads it so). */
int	 ms_algo_load(const struct ms_algo *a);

/* Give s the parameters of p that its row takes, and zero the others. */
void	 ms_spec_set_params(struct ms_digest_spec *s,
	    const struct ms_digest_params *p);

/* Are a and b one digest: one row, one length, the same parameters? */
bool	 ms_spec_same(const struct ms_digest_spec *a,
	    const struct ms_digest_spec *b);

static inline size_t
ms_spec_len(const struct ms_digest_spec *s)
{
	return s->bits / 8;
}

#endif

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * ledger.h - a manifest read back as a table of entries, with the
 * bookkeeping (size, times, inode) that --update and --audit need, and
 * the writing of that bookkeeping as '#' lines that checkers skip.
 */
#ifndef MS_LEDGER_H
#define MS_LEDGER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "digest/digest_set.h"
#include "manifest/lines.h"
#include "manifest/shard.h"

struct ms_format_opts;

/*
 * The stable on-disk format, version 1 (man page, "Bookkeeping format"):
 * once, first, a header of space-separated KEY=VALUE words (unknown keys
 * are skipped, so that later ones can be added within v1)
 *   #multisum-ledger v1 stamp=NS fields=size,mtime_ns,ctime_ns,ino
 *       shard=SET/N algorithms=A,B walk=FLAGS scope=COUNT
 * (stamp and fields: --update's, with the "#@" lines; shard: a shard
 * manifest's shards; algorithms, walk and scope: what the run covered),
 * then the COUNT scope lines, one an operand, list or exclude as given
 *   #multisum-scope operand NAME | files-from NAME | files0-from NAME |
 *       exclude GLOB                      (NAME with \\, \n, \r escaped)
 * then before the line(s) of each entry
 *   #@ SIZE MTIME_NS CTIME_NS INO
 * in decimal; times in nanoseconds since the Epoch; with --piece-size,
 * right after it (within v1: readers skip it as a comment)
 *   #% PIECE crc64nvme HEX
 * PIECE the piece size in bytes, HEX the CRC-64/NVME of each aligned
 * piece (16 hex digits each, the last piece shorter, none for an empty
 * file), end to end.  A checkpoint (--update --checkpoint) ends with
 *   #multisum-checkpoint unfinished
 * (within v1: readers skip it as a comment): the run that wrote it had
 * not finished, so files it had not reached may be missing; the run
 * that finishes writes the manifest without it, and --merge takes no
 * such manifest for a whole shard.
 */
#define MS_LEDGER_MAGIC		"#multisum-ledger v1 "
#define MS_LEDGER_SCOPE		"#multisum-scope "
#define MS_LEDGER_ENTRY		"#@ "
#define MS_LEDGER_PIECES	"#% "
#define MS_LEDGER_CHECKPOINT	"#multisum-checkpoint unfinished\n"
#define MS_LEDGER_PIECE_ALGO	"crc64nvme"
#define MS_LEDGER_PIECE_HEX	16

/* What a manifest's header and scope lines say; every part optional. */
struct ms_ledger_head {
	bool		 has_stamp;	/* stamp=: --update's bookkeeping */
	int64_t		 stamp_ns;
	struct ms_shard_set shards;	/* shard=; n = 0: not a shard's */
	char		*algorithms;	/* algorithms=, or NULL (then no
					   walk or scope was recorded) */
	char		*walk;		/* walk=: "r", "L", "rL" or "-" */
	size_t		 nscope;	/* scope=: lines announced */
	size_t		 scope_read;	/* and read */
	char		**scope;	/* "operand NAME" ..., unescaped */
};

/* Parse a manifest's first line into h (zeroed first); false if it is
 * no v1 header. */
bool	 ms_ledger_head_parse(struct ms_ledger_head *h, const char *line);
/* A "#multisum-scope" line (after the header): into h; false if bad. */
bool	 ms_ledger_head_scope(struct ms_ledger_head *h, const char *line);
/* Add a scope item: kind ("operand", ...) and its name. */
void	 ms_ledger_head_add_scope(struct ms_ledger_head *h, const char *kind,
	    const char *name);
/* The header and scope lines; nothing if h records nothing. */
void	 ms_ledger_head_write(FILE *out, const struct ms_ledger_head *h);
/* Do a and b record the same algorithms, walk and scope?  If not, which
 * one differs ("algorithms", "walk options", "operands"). */
const char *ms_ledger_head_differs(const struct ms_ledger_head *a,
	    const struct ms_ledger_head *b);
void	 ms_ledger_head_free(struct ms_ledger_head *h);
/* The value of KEY= among the space-separated words of a bookkeeping
 * line (the ledger's header, --part's record), *n bytes; NULL if none. */
const char *ms_header_word(const char *line, const char *key, size_t *n);

/*
 * A file modified within this many nanoseconds before the stamp of the
 * run that hashed it is not trusted by the next run: 2 s covers the
 * coarsest common timestamp granularity (FAT), and 1 s (ext3, HFS+) and
 * the kernel's coarse clock tick are inside it.
 */
#define MS_LEDGER_RACY_NS	2000000000LL

/* What the bookkeeping remembers of a file's inode (and its pieces). */
struct ms_file_stat {
	uint64_t	 size;
	int64_t		 mtime_ns;
	int64_t		 ctime_ns;
	uint64_t	 ino;
	uint64_t	 piece;		/* "#%": the piece size, 0 if none */
	const char	*pieces;	/* and its hex, NUL-terminated */
};

enum {
	MS_LEDGER_HAS_STAT = 1u << 0,	/* a "#@" line came with it */
	MS_LEDGER_SEEN = 1u << 1,	/* the walk found its path */
	MS_LEDGER_CLAIMED = 1u << 2,	/* audit: the source of a move */
	MS_LEDGER_DUP = 1u << 3,	/* a later entry of a name listed before */
	MS_LEDGER_PLAIN = 1u << 4,	/* its bytes are what the run writes */
	MS_LEDGER_DONE = 1u << 5,	/* update: written by this run */
};

/*
 * The lines a run writes for a plain name (one without \, newline or
 * CR) and a digest in hex, as update.c's probe of format.c found them:
 * GNU "HEX  NAME" or, one line per digest of the selection in its
 * order, BSD "TAG (NAME) = HEX", lower-case hex.  An entry whose lines
 * have that shape exactly, after a "#@" line as ms_ledger_write_stat
 * writes it, is MS_LEDGER_PLAIN: carried over unchanged, it is the bytes
 * it was (ms_ledger_copy), with no formatting.
 */
enum ms_ledger_shape_kind { MS_SHAPE_NONE, MS_SHAPE_GNU, MS_SHAPE_BSD };

struct ms_ledger_shape {
	enum ms_ledger_shape_kind kind;
	char		 tag[MS_SET_MAX][48];	/* BSD: digest i's tag */
};

struct ms_ledger_entry {
	const char	*name;		/* unescaped, in the ledger's arena */
	unsigned char	*digest;	/* sel->out_len bytes, selection order */
	struct ms_file_stat st;		/* valid with MS_LEDGER_HAS_STAT */
	uint64_t	 have;		/* bit i: digest i of sel was listed */
	uint32_t	 flags;
	uint32_t	 hash;		/* of name, for the index */
	uint32_t	 span;		/* MS_LEDGER_PLAIN: its bytes, */
	uint64_t	 off;		/* from here in the manifest */
};

struct ms_ledger_chunk;

struct ms_ledger {
	const struct ms_selection *sel;
	struct ms_ledger_entry *e;	/* in manifest order */
	size_t		 cnt, cap;
	uint32_t	*slot;		/* name index: 1 + index of e, 0 empty */
	size_t		 mask;		/* slots - 1 (a power of two) */
	size_t		 hint;		/* the entry after the last one found */
	bool		 versioned;	/* a v1 header with a stamp was read */
	int64_t		 stamp_ns;	/* its stamp */
	struct ms_ledger_head head;	/* all it said */
	size_t		 nstat;		/* entries with bookkeeping */
	size_t		 foreign;	/* lines of algorithms not in sel */
	/* Lines that are no entry and no comment: dropped, and their
	 * numbers (the first 16) kept to be reported. */
	size_t		 bad;
	unsigned long	 bad_line[16];
	struct ms_ledger_chunk *arena;
	const struct ms_ledger_shape *shape;	/* NULL: none plain */
	struct ms_manifest_input in;	/* the manifest, open while shape
					   is set (ms_ledger_copy) */
	uint64_t	 body;		/* where its second line starts */
	uint64_t	 size;		/* its bytes */
};

/*
 * The readers below take a manifest opened by a mode through the door
 * (io/text_input.h: ms_text_input) and close it, whatever they return.
 *
 * Add to sel the algorithms of the manifest in, as its first entry
 * lists them (for a run without -a).  -1 with errno if it cannot be read.
 */
int	 ms_ledger_scan(const struct ms_manifest_input *in,
	    struct ms_selection *sel);

/*
 * Read the manifest in into l, keeping the digests of sel.  -1 with
 * errno and nothing to free.
 */
int	 ms_ledger_load(struct ms_ledger *l, const struct ms_manifest_input *in,
	    const struct ms_selection *sel);
/*
 * The same, marking MS_LEDGER_PLAIN the entries of the given shape (if
 * in's bytes can be read again: in->pull_at; l keeps in open until
 * ms_ledger_free then).
 */
int	 ms_ledger_load_shaped(struct ms_ledger *l,
	    const struct ms_manifest_input *in, const struct ms_selection *sel,
	    const struct ms_ledger_shape *shape);
/*
 * Write len bytes of the manifest from off to out (the spans of plain
 * entries); -1 with errno if they cannot be read.
 */
int	 ms_ledger_copy(const struct ms_ledger *l, uint64_t off, uint64_t len,
	    FILE *out);
/*
 * The same with every line parsed by manifest.c's generic parser, which
 * ms_ledger_load leaves the lines multisum writes to a fast path of its
 * own: for tests that the two agree.
 */
int	 ms_ledger_load_generic(struct ms_ledger *l,
	    const struct ms_manifest_input *in, const struct ms_selection *sel);
/*
 * Where two ledgers of one selection read from one manifest differ
 * (entries, names, digests, bookkeeping, flags but MS_LEDGER_PLAIN), or
 * NULL: what the tests and the fuzz target hold the fast path to.
 */
const char *ms_ledger_differs(const struct ms_ledger *a,
	    const struct ms_ledger *b);
/*
 * Where an entry l marked plain (loaded from the n bytes at text) is not
 * exactly what a run with fmt writes for it, or NULL; *plain counts the
 * plain entries.
 */
const char *ms_ledger_plain_differs(const struct ms_ledger *l,
	    const struct ms_format_opts *fmt, const char *text, size_t n,
	    size_t *plain);
/* An empty ledger of sel (no manifest yet). */
void	 ms_ledger_empty(struct ms_ledger *l, const struct ms_selection *sel);
void	 ms_ledger_free(struct ms_ledger *l);

/*
 * The entry of name (its first listing), or NULL.  Cheapest when names
 * are looked up in manifest order, as a walk of an unchanged tree does.
 */
struct ms_ledger_entry *ms_ledger_find(struct ms_ledger *l, const char *name);

/* Does e hold every digest of the selection? */
bool	 ms_ledger_complete(const struct ms_ledger *l,
	    const struct ms_ledger_entry *e);

/*
 * May --update carry e over without reading the file now described by
 * st?  Only if e is complete, its bookkeeping equals st, and it was not
 * racily clean when written (its times lie before the stamp by more
 * than MS_LEDGER_RACY_NS).
 */
bool	 ms_ledger_vouches(const struct ms_ledger *l,
	    const struct ms_ledger_entry *e, const struct ms_file_stat *st);

/*
 * Does e's bookkeeping vouch for the file it was taken from, whatever the
 * file is now: complete, with bookkeeping, and not racily clean under
 * the stamp it was written with?  Only such an entry may be written
 * again with its "#@" line under a later stamp (a checkpoint, an entry
 * kept for a file that could not be read): a racily clean one would
 * become trusted.
 */
bool	 ms_ledger_trusted(const struct ms_ledger *l,
	    const struct ms_ledger_entry *e);

void	 ms_file_stat_from(struct ms_file_stat *fs, const struct stat *st);

/*
 * The stamp of a run starting now: the earlier of the system's coarse
 * clock and the modification time of fd (the new manifest, just
 * created, so the file system's own clock).
 */
int64_t	 ms_ledger_stamp(int fd);

void	 ms_ledger_write_stat(FILE *out, const struct ms_file_stat *st);
/* The "#%" line of st's pieces; nothing if it has none. */
void	 ms_ledger_write_pieces(FILE *out, const struct ms_file_stat *st);
/*
 * A "#%" line's text after its "#% " (n bytes, no newline) for a file of
 * size bytes: *piece and the hex; false if it is no such line.
 */
bool	 ms_ledger_parse_pieces(const char *s, size_t n, uint64_t size,
	    uint64_t *piece, const char **hex, size_t *hexlen);

/* Digest i of sel: its offset and length are sel's. */
size_t	 ms_selection_index(const struct ms_selection *sel,
	    const struct ms_digest_spec *spec);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_torrent.c - -c FILE.torrent: a torrent's files verified against
 * its hashes, under --root (default: the torrent's folder).
 *
 * Owns reading the torrent's bytes (through the door, io/text_input.h),
 * reading its files in the stream order of the torrent, and saying per
 * file OK, or which pieces failed as byte ranges of that file, and
 * whether it is missing, short, longer or unreadable.  A v1 torrent's
 * pieces are SHA-1s over the files end to end (BEP 47's padding files
 * are zeros, never read); a v2 torrent's (BEP 52) are per file, the
 * roots of 16 KiB-block SHA-256 Merkle subtrees (digest/merkle.h), and
 * its file's root is checked too.  A hybrid is checked by its v2 hashes.
 * The torrent's syntax and names are manifest/torrent.c's, which refuses
 * any name that could leave the root.  Lines go into check.c's report
 * queue (through the note it is handed: ms_check_note), after what
 * earlier lists said.
 */
#include "modes/check_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest/digest_set.h"
#include "digest/merkle.h"
#include "manifest/torrent.h"
#include "io/source.h"
#include "io/text_input.h"
#include "base/exit_status.h"
#include "base/quote.h"
#include "base/util.h"

/* A torrent larger than this is not read (the largest hold piece
 * layers of a few MiB). */
#define TORRENT_MAX	((size_t)256 << 20)
#define READ_BUF	((size_t)1 << 20)

/* What a piece turned out to be. */
enum { P_OK, P_BAD, P_UNKNOWN };

/* What became of one file. */
struct fstate {
	int		 err;		/* open or read errno, 0 */
	uint64_t	 have;		/* bytes read of its length */
	uint64_t	 size;		/* its size on disk */
	bool		 bad_root;	/* v2: pieces fine, root not */
};

struct tcheck {
	struct run	*r;
	void		(*note)(struct run *, const char *, const char *);
	const struct ms_torrent *t;
	const char	*torrent;
	const char	*root;
	unsigned char	*buf;
	/* v1: the piece being hashed */
	struct ms_selection sel;
	struct ms_digest_set sha1;
	uint64_t	 pi, in_piece;
	bool		 gap;		/* bytes of it could not be read */
	unsigned char	*piece;		/* each piece's P_*: v1 all, v2 the
					 * current file's */
	/* v2 */
	struct ms_merkle blocks, pieces;
	unsigned char	 block[MS_MERKLE_BLOCK];
	size_t		 in_block;
	uint64_t	 at;		/* v2: bytes of the file so far */
	const struct ms_torrent_file *f;
	unsigned char	 computed[MS_MERKLE_HASH];	/* a file's root */
	size_t		 failed;	/* files that did not verify */
};

bool
ms_check_is_torrent(const char *path)
{
	size_t n = strlen(path);

	return n > 8 && strcmp(path + n - 8, ".torrent") == 0;
}

/* path's bytes, read whole through the door; NULL with errno. */
static unsigned char *
slurp(const char *path, size_t *len)
{
	struct ms_manifest_input in;
	struct ms_bytes b = { 0 };
	char chunk[65536];
	ssize_t n;
	int err;

	if (ms_text_input(&in, path) == -1)
		return NULL;
	while ((n = in.pull(in.src, chunk, sizeof(chunk))) > 0) {
		if (b.len + (size_t)n > TORRENT_MAX) {
			n = -1;
			errno = EFBIG;
			break;
		}
		ms_bytes_add(&b, chunk, (size_t)n);
	}
	err = errno;
	if (in.close(in.src) == -1 && n == 0) {
		n = -1;
		err = errno;
	}
	if (n == -1) {
		free(b.p);
		errno = err;
		return NULL;
	}
	*len = b.len;
	return b.p != NULL ? b.p : ms_xcalloc(1, 1);
}

/* A line of the report, "PATH: WHY" (why is freed). */
static void
say(struct tcheck *tc, const struct ms_torrent_file *f, char *why)
{
	tc->note(tc->r, f->path, why);
	free(why);
}

/* The bytes of piece i of the v1 stream. */
static uint64_t
v1_piece_len(const struct tcheck *tc, uint64_t i)
{
	const struct ms_torrent *t = tc->t;
	const struct ms_torrent_file *last = &t->file[t->nfiles - 1];
	uint64_t total = last->offset + last->length;
	uint64_t from = i * t->piece_length;

	return total - from < t->piece_length ? total - from : t->piece_length;
}

static void
v1_end_piece(struct tcheck *tc)
{
	unsigned char d[MS_TORRENT_V1_HASH];

	if (tc->gap) {
		tc->piece[tc->pi] = P_UNKNOWN;
	} else {
		ms_digest_set_final(&tc->sha1, d);
		tc->piece[tc->pi] = memcmp(d, tc->t->pieces + tc->pi *
		    MS_TORRENT_V1_HASH, sizeof(d)) == 0 ? P_OK : P_BAD;
	}
	ms_digest_set_init(&tc->sha1);
	tc->gap = false;
	tc->in_piece = 0;
	tc->pi++;
}

/* n bytes of the stream: p, or (NULL) bytes that could not be read. */
static void
v1_feed(void *arg, const void *p, size_t n)
{
	struct tcheck *tc = arg;
	const unsigned char *b = p;

	while (n > 0) {
		uint64_t plen = v1_piece_len(tc, tc->pi);
		size_t take = plen - tc->in_piece < n ?
		    (size_t)(plen - tc->in_piece) : n;

		if (b == NULL)
			tc->gap = true;
		else if (!tc->gap)
			ms_digest_set_update(&tc->sha1, b, take);
		if (b != NULL)
			b += take;
		tc->in_piece += take;
		n -= take;
		if (tc->in_piece == plen)
			v1_end_piece(tc);
	}
}

/* n bytes of zeros (a padding file) or of nothing, through feed. */
static void
feed_span(void (*feed)(void *, const void *, size_t), struct tcheck *tc,
    uint64_t n, bool zeros)
{
	static const unsigned char zero[65536];

	while (n > 0) {
		size_t take = n < sizeof(zero) ? (size_t)n : sizeof(zero);

		feed(tc, zeros ? zero : NULL, take);
		n -= take;
	}
}

/*
 * Read f's bytes under the root through feed, at most its length; what
 * could not be read (missing, short, an error) is fed as NULL.
 */
static void
read_file(struct tcheck *tc, const struct ms_torrent_file *f,
    struct fstate *fs, void (*feed)(void *, const void *, size_t))
{
	char *path = ms_xasprintf("%s/%s", tc->root, f->path);
	struct ms_source s;
	struct ms_chunk c;
	off_t size;
	int got = 0;

	memset(fs, 0, sizeof(*fs));
	if (ms_source_open(&s, path, MS_IO_READ) == -1) {
		fs->err = errno;
		free(path);
		feed_span(feed, tc, f->length, false);
		return;
	}
	size = ms_source_size(&s);
	fs->size = size < 0 ? 0 : (uint64_t)size;
	if (size > 0 && (uint64_t)size > f->length &&
	    ms_source_range(&s, 0, f->length) == -1)
		got = -1;
	while (got != -1 && fs->have < f->length &&
	    (got = ms_source_next(&s, &c, tc->buf, READ_BUF)) == 1) {
		size_t n = c.len;

		if (n > f->length - fs->have)
			n = (size_t)(f->length - fs->have);
		c.len = n;
		if (ms_chunk_feed(&c, feed, tc) == -1) {
			got = -1;
			errno = EIO;
		}
		ms_chunk_release(&c);
		if (got == -1)
			break;
		fs->have += n;
	}
	if (got == -1)
		fs->err = ms_source_error(&s, errno);
	ms_source_close(&s);
	free(path);
	feed_span(feed, tc, f->length - fs->have, false);
}

/* v2: the current file's piece k is whole (or the file's last). */
static void
v2_end_piece(struct tcheck *tc)
{
	const struct ms_torrent_file *f = tc->f;
	uint64_t k = (tc->at - 1) / tc->t->piece_length;
	bool layered = f->length > tc->t->piece_length;
	unsigned char h[MS_MERKLE_HASH];

	ms_merkle_root(&tc->blocks, layered ? tc->t->piece_length /
	    MS_MERKLE_BLOCK : 1, h);
	if (!layered) {
		memcpy(tc->computed, h, sizeof(h));
		tc->piece[0] = memcmp(h, f->root, sizeof(h)) == 0 ? P_OK : P_BAD;
		return;
	}
	tc->piece[k] = memcmp(h, f->layer + k * MS_MERKLE_HASH, sizeof(h)) ==
	    0 ? P_OK : P_BAD;
	ms_merkle_add(&tc->pieces, h);
}

static void
v2_end_block(struct tcheck *tc)
{
	unsigned char h[MS_MERKLE_HASH];

	ms_merkle_hash(&tc->blocks, tc->block, tc->in_block, h);
	ms_merkle_add(&tc->blocks, h);
	tc->in_block = 0;
	if (tc->at % tc->t->piece_length == 0 || tc->at == tc->f->length)
		v2_end_piece(tc);
}

/* The current file's bytes (NULL: none; the file is short, the rest of
 * its pieces unknown). */
static void
v2_feed(void *arg, const void *p, size_t n)
{
	struct tcheck *tc = arg;
	const unsigned char *b = p;

	if (b == NULL)
		return;
	while (n > 0) {
		size_t take = MS_MERKLE_BLOCK - tc->in_block;

		if (take > n)
			take = n;
		memcpy(tc->block + tc->in_block, b, take);
		tc->in_block += take;
		tc->at += take;
		b += take;
		n -= take;
		if (tc->in_block == MS_MERKLE_BLOCK || tc->at == tc->f->length)
			v2_end_block(tc);
	}
}

/* v2: one file, its pieces into tc->piece (count of them). */
static void
v2_file(struct tcheck *tc, const struct ms_torrent_file *f,
    struct fstate *fs, uint64_t count)
{
	const uint64_t plen = tc->t->piece_length;
	unsigned base = 0;

	while (((uint64_t)MS_MERKLE_BLOCK << base) < plen)
		base++;
	memset(tc->piece, P_UNKNOWN, count);
	tc->f = f;
	tc->at = 0;
	tc->in_block = 0;
	ms_merkle_init(&tc->blocks, 0);
	ms_merkle_init(&tc->pieces, base);
	read_file(tc, f, fs, v2_feed);
	if (fs->have < f->length || f->length <= plen)
		return;
	ms_merkle_root(&tc->pieces, 1, tc->computed);
	if (memcmp(tc->computed, f->root, MS_MERKLE_HASH) == 0)
		return;
	/* every piece matched its layer: the layer is not the root's */
	fs->bad_root = memchr(tc->piece, P_BAD, count) == NULL;
}

/*
 * Say the runs of pieces in state want among [first, last] of f (which
 * starts at off in the pieces' stream), as byte ranges of f.  Returns
 * how many runs were said.
 */
static size_t
say_runs(struct tcheck *tc, const struct ms_torrent_file *f,
    const unsigned char *piece, uint64_t first, uint64_t last, uint64_t off,
    int want, const char *word, const char *after)
{
	const uint64_t plen = tc->t->piece_length;
	size_t runs = 0;

	for (uint64_t i = first; i <= last; i++) {
		uint64_t j = i, from, to;

		if (piece[i] != want)
			continue;
		while (j < last && piece[j + 1] == want)
			j++;
		from = i * plen > off ? i * plen - off : 0;
		to = (j + 1) * plen - off < f->length ?
		    (j + 1) * plen - off - 1 : f->length - 1;
		if (i == j)
			say(tc, f, ms_xasprintf("%s piece %" PRIu64 " (bytes %"
			    PRIu64 "-%" PRIu64 ")%s", word, i, from, to, after));
		else
			say(tc, f, ms_xasprintf("%s pieces %" PRIu64 "-%" PRIu64
			    " (bytes %" PRIu64 "-%" PRIu64 ")%s", word, i, j,
			    from, to, after));
		runs++;
		i = j;
	}
	return runs;
}

/* What became of f, said; false if it did not verify. */
static bool
report(struct tcheck *tc, const struct ms_torrent_file *f,
    const struct fstate *fs, const unsigned char *piece, uint64_t off)
{
	const uint64_t plen = tc->t->piece_length;
	uint64_t first = off / plen, last;
	bool ok = true;

	if (fs->err == ENOENT) {
		if (tc->r->o->ignore_missing)
			return true;
		say(tc, f, ms_xstrdup("FAILED missing"));
		ms_outcome_note(MS_OUTCOME_FAIL);
		return false;
	}
	if (fs->err != 0 && fs->have == 0) {
		say(tc, f, ms_xasprintf("FAILED open or read: %s",
		    ms_strerror(fs->err)));
		ms_outcome_note(MS_OUTCOME_RETRY);
		return false;
	}
	if (fs->err != 0) {
		say(tc, f, ms_xasprintf("FAILED read after %" PRIu64 " of %"
		    PRIu64 " bytes: %s", fs->have, f->length,
		    ms_strerror(fs->err)));
		ms_outcome_note(MS_OUTCOME_RETRY);
		ok = false;
	} else if (fs->have < f->length) {
		say(tc, f, ms_xasprintf("FAILED short: %" PRIu64 " of %" PRIu64
		    " bytes", fs->have, f->length));
		ms_outcome_note(MS_OUTCOME_FAIL);
		ok = false;
	} else if (fs->size > f->length) {
		say(tc, f, ms_xasprintf("FAILED longer than the torrent says: %"
		    PRIu64 " bytes, not %" PRIu64, fs->size, f->length));
		ms_outcome_note(MS_OUTCOME_FAIL);
		ok = false;
	}
	if (f->length > 0) {
		last = (off + f->length - 1) / plen;
		if (say_runs(tc, f, piece, first, last, off, P_BAD, "FAILED",
		    "") > 0) {
			ms_outcome_note(MS_OUTCOME_FAIL);
			ok = false;
		}
		/* pieces it shares with a file missing or cut short: said,
		 * and no OK, but the failure is that file's */
		if (ok && say_runs(tc, f, piece, first, last, off, P_UNKNOWN,
		    "NOT VERIFIED", ": it spans a file missing or cut short") >
		    0)
			return true;
	}
	if (ok && fs->bad_root) {
		say(tc, f, ms_xstrdup("FAILED: the torrent's piece layer does "
		    "not lead to its root (the torrent is damaged)"));
		ms_outcome_note(MS_OUTCOME_FAIL);
		ok = false;
	}
	if (ok && !tc->r->o->quiet)
		say(tc, f, ms_xstrdup("OK"));
	return ok;
}

/* v1: the stream through SHA-1, then each file said. */
static void
check_v1(struct tcheck *tc)
{
	const struct ms_torrent *t = tc->t;
	struct fstate *fs = ms_xcalloc(t->nfiles, sizeof(*fs));
	struct ms_digest_spec spec;
	const char *why;

	if (ms_algo_resolve("sha1", 0, &spec, &why) == -1 ||
	    ms_selection_add(&tc->sel, &spec) == -1)
		ms_bug("torrent: no sha1 row");
	if (ms_selection_load(&tc->sel) == -1) {
		ms_outcome_note(MS_OUTCOME_FAIL);
		tc->r->failed = true;
		free(fs);
		return;
	}
	ms_digest_set_create(&tc->sha1, &tc->sel);
	ms_digest_set_init(&tc->sha1);
	tc->piece = ms_xcalloc(t->piece_count + 1, 1);
	for (size_t i = 0; i < t->nfiles; i++) {
		if (t->file[i].pad)
			feed_span(v1_feed, tc, t->file[i].length, true);
		else
			read_file(tc, &t->file[i], &fs[i], v1_feed);
	}
	for (size_t i = 0; i < t->nfiles; i++)
		if (!t->file[i].pad && !report(tc, &t->file[i], &fs[i],
		    tc->piece, t->file[i].offset))
			tc->failed++;
	ms_digest_set_destroy(&tc->sha1);
	free(tc->piece);
	free(fs);
}

/* v2 (and hybrids): each file on its own. */
static void
check_v2(struct tcheck *tc)
{
	const struct ms_torrent *t = tc->t;
	struct ms_digest_spec spec;
	const char *why;

	if (ms_algo_resolve("sha256", 0, &spec, &why) == -1)
		ms_bug("torrent: no sha256 row");
	if (ms_algo_load(spec.algo) == -1) {
		ms_outcome_note(MS_OUTCOME_FAIL);
		tc->r->failed = true;
		return;
	}
	if (!ms_merkle_create(&tc->blocks, &spec) ||
	    !ms_merkle_create(&tc->pieces, &spec))
		ms_bug("torrent: no memory for SHA-256");
	for (size_t i = 0; i < t->nfiles; i++) {
		const struct ms_torrent_file *f = &t->file[i];
		uint64_t count = (f->length + t->piece_length - 1) /
		    t->piece_length;
		struct fstate fs;

		tc->piece = ms_xcalloc(count + 1, 1);
		v2_file(tc, f, &fs, count);
		if (!report(tc, f, &fs, tc->piece, 0))
			tc->failed++;
		free(tc->piece);
	}
	ms_merkle_free(&tc->blocks);
	ms_merkle_free(&tc->pieces);
}

/* The folder the torrent's names are under: --root, or its own. */
static char *
default_root(const char *torrent)
{
	const char *slash = strrchr(torrent, '/');

	if (slash == NULL)
		return ms_xstrdup(".");
	if (slash == torrent)
		return ms_xstrdup("/");
	return ms_xstrndup(torrent, (size_t)(slash - torrent));
}

void
ms_check_torrent(struct run *r, const char *path,
    void (*note)(struct run *, const char *, const char *))
{
	struct tcheck tc = { .r = r, .note = note, .torrent = path };
	struct ms_torrent t;
	unsigned char *bytes;
	char *root;
	const char *why;
	size_t len;

	if ((bytes = slurp(path, &len)) == NULL) {
		ms_warn("%s: %s", ms_quotef(path), ms_text_strerror(errno));
		ms_outcome_note(ms_text_outcome(errno));
		r->failed = true;
		return;
	}
	if (ms_torrent_read(&t, bytes, len, &why) == -1) {
		ms_warn("%s: not a valid torrent: %s", ms_quotef(path), why);
		ms_outcome_note(MS_OUTCOME_FAIL);
		r->failed = true;
		free(bytes);
		return;
	}
	root = r->o->root != NULL ? ms_xstrdup(r->o->root) :
	    default_root(path);
	tc.root = root;
	tc.t = &t;
	tc.buf = ms_xaligned(4096, READ_BUF);
	if (t.v2)
		check_v2(&tc);
	else
		check_v1(&tc);
	if (tc.failed > 0) {
		size_t files = 0;

		for (size_t i = 0; i < t.nfiles; i++)
			files += !t.file[i].pad;
		if (!r->o->status)
			ms_warn("WARNING: %zu of %zu %s in %s did NOT verify",
			    tc.failed, files, files == 1 ? "file" : "files",
			    ms_quotef(path));
		r->failed = true;
	}
	free(tc.buf);
	free(root);
	ms_torrent_free(&t);
	free(bytes);
}

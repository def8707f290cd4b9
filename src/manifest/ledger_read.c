/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * ledger_read.c - a manifest file read back into a ledger.
 *
 * Owns the reading: the bytes a mode hands in (cut into lines by
 * lines.c, in large blocks, no copy), the bookkeeping lines (the v1
 * header, "#@"), and a fast path for the two line shapes multisum writes
 * into a ledger, GNU "HEX  NAME" and BSD "TAG (NAME) = HEX", that yields
 * exactly what manifest.c's generic parser would (its hex decoded by
 * base's ms_unhex_case, as the parser's is by ms_unhex).  Every line it is not sure of (escaped names, CRs inside
 * names' lines, other spellings, PGP, gpg, SFV or NDJSON manifests) goes
 * to that parser.  The table the entries go into is ledger.c's.
 */
#include "manifest/ledger_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "manifest/lines.h"
#include "manifest/manifest.h"
#include "base/util.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWAR	1	/* eight characters a step, in a word */
#else
#define SWAR	0
#endif

static uint64_t
load8(const char *s)
{
	uint64_t w;

	memcpy(&w, s, 8);
	return w;
}

/* Are the eight characters of w all decimal digits? */
static bool
eight_digits(uint64_t w)
{
	return ((w & 0xf0f0f0f0f0f0f0f0u) |
	    (((w + 0x0606060606060606u) & 0xf0f0f0f0f0f0f0f0u) >> 4)) ==
	    0x3333333333333333u;
}

/* Their value (little-endian words). */
static uint64_t
eight_value(uint64_t w)
{
	w -= 0x3030303030303030u;
	w = w * 10 + (w >> 8);
	return (((w & 0x000000ff000000ffu) * (100 + (1000000ull << 32))) +
	    (((w >> 16) & 0x000000ff000000ffu) * (1 + (10000ull << 32)))) >> 32;
}

/*
 * Parse "N" (an optional '-' if sign) up to a space or the end (end: the
 * line's).  canon is cleared unless it is as ms_ledger_write_stat writes
 * it (no leading zero, no "-0").
 */
static int
parse_num(const char **p, const char *end, bool sign, int64_t *out,
    bool *canon)
{
	const char *s = *p, *d;
	bool neg = sign && *s == '-';
	uint64_t v = 0;

	s += neg;
	d = s;
	/* No overflow in the first 16 digits: the check starts after. */
	for (int k = 0; SWAR && k < 2 && end - s >= 8 && eight_digits(load8(s));
	    k++, s += 8)
		v = v * 100000000 + eight_value(load8(s));
	for (; (unsigned)(*s - '0') < 10; s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (s == d)
		return -1;
	if (*s != ' ' && *s != '\n' && *s != '\0')
		return -1;
	if (sign && v > INT64_MAX)
		return -1;
	if ((*d == '0' && s - d > 1) || (neg && v == 0))
		*canon = false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	*p = *s == ' ' ? s + 1 : s;
	return 0;
}

/* A "#@" line's numbers; canon: written as ms_ledger_write_stat does. */
static bool
parse_stat(const char *s, const char *end, struct ms_file_stat *fs,
    bool *canon)
{
	int64_t v[4];

	*canon = true;
	if (parse_num(&s, end, false, &v[0], canon) == -1 ||
	    parse_num(&s, end, true, &v[1], canon) == -1 ||
	    parse_num(&s, end, true, &v[2], canon) == -1 ||
	    parse_num(&s, end, false, &v[3], canon) == -1)
		return false;
	if (*s != '\0' && strcmp(s, "\n") != 0 && strcmp(s, "\r\n") != 0)
		return false;
	/* one space apart (a number ends at one), a newline right after */
	if (strcmp(s, "\n") != 0 || s[-1] == ' ')
		*canon = false;
	fs->size = (uint64_t)v[0];
	fs->mtime_ns = v[1];
	fs->ctime_ns = v[2];
	fs->ino = (uint64_t)v[3];
	return true;
}

/* An entry the generic parser gave, with the "#@" line before it (or
 * NULL); false to stop reading. */
typedef bool line_fn(void *arg, const struct ms_manifest_entry *e,
    const struct ms_file_stat *fs);

/*
 * read_manifest's bookkeeping: a record's "#@" line (its file's status)
 * and "#%" line (its pieces), read before the entry line they are for.
 */
struct record_stat {
	bool		 pending;	/* a "#@" line waits for its entry */
	bool		 canon;		/* written as multisum writes them */
	uint64_t	 at;		/* the offset of the "#@" line */
	struct ms_file_stat fs;
	char		*pieces;	/* the "#%" line after the "#@" one */
};

/* One manifest being read: read_manifest's bookkeeping, line to line. */
struct reading {
	const char	*path;
	const struct ms_selection *given;
	struct ms_ledger *l;		/* or NULL */
	struct fast	*fast;		/* or NULL */
	line_fn		*fn;
	void		*arg;
	struct ms_manifest_rules rules;
	struct ms_manifest_state st;
	struct ms_ledger_line ln;	/* where the line is, for fast_line */
	struct record_stat rs;		/* a "#@" line waiting for its entry */
	char		*copy;		/* the line, kept (keep_copy) */
	size_t		 copy_cap;
};

/* ------------------------------------------------------- fast path */

/* Tag words of BSD lines seen, and the digest of the selection each is. */
#define TAGS_CACHED	8

struct fast {
	const struct ms_selection *sel;
	bool		 on;		/* no line shape of the selection's
					   needs the generic parser */
	size_t		 gnu_len;	/* GNU lines: their digest's bytes, or 0 */
	struct {
		char	 word[48];
		size_t	 n;
		size_t	 len;		/* its digest's bytes; 0: unknown tag */
		size_t	 index;		/* in sel, or SIZE_MAX */
	} tag[TAGS_CACHED];
	size_t		 ntag;
};

static void
fast_init(struct fast *f, const struct ms_selection *sel, const char *path)
{
	memset(f, 0, sizeof(*f));
	f->sel = sel;
	/* Standard input ("-" is a name it refuses) and legacy sums' lines
	 * ("VALUE SIZE NAME", tried before GNU's) are the parser's alone. */
	f->on = strcmp(path, "-") != 0;
	for (size_t k = 0; k < sel->cnt; k++)
		if (sel->spec[k].algo->legacy != MS_LEGACY_NONE)
			f->on = false;
	/*
	 * An untagged digest is the first algorithm of -a its text decodes
	 * as (hex, base64 or a cloud form): with one, hex of its length
	 * can be nothing else.  Under 4 bytes, the parser would look for a
	 * gpg record first.
	 */
	if (sel->cnt == 1 && ms_spec_len(&sel->spec[0]) >= 4)
		f->gnu_len = ms_spec_len(&sel->spec[0]);
}

static bool
is_tag_char(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z') || c == '-' || c == '_' || c == '/';
}

/* The selection's digest a tag word names: its length, 0 if unknown. */
static size_t
tag_of(struct fast *f, const char *word, size_t n, size_t *index)
{
	struct ms_digest_spec spec;
	const char *why;
	char w[48];
	size_t k;

	for (k = 0; k < f->ntag; k++)
		if (f->tag[k].n == n && memcmp(f->tag[k].word, word, n) == 0) {
			*index = f->tag[k].index;
			return f->tag[k].len;
		}
	memcpy(w, word, n);
	w[n] = '\0';
	if (ms_algo_resolve(w, 0, &spec, &why) == -1) {
		spec.algo = NULL;
		*index = SIZE_MAX;
	} else {
		*index = ms_selection_index(f->sel, &spec);
	}
	if (f->ntag < TAGS_CACHED) {
		k = f->ntag++;
		memcpy(f->tag[k].word, word, n);
		f->tag[k].n = n;
		f->tag[k].len = spec.algo != NULL ? ms_spec_len(&spec) : 0;
		f->tag[k].index = *index;
	}
	return spec.algo != NULL ? ms_spec_len(&spec) : 0;
}

/* A line fast_line read: name[0..n) with digest index of the selection
 * (0 for GNU's), into the ledger with the "#@" line before it, if any. */
static bool
fast_add(struct reading *rd, const char *name, size_t n, size_t index,
    const unsigned char *digest)
{
	rd->st.line++;
	ms_ledger_add(rd->l, name, n, index, digest,
	    rd->rs.pending ? &rd->rs.fs : NULL, &rd->ln);
	return true;
}

/*
 * BSD "TAG (NAME) = HEX" for fast_line: s, len bytes without its line
 * end, is taken into the ledger as it would parse, or false with nothing
 * done.
 */
static bool
fast_bsd(struct reading *rd, const char *s, size_t len)
{
	const struct ms_ledger_shape *shape = rd->l->shape;
	struct ms_ledger_line *ln = &rd->ln;
	unsigned char digest[MS_DIGEST_MAX];
	size_t j, k, close, dl, index;
	int hex;

	for (j = 0; j < len && is_tag_char((unsigned char)s[j]); j++)
		continue;
	for (k = j; k < len && s[k] == ' '; k++)
		continue;
	if (k == len || s[k] != '(' || j == 0 || j >= 48)
		return false;
	/* the name ends at the last ')' */
	for (close = len; close > k + 1 && s[close - 1] != ')'; close--)
		continue;
	if (close <= k + 2)
		return false;	/* no ')', or an empty name */
	close--;
	dl = tag_of(rd->fast, s, j, &index);
	if (dl == 0 || len - close != 4 + 2 * dl ||
	    memcmp(s + close, ") = ", 4) != 0 ||
	    (hex = ms_unhex_case(digest, s + close + 4, dl)) == 0)
		return false;
	ln->plain = ln->plain && hex == 2 && shape != NULL &&
	    shape->kind == MS_SHAPE_BSD && index != SIZE_MAX && k == j + 1 &&
	    strlen(shape->tag[index]) == j && memcmp(shape->tag[index], s, j) == 0;
	return fast_add(rd, s + k + 1, close - k - 1, index, digest);
}

/*
 * A line of the shapes multisum writes, taken as manifest.c's native
 * rules would take it in rd's state (so, parsed there, it would give the
 * same name and digest): into the ledger, with rd->ln.plain set if it is
 * in the run's shape.  False, with nothing done, for any other line; the
 * generic parser takes it then.
 *
 * GNU "HEX  NAME": exactly 2 * gnu_len hex digits, two spaces, a name
 * whose first non-space byte is not '(' (else it might be a tag's
 * line).  BSD "TAG (NAME) = HEX": a tag the algorithm table knows,
 * spaces, the name up to the last ')', " = " and exactly the hex digits
 * of the tag's length (fast_bsd).  Neither with a leading backslash
 * (escaped name) or a NUL byte; a CR before the newline is cut as chomp
 * cuts it.
 */
static bool
fast_line(struct reading *rd, const char *s, size_t n)
{
	const struct ms_ledger_shape *shape = rd->l->shape;
	struct ms_manifest_state *st = &rd->st;
	struct ms_ledger_line *ln = &rd->ln;
	unsigned char digest[MS_DIGEST_MAX];
	size_t len = n, k, dl;
	int hex;

	/* only where both shapes mean what they say */
	if (!rd->fast->on || !ms_manifest_at_rest(st))
		return false;
	if (len > 0 && s[len - 1] == '\n')
		len--;
	if (len > 0 && s[len - 1] == '\r')
		len--;
	/* as written: a newline, no CR */
	ln->plain = ln->plain && len + 1 == n && s[len] == '\n';
	if (len == 0 || memchr(s, '\0', len) != NULL)
		return false;
	/* GNU: the digest ends at the first blank, the name after two
	 * spaces; with st->reversed 1 the parser would read " NAME". */
	dl = rd->fast->gnu_len;
	if (dl == 0 || len < 2 * dl + 3 || s[2 * dl] != ' ' ||
	    s[2 * dl + 1] != ' ' || st->reversed == 1)
		return fast_bsd(rd, s, len);
	for (k = 2 * dl + 2; k < len && s[k] == ' '; k++)
		continue;
	if (k == len || s[k] == '(' ||
	    (hex = ms_unhex_case(digest, s, dl)) == 0)
		return false;
	st->reversed = 0;
	ln->plain = ln->plain && hex == 2 && shape != NULL &&
	    shape->kind == MS_SHAPE_GNU;
	return fast_add(rd, s + 2 * dl + 2, len - 2 * dl - 2, 0, digest);
}

/* ------------------------------------------------------ a manifest */

/*
 * A line the parser found bad under -a: is it a line of other algorithms
 * (one that reads without -a)?  Then it is foreign, not damaged.  Parsed
 * afresh from copy, in a state of its own.
 */
static bool
other_algorithms(const char *path, const struct ms_manifest_state *st,
    char *copy, size_t n)
{
	static const struct ms_manifest_rules loose = {
		.dialect = MS_DIALECT_NATIVE,
	};
	struct ms_manifest_state ls = { 0 };
	struct ms_manifest_entry e;
	enum ms_line v;

	ms_manifest_begin(&loose, &ls, path);
	ls.line = st->line;	/* past the first line, as the real state */
	v = ms_manifest_parse(&loose, &ls, copy, n, &e);
	ms_manifest_end(&ls);
	return v == MS_LINE_ENTRY || v == MS_LINE_UNSUPPORTED;
}

/*
 * The "#%" line of pieces after an entry's "#@" line, into fs (its hex
 * kept in *pieces); stat_canon stays true only if the line is as
 * ms_ledger_write_pieces writes it.  A damaged one is a comment: the
 * entry has no pieces, and is written anew (not plain).
 */
static void
read_pieces(const char *line, size_t n, struct ms_file_stat *fs,
    char **pieces, bool *stat_canon)
{
	const char *hex;
	size_t hl, len = n - strlen(MS_LEDGER_PIECES);
	char head[48];
	int hn;

	if (len > 0 && line[strlen(MS_LEDGER_PIECES) + len - 1] == '\n')
		len--;
	if (!ms_ledger_parse_pieces(line + strlen(MS_LEDGER_PIECES), len,
	    fs->size, &fs->piece, &hex, &hl)) {
		fs->piece = 0;
		*stat_canon = false;
		return;
	}
	hn = snprintf(head, sizeof(head), "#%% %" PRIu64 " "
	    MS_LEDGER_PIECE_ALGO, fs->piece);
	*pieces = ms_xrealloc(*pieces, hl + 1);
	memcpy(*pieces, hex, hl);
	(*pieces)[hl] = '\0';
	fs->pieces = *pieces;
	if (n != (size_t)hn + (hl > 0 ? hl + 1 : 0) + 1 ||
	    memcmp(line, head, (size_t)hn) != 0)
		*stat_canon = false;
}

/*
 * What read_manifest does with the parser's verdict v on a line (copy,
 * n: the line as read, or NULL for a record's verdict); false to stop.
 */
static bool
verdict(const char *path, const struct ms_selection *given,
    struct ms_ledger *l, const struct ms_manifest_state *st, enum ms_line v,
    const struct ms_manifest_entry *e, const struct ms_file_stat *fs,
    char *copy, size_t n, line_fn *fn, void *arg)
{
	switch (v) {
	case MS_LINE_ENTRY:
		return fn(arg, e, fs);
	case MS_LINE_UNSUPPORTED:
		/* an algorithm this build lacks: not one of sel's */
		if (l != NULL)
			l->foreign++;
		break;
	case MS_LINE_BAD:
		if (l == NULL)
			break;
		if (given != NULL && copy != NULL &&
		    other_algorithms(path, st, copy, n))
			l->foreign++;
		else if (l->bad++ < MS_ARRAY_LEN(l->bad_line))
			l->bad_line[l->bad - 1] = st->line;
		break;
	case MS_LINE_SKIP:
		break;
	}
	return true;
}

/* Take line (n bytes at offset at) if it is a "#@" or "#%" line. */
static bool
record_stat_line(struct record_stat *rs, const char *line, size_t n,
    uint64_t at)
{
	if (strncmp(line, MS_LEDGER_ENTRY, strlen(MS_LEDGER_ENTRY)) == 0) {
		rs->pending = parse_stat(line + strlen(MS_LEDGER_ENTRY),
		    line + n, &rs->fs, &rs->canon);
		rs->fs.piece = 0;
		rs->fs.pieces = NULL;
		rs->at = at;
		return true;
	}
	if (rs->pending && rs->fs.pieces == NULL && strncmp(line,
	    MS_LEDGER_PIECES, strlen(MS_LEDGER_PIECES)) == 0) {
		read_pieces(line, n, &rs->fs, &rs->pieces, &rs->canon);
		return true;
	}
	return false;
}

/*
 * A ledger's header (line 1) and the scope lines right after it, into l;
 * true for a scope line, which is the header's and no entry.
 */
static bool
head_line(struct ms_ledger *l, const struct ms_manifest_state *st,
    const char *line, size_t n, uint64_t at)
{
	if (st->line == 0) {
		l->body = (uint64_t)n;
		if (ms_ledger_head_parse(&l->head, line)) {
			l->versioned = l->head.has_stamp;
			l->stamp_ns = l->head.stamp_ns;
		}
	}
	if (l->head.scope_read < l->head.nscope &&
	    st->line == l->head.scope_read + 1 &&
	    ms_ledger_head_scope(&l->head, line)) {
		l->body = at + (uint64_t)n;
		return true;
	}
	return false;
}

/* A copy of line in *copy (grown as need be). */
static void
keep_copy(char **copy, size_t *cap, const char *line, size_t n)
{
	if (n + 1 > *cap) {
		*cap = 2 * (n + 1);
		*copy = ms_xrealloc(*copy, *cap);
	}
	memcpy(*copy, line, n + 1);
}

/* The line (n bytes at offset at) read; false when reading stops. */
static bool
read_line(struct reading *rd, char *line, size_t n, uint64_t at)
{
	struct record_stat *rs = &rd->rs;
	struct ms_manifest_entry e;
	enum ms_line v;

	if ((rd->l != NULL && head_line(rd->l, &rd->st, line, n, at)) ||
	    record_stat_line(rs, line, n, at)) {
		rd->st.line++;
		return true;
	}
	rd->ln.off = rs->pending ? rs->at : at;
	rd->ln.len = at + (uint64_t)n - rd->ln.off;
	rd->ln.plain = !rs->pending || rs->canon;
	if (rd->fast != NULL && fast_line(rd, line, n)) {
		rs->pending = false;
		return true;
	}
	/* kept, to tell other algorithms' lines from bad ones */
	if (rd->given != NULL && rd->l != NULL)
		keep_copy(&rd->copy, &rd->copy_cap, line, n);
	/* again: the line ended a record, whose verdict came first (the
	 * "#@" line before it is the line's, not the record's) */
	do {
		v = ms_manifest_parse(&rd->rules, &rd->st, line, n, &e);
		if (!verdict(rd->path, rd->given, rd->l, &rd->st, v, &e,
		    rs->pending && !rd->st.again ? &rs->fs : NULL,
		    rd->st.again ? NULL : rd->copy, n, rd->fn, rd->arg))
			return false;
	} while (rd->st.again);
	rs->pending = false;
	return true;
}

/*
 * Read the manifest in, handing each entry to fn, or with fast (and l)
 * the lines it takes straight to l.  in is closed, but with l->shape,
 * whose bytes ms_ledger_copy reads again: it is l->in then.
 */
static int
read_manifest(const struct ms_manifest_input *in,
    const struct ms_selection *given, struct ms_ledger *l, struct fast *fast,
    line_fn *fn, void *arg)
{
	struct reading rd = { .path = in->name, .given = given, .l = l,
	    .fast = fast, .fn = fn, .arg = arg,
	    .rules = { .dialect = MS_DIALECT_NATIVE, .given = given } };
	struct ms_manifest_entry e;
	struct ms_lines r;
	char *line;
	ssize_t n;
	uint64_t at;
	bool stopped = false;
	int rc = 0, err;

	ms_lines_init(&r, in);
	ms_manifest_begin(&rd.rules, &rd.st, rd.path);
	while (!stopped && (n = ms_lines_next(&r, &line, &at)) > 0)
		stopped = !read_line(&rd, line, (size_t)n, at);
	/* a record the end closes */
	if (!stopped && n != -1)
		(void)verdict(rd.path, given, l, &rd.st, ms_manifest_finish(
		    &rd.rules, &rd.st, &e), &e, NULL, NULL, 0, fn, arg);
	err = errno;
	free(rd.rs.pieces);
	if (n == -1)
		rc = -1;
	if (l != NULL) {
		l->size = ms_lines_size(&r);
		l->hashdeep = rd.st.hd_version;
	}
	ms_manifest_end(&rd.st);
	free(rd.copy);
	ms_lines_free(&r);
	if (rc == 0 && l != NULL && l->shape != NULL)
		l->in = *in;
	else if (ms_manifest_input_close(in) == -1 && rc == 0) {
		err = errno;
		rc = -1;
	}
	errno = err;
	return rc;
}

struct scan {
	struct ms_selection *sel;
	char		*first;		/* the first entry's name */
};

/* The algorithms of the first entry (its lines follow each other). */
static bool
scan_line(void *arg, const struct ms_manifest_entry *e,
    const struct ms_file_stat *fs)
{
	struct scan *s = arg;

	(void)fs;
	if (s->first == NULL)
		s->first = ms_xstrdup(e->name);
	else if (strcmp(s->first, e->name) != 0)
		return false;
	for (size_t k = 0; k < e->n; k++)
		if (e->d[k].len == ms_spec_len(&e->d[k].spec))
			ms_selection_add(s->sel, &e->d[k].spec);
	return true;
}

int
ms_ledger_scan(const struct ms_manifest_input *in, struct ms_selection *sel)
{
	struct scan s = { sel, NULL };
	int rc = read_manifest(in, NULL, NULL, NULL, scan_line, &s);

	free(s.first);
	return rc;
}

/* Which digest of the selection a line gives, or SIZE_MAX. */
static size_t
line_index(const struct ms_selection *sel, const struct ms_manifest_entry *e)
{
	size_t i = SIZE_MAX;

	/* An untagged digest has one algorithm (manifest.h). */
	if (e->n > 0 && e->d[0].len == ms_spec_len(&e->d[0].spec))
		i = ms_selection_index(sel, &e->d[0].spec);
	return i;
}

static bool
load_line(void *arg, const struct ms_manifest_entry *me,
    const struct ms_file_stat *fs)
{
	struct ms_ledger *l = arg;

	ms_ledger_add(l, me->name, strlen(me->name), line_index(l->sel, me),
	    me->d[0].digest, fs, NULL);
	return true;
}

static int
load(struct ms_ledger *l, const struct ms_manifest_input *in,
    const struct ms_selection *sel, bool fast,
    const struct ms_ledger_shape *shape)
{
	struct fast f;

	memset(l, 0, sizeof(*l));
	l->sel = sel;
	/* plain entries are copied as they were: only from bytes that can
	 * be read again as they are (not from a pipe, nor decoded) */
	if (shape != NULL && shape->kind != MS_SHAPE_NONE && in->pull_at != NULL)
		l->shape = shape;
	fast_init(&f, sel, in->name);
	if (read_manifest(in, sel, l, fast ? &f : NULL, load_line, l) == -1) {
		int err = errno;

		ms_ledger_free(l);
		errno = err;
		return -1;
	}
	ms_ledger_index(l, in->name);
	return 0;
}

int
ms_ledger_load(struct ms_ledger *l, const struct ms_manifest_input *in,
    const struct ms_selection *sel)
{
	return load(l, in, sel, true, NULL);
}

int
ms_ledger_load_shaped(struct ms_ledger *l, const struct ms_manifest_input *in,
    const struct ms_selection *sel, const struct ms_ledger_shape *shape)
{
	return load(l, in, sel, true, shape);
}

int
ms_ledger_load_generic(struct ms_ledger *l, const struct ms_manifest_input *in,
    const struct ms_selection *sel)
{
	return load(l, in, sel, false, NULL);
}

int
ms_ledger_copy(const struct ms_ledger *l, uint64_t off, uint64_t len,
    FILE *out)
{
	static char buf[1 << 16];

	while (len > 0) {
		ssize_t got = l->in.pull_at(l->in.src, buf,
		    len < sizeof(buf) ? len : sizeof(buf), off);

		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1)
			return -1;
		if (got == 0) {
			errno = EIO;	/* shorter than when it was read */
			return -1;
		}
		fwrite(buf, 1, (size_t)got, out);
		off += (uint64_t)got;
		len -= (uint64_t)got;
	}
	return 0;
}

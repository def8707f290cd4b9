/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text_input.c - open a manifest for reading as UTF-8.
 *
 * Owns the byte order mark at the start of a text file: UTF-16 (what
 * PowerShell 5's ">" and Out-File write, CertUtil redirected there too)
 * is decoded to UTF-8 as it is read, through a stdio cookie
 * (ms_fopen_reader: fopencookie or funopen, else a temporary file that
 * takes it all at once), so that the reader keeps its line loop and its
 * constant memory; so is UTF-16
 * without a mark, told by the NUL beside the first character.  It is
 * the door every mode opens a list through (ms_text_input): -c, and the
 * --match sets, --update and --audit ledgers, --merge shards and part
 * records, whose bytes the manifest layer pulls in blocks.  A list compressed with gzip
 * or xz (Debian's Packages.gz, .xz) is read decompressed, through
 * libarchive (archive_source.c).  -c's lines are cut here too
 * (ms_text_getdelim), bounded as the manifest layer's are.  It never
 * parses a line: that is the manifest layer's.  A UTF-16 file of an odd
 * number of bytes (a cut copy) is said, named, once.
 */
#include "io/text_input.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/archive_source.h"
#include "base/portable.h"
#include "base/quote.h"
#include "base/util.h"

/* A UTF-16 stream being decoded, or the bytes peeked before a plain one. */
struct decoder {
	FILE		*under;
	bool		 utf16, be;
	unsigned char	 in[4096];
	size_t		 inlen, inpos;
	unsigned char	 out[4];	/* one code point's UTF-8, or peeked bytes */
	size_t		 outlen, outpos;
	unsigned	 high;		/* a high surrogate waiting for its pair */
	unsigned	 back;		/* a unit read again, when has_back */
	bool		 has_back;
	bool		 eof;
	char		*name;		/* the file's, for a cut one (or NULL) */
};

#define REPLACEMENT	0xfffd

static void
put_utf8(struct decoder *d, unsigned cp)
{
	unsigned char *o = d->out;

	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		d->outlen = 1;
	} else if (cp < 0x800) {
		o[0] = (unsigned char)(0xc0 | cp >> 6);
		o[1] = (unsigned char)(0x80 | (cp & 0x3f));
		d->outlen = 2;
	} else if (cp < 0x10000) {
		o[0] = (unsigned char)(0xe0 | cp >> 12);
		o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp & 0x3f));
		d->outlen = 3;
	} else {
		o[0] = (unsigned char)(0xf0 | cp >> 18);
		o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		o[3] = (unsigned char)(0x80 | (cp & 0x3f));
		d->outlen = 4;
	}
	d->outpos = 0;
}

/*
 * The next code unit into *u: 1, or 0 at the end (an odd last byte is a
 * broken unit: U+FFFD), or -1 on a read error.
 */
static int
next_unit(struct decoder *d, unsigned *u)
{
	const unsigned char *p;

	if (d->has_back) {
		d->has_back = false;
		*u = d->back;
		return 1;
	}
	if (d->inlen - d->inpos < 2 && !d->eof) {
		size_t left = d->inlen - d->inpos, got;

		memmove(d->in, d->in + d->inpos, left);
		got = fread(d->in + left, 1, sizeof(d->in) - left, d->under);
		d->inpos = 0;
		d->inlen = left + got;
		if (got == 0) {
			if (ferror(d->under))
				return -1;
			d->eof = true;
		}
	}
	if (d->inlen - d->inpos >= 2) {
		p = d->in + d->inpos;
		d->inpos += 2;
		*u = d->be ? (unsigned)p[0] << 8 | p[1] : (unsigned)p[1] << 8 | p[0];
		return 1;
	}
	if (d->inlen - d->inpos == 1) {
		d->inpos++;
		/* said, or its last line reads as some other fault */
		if (d->name != NULL)
			ms_warn("%s: UTF-16 text of an odd number of bytes: cut "
			    "short, its last line is broken", ms_quotef(d->name));
		*u = REPLACEMENT;
		return 1;
	}
	return 0;
}

/* One code point into d->out; 0 at the end, -1 on a read error. */
static int
decode(struct decoder *d)
{
	unsigned u;
	int rc;

	for (;;) {
		if ((rc = next_unit(d, &u)) <= 0) {
			if (rc == 0 && d->high != 0) {
				/* a high surrogate at the very end */
				d->high = 0;
				put_utf8(d, REPLACEMENT);
				return 1;
			}
			return rc;
		}
		if (d->high != 0) {
			unsigned hi = d->high;

			d->high = 0;
			if (u >= 0xdc00 && u <= 0xdfff) {
				put_utf8(d, 0x10000 + ((hi - 0xd800) << 10) +
				    (u - 0xdc00));
				return 1;
			}
			/* the pair is broken: its half, then u afresh */
			d->back = u;
			d->has_back = true;
			put_utf8(d, REPLACEMENT);
			return 1;
		}
		if (u >= 0xd800 && u <= 0xdbff) {
			d->high = u;
			continue;
		}
		put_utf8(d, u >= 0xdc00 && u <= 0xdfff ? REPLACEMENT : u);
		return 1;
	}
}

static ssize_t
decoder_read(void *cookie, char *buf, size_t size)
{
	struct decoder *d = cookie;
	size_t n = 0;

	while (n < size) {
		int rc;

		if (d->outpos < d->outlen) {
			buf[n++] = (char)d->out[d->outpos++];
			continue;
		}
		if (!d->utf16) {
			/* the bytes peeked are out: the rest as it is */
			size_t got = fread(buf + n, 1, size - n, d->under);

			if (got == 0 && n == 0 && ferror(d->under))
				return -1;
			return (ssize_t)(n + got);
		}
		if ((rc = decode(d)) == 0)
			break;
		if (rc == -1)
			return n > 0 ? (ssize_t)n : -1;
	}
	return (ssize_t)n;
}

static void
release(FILE *under)
{
	if (under == stdin)
		clearerr(stdin);
	else
		fclose(under);
}

static int
decoder_close(void *cookie)
{
	struct decoder *d = cookie;
	int rc = 0;

	if (d->under != stdin && fclose(d->under) != 0)
		rc = -1;
	else if (d->under == stdin)
		clearerr(stdin);
	free(d->name);
	free(d);
	return rc;
}

/* fp (name's, or NULL) read through a decoder that first takes the n
 * peeked bytes (UTF-16 code units, or bytes handed out as they are). */
static FILE *
wrap(FILE *fp, const char *name, bool utf16, bool be,
    const unsigned char *peek, size_t n)
{
	struct decoder *d = ms_xcalloc(1, sizeof(*d));

	d->under = fp;
	d->name = name != NULL ? ms_xstrdup(name) : NULL;
	d->utf16 = utf16;
	d->be = be;
	/* UTF-16's peeked bytes are code units to decode, others output */
	if (utf16) {
		memcpy(d->in, peek, n);
		d->inlen = n;
	} else {
		memcpy(d->out, peek, n);
		d->outlen = n;
	}
	/* on failure decoder_close has released fp */
	return ms_fopen_reader(d, decoder_read, decoder_close);
}

static FILE *stream(FILE *fp, const char *name, const char **encoding);

/*
 * Is the regular file fp compressed (gzip, xz), as Debian's Packages.gz
 * and Packages.xz are?  Told by its first bytes, which no list begins
 * with; fp is left where it was.
 */
static bool
compressed(FILE *fp)
{
	static const unsigned char gz[] = { 0x1f, 0x8b },
	    xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	unsigned char head[6];
	ssize_t n = pread(fileno(fp), head, sizeof(head), 0);

	return (n >= 2 && memcmp(head, gz, sizeof(gz)) == 0) ||
	    (n == 6 && memcmp(head, xz, sizeof(xz)) == 0);
}

FILE *
ms_text_open(const char *path, const char **encoding)
{
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *fp = is_stdin ? stdin : fopen(path, "r");
	struct stat sb;

	*encoding = NULL;
	if (fp == NULL)
		return NULL;
	if (fstat(fileno(fp), &sb) == 0 && S_ISDIR(sb.st_mode)) {
		release(fp);
		errno = EISDIR;
		return NULL;
	}
	if (!is_stdin && S_ISREG(sb.st_mode) && compressed(fp)) {
		/* its decompressed text, read as any list */
		fclose(fp);
		return ms_archive_uncompressed(path);
	}
	return stream(fp, is_stdin ? NULL : path, encoding);
}

FILE *
ms_text_stream(FILE *fp, const char **encoding)
{
	return stream(fp, NULL, encoding);
}

/*
 * Text of UTF-16 without a byte order mark (iconv -t UTF-16LE, .NET's
 * Encoding.Unicode.GetBytes): a manifest's first character is never a
 * NUL, and its first is ASCII, so a NUL beside it tells the order.
 * *be: big-endian.
 */
static bool
bomless_utf16(const unsigned char *peek, bool *be)
{
	if (peek[0] != 0 && peek[0] < 0x80 && peek[1] == 0) {
		*be = false;
		return true;
	}
	if (peek[0] == 0 && peek[1] != 0 && peek[1] < 0x80) {
		*be = true;
		return true;
	}
	return false;
}

/* ms_text_stream of the file name (NULL: none to name). */
static FILE *
stream(FILE *fp, const char *name, const char **encoding)
{
	off_t at = ftello(fp);
	unsigned char peek[2];
	bool be;
	int c;

	*encoding = NULL;
	if ((c = getc(fp)) == EOF)
		return fp;	/* empty, or an error ferror tells */
	peek[0] = (unsigned char)c;
	if ((c = getc(fp)) == EOF)
		return wrap(fp, name, false, false, peek, 1);
	peek[1] = (unsigned char)c;
	if (peek[0] == 0xff && peek[1] == 0xfe) {
		*encoding = "UTF-16LE";
		return wrap(fp, name, true, false, peek, 0);
	}
	if (peek[0] == 0xfe && peek[1] == 0xff) {
		*encoding = "UTF-16BE";
		return wrap(fp, name, true, true, peek, 0);
	}
	if (bomless_utf16(peek, &be)) {
		*encoding = be ? "UTF-16BE" : "UTF-16LE";
		return wrap(fp, name, true, be, peek, 2);
	}
	/* As it is: from where it was, or the two bytes handed out first
	 * (a pipe). */
	if (at != -1 && fseeko(fp, at, SEEK_SET) == 0)
		return fp;
	return wrap(fp, name, false, false, peek, 2);
}

ssize_t
ms_text_getdelim(char **line, size_t *cap, int delim, FILE *fp)
{
	size_t n = 0;
	int c = EOF;

	flockfile(fp);
	while (n <= MS_LINE_MAX && (c = getc_unlocked(fp)) != EOF) {
		if (n + 2 > *cap) {
			*cap = *cap < 128 ? 128 : *cap * 2;
			*line = ms_xrealloc(*line, *cap);
		}
		(*line)[n++] = (char)c;
		if (c == delim)
			break;
	}
	funlockfile(fp);
	if (n > MS_LINE_MAX) {
		errno = EFBIG;
		return -1;
	}
	if (n == 0)
		return -1;
	(*line)[n] = '\0';
	return (ssize_t)n;
}

int
ms_text_close(FILE *fp)
{
	if (fp == stdin) {
		clearerr(stdin);
		return 0;
	}
	return fclose(fp);
}

/* ------------------------------------------------------------ door */

/* A list opened for the manifest layer's pulls. */
struct door {
	FILE		*fp;
};

static ssize_t
door_pull(void *src, char *buf, size_t cap)
{
	struct door *d = src;
	size_t got = fread(buf, 1, cap, d->fp);

	if (got == 0 && ferror(d->fp)) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	return (ssize_t)got;
}

static ssize_t
door_pull_at(void *src, char *buf, size_t cap, uint64_t off)
{
	struct door *d = src;

	return pread(fileno(d->fp), buf, cap, (off_t)off);
}

static int
door_close(void *src)
{
	struct door *d = src;
	int rc = ms_text_close(d->fp);

	free(d);
	return rc;
}

/* in made the door to fp (as ms_text_open or ms_text_stream left it). */
static void
door_open(struct ms_manifest_input *in, const char *name, FILE *fp,
    const char *encoding)
{
	struct door *d = ms_xcalloc(1, sizeof(*d));
	struct stat sb;

	d->fp = fp;
	in->name = name;
	in->src = d;
	in->pull = door_pull;
	in->close = door_close;
	/* the file's own bytes, where a plain entry's can be read again */
	if (encoding == NULL && fp != stdin && fileno(fp) != -1 &&
	    fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode))
		in->pull_at = door_pull_at;
}

int
ms_text_input(struct ms_manifest_input *in, const char *path)
{
	const char *encoding;
	FILE *fp;

	memset(in, 0, sizeof(*in));
	if ((fp = ms_text_open(path, &encoding)) == NULL)
		return -1;
	door_open(in, path, fp, encoding);
	return 0;
}

int
ms_text_input_stream(struct ms_manifest_input *in, const char *name,
    FILE *fp)
{
	const char *encoding;

	memset(in, 0, sizeof(*in));
	if ((fp = ms_text_stream(fp, &encoding)) == NULL)
		return -1;
	door_open(in, name, fp, encoding);
	return 0;
}

const char *
ms_text_strerror(int err)
{
	static char why[80];

	if (err == EBADMSG)
		return "damaged or cut compressed data (gzip, xz)";
	if (err == EFBIG) {
		snprintf(why, sizeof(why), "not a manifest (a line of over "
		    "%zu MiB)", MS_LINE_MAX >> 20);
		return why;
	}
	return strerror(err);
}

enum ms_outcome
ms_text_outcome(int err)
{
	return err == EFBIG || err == E2BIG || err == EBADMSG ? MS_OUTCOME_FAIL :
	    MS_OUTCOME_RETRY;
}

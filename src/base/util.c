/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * util.c - diagnostics, allocation that cannot fail, byte encodings, and
 * whole reads and writes of a descriptor.
 *
 * Owns the program-name prefix of every message, the hex and base64
 * codecs that formats and manifests share, and the one loop that reads
 * or writes all of a buffer past EINTR and short transfers.  It never
 * touches standard output.
 */
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/exit_status.h"

const char *ms_program = "multisum";

/* Called before a message goes to standard error (the progress line). */
static void (*before_message)(void);

void
ms_set_before_message(void (*fn)(void))
{
	before_message = fn;
}

void
ms_before_terminal_output(void)
{
	static int tty = -1;

	if (before_message == NULL)
		return;
	if (tty == -1)
		tty = isatty(STDOUT_FILENO);
	if (tty)
		before_message();
}

const char *
ms_strerror(int err)
{
	if (err == MS_ENOTREG)
		return "no longer a regular file (replaced since the directory "
		    "was read)";
	if (err == MS_ECHANGED)		/* GNU tar's words for the same event */
		return "file changed as we read it";
	return strerror(err);
}

void
ms_vwarn(const char *fmt, va_list ap)
{
	/*
	 * One write per message so that threads never interleave lines; a
	 * message longer than the stack buffer (a deep path) is allocated
	 * whole rather than cut before its reason.
	 */
	char small[4096], *line = small;
	int p = snprintf(small, sizeof(small), "%s: ", ms_program);
	va_list again;
	int n;

	if (p < 0)
		return;
	va_copy(again, ap);
	n = vsnprintf(small + p, sizeof(small) - (size_t)p, fmt, ap);
	if (n < 0) {
		va_end(again);
		return;
	}
	if ((size_t)p + (size_t)n + 2 > sizeof(small)) {
		line = malloc((size_t)p + (size_t)n + 2);
		if (line == NULL) {
			line = small;	/* cut, but said */
			n = (int)(sizeof(small) - (size_t)p - 2);
		} else {
			memcpy(line, small, (size_t)p);
			vsnprintf(line + p, (size_t)n + 1, fmt, again);
		}
	}
	va_end(again);
	line[p + n] = '\n';
	if (before_message != NULL)
		before_message();
	fwrite(line, 1, (size_t)p + (size_t)n + 1, stderr);
	if (line != small)
		free(line);
}

void
ms_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ms_vwarn(fmt, ap);
	va_end(ap);
}

void
ms_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ms_vwarn(fmt, ap);
	va_end(ap);
	/* memory, a thread, a stream: the machine's, not the usage's */
	ms_outcome_exit(MS_OUTCOME_RETRY);
}

void
ms_try_help(void)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", ms_program);
}

int
ms_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ms_vwarn(fmt, ap);
	va_end(ap);
	ms_try_help();
	return MS_EXIT_USAGE;
}

void
ms_bug(const char *what)
{
	fprintf(stderr, "%s: internal error: %s\n", ms_program, what);
	abort();
}

static void *
checked(void *p)
{
	if (p == NULL) {
		ms_warn("%s", strerror(ENOMEM));
		ms_outcome_exit(MS_OUTCOME_RETRY);
	}
	return p;
}

void *
ms_xmalloc(size_t n)
{
	return checked(malloc(n ? n : 1));
}

void *
ms_xcalloc(size_t cnt, size_t n)
{
	return checked(calloc(cnt ? cnt : 1, n ? n : 1));
}

void *
ms_xrealloc(void *p, size_t n)
{
	return checked(realloc(p, n ? n : 1));
}

void *
ms_xaligned(size_t align, size_t n)
{
	void *p = NULL;

	if (posix_memalign(&p, align, n ? n : 1) != 0)
		p = NULL;
	return checked(p);
}

void *
ms_try_aligned(size_t align, size_t n)
{
	void *p;

	return posix_memalign(&p, align, n ? n : 1) == 0 ? p : NULL;
}

char *
ms_xstrdup(const char *s)
{
	return checked(strdup(s));
}

void
ms_bytes_add(struct ms_bytes *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	memcpy(ms_bytes_room(b, n), p, n);
	b->len += n;
}

unsigned char *
ms_bytes_room(struct ms_bytes *b, size_t n)
{
	if (b->cap - b->len < n) {
		size_t cap = b->cap ? b->cap : 64;

		while (cap - b->len < n)
			cap *= 2;
		b->p = ms_xrealloc(b->p, cap);
		b->cap = cap;
	}
	return b->p + b->len;
}

void
ms_bytes_free(struct ms_bytes *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

char *
ms_xstrndup(const char *s, size_t n)
{
	return checked(strndup(s, n));
}

void
ms_free_strings(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

char *
ms_xvasprintf(const char *fmt, va_list ap)
{
	va_list again;
	char *p;
	int n;

	/* gcc 12 with UBSan at -O1 sees a path with a null fmt here and
	 * warns (-Wformat-truncation) unless it is ruled out first. */
	if (fmt == NULL)
		ms_bug("ms_xvasprintf: no format");
	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	if (n < 0)
		ms_bug("vsnprintf");
	p = ms_xmalloc((size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, again);
	va_end(again);
	return p;
}

char *
ms_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = ms_xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

int
ms_strcaseeq(const char *a, const char *b)
{
	while (*a && lower((unsigned char)*a) == lower((unsigned char)*b))
		a++, b++;
	return *a == '\0' && *b == '\0';
}

bool
ms_begins(const void *p, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(p, prefix, n) == 0;
}

bool
ms_path_leaves(const char *path)
{
	if (path[0] == '/')
		return true;
	for (const char *c = path; *c != '\0'; ) {
		size_t n = strcspn(c, "/");

		if (n == 2 && c[0] == '.' && c[1] == '.')
			return true;
		c += n;
		c += strspn(c, "/");
	}
	return false;
}

int
ms_parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	if (*s < '0' || *s > '9')
		return MS_SIZE_NAN;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return MS_SIZE_BIG;
	if (errno != 0)
		return MS_SIZE_NAN;
	switch (lower((unsigned char)*end)) {
	case 'k': shift = 10; end++; break;
	case 'm': shift = 20; end++; break;
	case 'g': shift = 30; end++; break;
	}
	/* "KiB" means K; a lone "Ki" is refused, as coreutils refuses it. */
	if (shift && lower((unsigned char)*end) == 'i' &&
	    lower((unsigned char)end[1]) == 'b')
		end++;
	if (lower((unsigned char)*end) == 'b')
		end++;
	if (*end != '\0')
		return MS_SIZE_SUFFIX;
	if (v > (SIZE_MAX >> shift))
		return MS_SIZE_BIG;
	*out = (size_t)(v << shift);
	return 0;
}

const char *
ms_size_error(int rc)
{
	switch (rc) {
	case MS_SIZE_NAN:	return "not a number";
	case MS_SIZE_SUFFIX:	return "unknown suffix (K, M or G)";
	case MS_SIZE_BIG:	return "too large";
	}
	return "invalid";
}

uint64_t
ms_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void
ms_cond_init_monotonic(pthread_cond_t *cv)
{
	pthread_condattr_t ca;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(cv, &ca);
	pthread_condattr_destroy(&ca);
}

struct timespec
ms_ns_timespec(uint64_t ns)
{
	return (struct timespec){
		.tv_sec = (time_t)(ns / 1000000000u),
		.tv_nsec = (long)(ns % 1000000000u),
	};
}

/* Two digits a byte from a table: a digit at a time was a twentieth of
 * a tree of small files' user time with four digests (perf). */
#define HEX_ROW(h)	h "0" h "1" h "2" h "3" h "4" h "5" h "6" h "7" \
			h "8" h "9" h "a" h "b" h "c" h "d" h "e" h "f"

void
ms_hex(char *out, const unsigned char *p, size_t n)
{
	static const char pairs[] = HEX_ROW("0") HEX_ROW("1") HEX_ROW("2")
	    HEX_ROW("3") HEX_ROW("4") HEX_ROW("5") HEX_ROW("6") HEX_ROW("7")
	    HEX_ROW("8") HEX_ROW("9") HEX_ROW("a") HEX_ROW("b") HEX_ROW("c")
	    HEX_ROW("d") HEX_ROW("e") HEX_ROW("f");

	for (size_t i = 0; i < n; i++, out += 2)
		memcpy(out, pairs + 2 * p[i], 2);
	*out = '\0';
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWAR	1	/* eight characters a step, in a word */
#else
#define SWAR	0
#endif

#define ONES	0x0101010101010101u
#define HIGHS	0x8080808080808080u

/* A hex digit's value + 1 (with UPPER for upper case); 0 for others. */
#define UPPER	64
static const unsigned char hexval[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6,
	['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = UPPER | 11, ['B'] = UPPER | 12, ['C'] = UPPER | 13,
	['D'] = UPPER | 14, ['E'] = UPPER | 15, ['F'] = UPPER | 16,
};

int
ms_unhex_case(unsigned char *out, const char *s, size_t n)
{
	unsigned bad = 0, upper = 0;
	size_t i = 0;

#if SWAR
	/* Byte-wise c >= lo, for bytes under 0x80: the high bit of each. */
#define GE(w, lo)	(((w) + (0x80u - (lo)) * ONES) & HIGHS)
	uint64_t wbad = 0, wupper = 0;

	for (; i + 4 <= n; i += 4, s += 8, out += 4) {
		uint64_t w, v, t;

		memcpy(&w, s, 8);
		uint64_t digit = GE(w, '0') & ~GE(w, '9' + 1);
		uint64_t lower = GE(w, 'a') & ~GE(w, 'f' + 1);
		uint64_t up = GE(w, 'A') & ~GE(w, 'F' + 1);

		wbad |= (w & HIGHS) | ((digit | lower | up) ^ HIGHS);
		wupper |= up;
		/* each digit's value, then two to a byte, four bytes */
		v = (w & 0x0f0f0f0f0f0f0f0fu) + 9 * ((w >> 6) & ONES);
		t = ((v << 4) | (v >> 8)) & 0x00ff00ff00ff00ffu;
		t = (t | (t >> 8)) & 0x0000ffff0000ffffu;
		t = (t | (t >> 16)) & 0xffffffffu;
		memcpy(out, &t, 4);
	}
#undef GE
	bad = wbad != 0 ? 2 * UPPER : 0;
	upper = wupper != 0 ? UPPER : 0;
	n -= i;
	i = 0;
#endif
	for (; i < n; i++) {
		unsigned hi = hexval[(unsigned char)s[2 * i]];
		unsigned lo = hexval[(unsigned char)s[2 * i + 1]];

		bad |= (hi - 1) | (lo - 1);	/* 0 - 1 sets the high bits */
		upper |= hi | lo;
		out[i] = (unsigned char)(((hi - 1) & 15) << 4 | ((lo - 1) & 15));
	}
	if (bad >= 2 * UPPER)
		return 0;
	return upper & UPPER ? 1 : 2;
}

int
ms_unhex(unsigned char *out, const char *s, size_t n)
{
	return ms_unhex_case(out, s, n) == 0 ? -1 : 0;
}

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void
ms_base64(char *out, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i + 3 <= n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
		*out++ = b64[v >> 18];
		*out++ = b64[v >> 12 & 63];
		*out++ = b64[v >> 6 & 63];
		*out++ = b64[v & 63];
	}
	if (n - i == 1) {
		uint32_t v = (uint32_t)p[i] << 16;
		*out++ = b64[v >> 18];
		*out++ = b64[v >> 12 & 63];
		*out++ = '=';
		*out++ = '=';
	} else if (n - i == 2) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8;
		*out++ = b64[v >> 18];
		*out++ = b64[v >> 12 & 63];
		*out++ = b64[v >> 6 & 63];
		*out++ = '=';
	}
	*out = '\0';
}

static int
b64val(int c)
{
	const char *q = c ? strchr(b64, c) : NULL;

	return q ? (int)(q - b64) : -1;
}

long
ms_unbase64(unsigned char *out, size_t cap, const char *s, size_t len)
{
	size_t n = 0;

	if (len == 0 || len % 4 != 0)
		return -1;
	for (size_t i = 0; i < len; i += 4) {
		int v[4], pad = 0;

		for (int k = 0; k < 4; k++) {
			if (s[i + k] == '=' && i + 4 == len && k >= 2) {
				v[k] = 0;
				pad++;
			} else if (pad || (v[k] = b64val((unsigned char)s[i + k])) < 0) {
				return -1;
			}
		}
		uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 |
		    (uint32_t)v[2] << 6 | (uint32_t)v[3];
		/* Canonical form: the bits under the padding are zero. */
		if ((pad == 1 && (w & 0xff)) || (pad == 2 && (w & 0xffff)))
			return -1;
		for (int k = 0; k < 3 - pad; k++) {
			if (n == cap)
				return -1;
			out[n++] = (unsigned char)(w >> (16 - 8 * k));
		}
	}
	return (long)n;
}

long
ms_unbase64_loose(unsigned char *out, size_t cap, const char *s, size_t len,
    bool url)
{
	size_t n = len + 3;
	char *t;
	long got;

	if (len % 4 == 1)
		return -1;
	t = ms_xmalloc(n);
	for (n = 0; n < len; n++) {
		char c = s[n];

		/* the other alphabet's two characters are not taken */
		if (url ? c == '+' || c == '/' : c == '-' || c == '_')
			break;
		t[n] = !url ? c : c == '-' ? '+' : c == '_' ? '/' : c;
	}
	if (n < len) {
		free(t);
		return -1;
	}
	/* padding already there is kept (and must be right) */
	while (n % 4 != 0)
		t[n++] = '=';
	got = ms_unbase64(out, cap, t, n);
	free(t);
	return got;
}

bool ms_stdin_was_closed;

void
ms_std_fds(void)
{
	/*
	 * A descriptor 0, 1 or 2 that is closed would be handed out by the
	 * next open: the -o temporary would then take what stderr writes.
	 * Open /dev/null there first, as coreutils and OpenBSD do, in the
	 * wrong direction: reading standard input or writing standard output
	 * still fails with EBADF, as it did when closed, and is reported.
	 */
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
			int n = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);

			if (n == -1)
				abort();	/* nowhere even to say so */
			if (fd == 0)
				ms_stdin_was_closed = true;
			if (n != fd)
				close(n);	/* a lower one was closed too */
		}
}

/*
 * The one loop behind ms_write_full and ms_read_full: n bytes between p
 * and fd (written, or read at off unless off is -1), again after EINTR
 * and short transfers.  The bytes moved, fewer than n only where a read
 * met the end of the file or a write wrote nothing (errno EIO then), or
 * -1 with errno.  A write only reads p.
 */
static ssize_t
transfer(int fd, char *p, size_t n, off_t off, bool writing)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = writing ? write(fd, p + done, n - done) :
		    off == -1 ? read(fd, p + done, n - done) :
		    pread(fd, p + done, n - done, off + (off_t)done);

		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1)
			return -1;
		if (r == 0) {
			errno = EIO;
			break;
		}
		done += (size_t)r;
	}
	return (ssize_t)done;
}

int
ms_write_full(int fd, const void *p, size_t n)
{
	return transfer(fd, (char *)p, n, -1, true) == (ssize_t)n ? 0 : -1;
}

ssize_t
ms_read_full(int fd, void *p, size_t n, off_t off)
{
	return transfer(fd, p, n, off, false);
}

static bool write_error_said;

void
ms_write_error(void)
{
	int err = errno;

	write_error_said = true;
	ms_outcome_note(MS_OUTCOME_RETRY);
	/*
	 * The tools say what coreutils 9.1 says: "NAME: write error", with
	 * the cause only for a closed descriptor.
	 */
	if ((strcmp(ms_program, "multisum") == 0 || err == EBADF) && err != 0)
		ms_warn("write error: %s", strerror(err));
	else
		ms_warn("write error");
}

static void
close_stdout(void)
{
	if (fclose(stdout) == EOF || write_error_said) {
		if (!write_error_said)
			ms_write_error();
		ms_outcome_note(MS_OUTCOME_RETRY);
		_exit(ms_outcome_status(MS_EXIT_FAIL));
	}
}

void
ms_close_stdout_at_exit(void)
{
	atexit(close_stdout);
}

static const char b32[] = "abcdefghijklmnopqrstuvwxyz234567";

void
ms_base32(char *out, const unsigned char *p, size_t n)
{
	uint32_t acc = 0;
	int bits = 0;

	for (size_t i = 0; i < n; i++) {
		acc = acc << 8 | p[i];
		bits += 8;
		while (bits >= 5) {
			bits -= 5;
			*out++ = b32[acc >> bits & 31];
		}
	}
	if (bits > 0)
		*out++ = b32[acc << (5 - bits) & 31];
	*out = '\0';
}

int
ms_unbase32(unsigned char *out, size_t n, const char *s, size_t len)
{
	uint32_t acc = 0;
	int bits = 0;
	size_t o = 0;

	if (len != (8 * n + 4) / 5)
		return -1;
	for (size_t i = 0; i < len; i++) {
		int c = (unsigned char)s[i], v;

		if (c >= 'a' && c <= 'z')
			v = c - 'a';
		else if (c >= 'A' && c <= 'Z')
			v = c - 'A';
		else if (c >= '2' && c <= '7')
			v = c - '2' + 26;
		else
			return -1;
		acc = acc << 5 | (uint32_t)v;
		bits += 5;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (unsigned char)(acc >> bits);
		}
	}
	return (acc & ((1u << bits) - 1)) == 0 ? 0 : -1;
}

void
ms_signals_catch(const int *sig, size_t n, void (*fn)(int),
    struct sigaction *old)
{
	struct sigaction sa, was;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < n; i++)
		sigaddset(&sa.sa_mask, sig[i]);
	for (size_t i = 0; i < n; i++) {
		struct sigaction *o = old != NULL ? &old[i] : &was;

		if (sigaction(sig[i], NULL, o) == 0 && o->sa_handler == SIG_IGN)
			continue;
		sigaction(sig[i], &sa, NULL);
	}
}

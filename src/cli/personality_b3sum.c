/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * personality_b3sum.c - multisum run as b3sum: the command line, output,
 * messages and exit status of Debian's b3sum 1.2 (its clap-style usage
 * errors, "Error: ..." for fatal ones, "b3sum: NAME: ..." per file), for
 * hashing, --no-names, --raw, -l, --keyed, --derive-key, -c and --quiet.
 *
 * Owns that wording and nothing else: bytes come through source.c and
 * digests from blake3.c.  Names print as b3sum prints them (invalid
 * UTF-8 as U+FFFD, then \\ and \n escaped behind a leading backslash).
 */
#include "cli/personality_b3sum.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels/blake3.h"
#include "io/source.h"
#include "base/util.h"

#define B3_EXIT_FAIL	1

static const char help_text[] =
"b3sum 1.2.0\n"
"\n"
"USAGE:\n"
"    b3sum [FLAGS] [OPTIONS] [FILE]...\n"
"\n"
"FLAGS:\n"
"    -c, --check       Reads BLAKE3 sums from the [file]s and checks them\n"
"    -h, --help        Prints help information\n"
"        --keyed       Uses the keyed mode. The secret key is read from standard\n"
"                      input, and it must be exactly 32 raw bytes.\n"
"        --no-mmap     Disables memory mapping. Currently this also disables\n"
"                      multithreading.\n"
"        --no-names    Omits filenames in the output\n"
"        --quiet       Skips printing OK for each successfully verified file.\n"
"                      Must be used with --check.\n"
"        --raw         Writes raw output bytes to stdout, rather than hex.\n"
"                      --no-names is implied. In this case, only a single\n"
"                      input is allowed.\n"
"    -V, --version     Prints version information\n"
"\n"
"OPTIONS:\n"
"        --derive-key <CONTEXT>    Uses the key derivation mode, with the given\n"
"                                  context string. Cannot be used with --keyed.\n"
"    -l, --length <LEN>            The number of output bytes, prior to hex\n"
"                                  encoding (default 32)\n"
"        --num-threads <NUM>       The maximum number of threads to use. By\n"
"                                  default, this is the number of logical cores.\n"
"                                  If this flag is omitted, or if its value is 0,\n"
"                                  RAYON_NUM_THREADS is also respected.\n"
"\n"
"ARGS:\n"
"    <FILE>...    Files to hash, or checkfiles to check. When no file is given,\n"
"                 or when - is given, read standard input.\n"
;

struct b3opts {
	bool		 check, keyed, no_names, raw, quiet;
	const char	*context;	/* --derive-key */
	const char	*length;	/* -l, parsed per file as b3sum does */
	uint8_t		 key[MS_BLAKE3_KEY_LEN];
};

enum { O_KEYED = 256, O_DERIVE, O_NO_NAMES, O_RAW, O_QUIET, O_THREADS,
	O_NO_MMAP };

static const struct option b3_options[] = {
	{ .name = "check", .has_arg = no_argument, .val = 'c' },
	{ .name = "help", .has_arg = no_argument, .val = 'h' },
	{ .name = "version", .has_arg = no_argument, .val = 'V' },
	{ .name = "length", .has_arg = required_argument, .val = 'l' },
	{ .name = "keyed", .has_arg = no_argument, .val = O_KEYED },
	{ .name = "derive-key", .has_arg = required_argument, .val = O_DERIVE },
	{ .name = "no-names", .has_arg = no_argument, .val = O_NO_NAMES },
	{ .name = "raw", .has_arg = no_argument, .val = O_RAW },
	{ .name = "quiet", .has_arg = no_argument, .val = O_QUIET },
	{ .name = "num-threads", .has_arg = required_argument, .val = O_THREADS },
	{ .name = "no-mmap", .has_arg = no_argument, .val = O_NO_MMAP },
	{ NULL, 0, NULL, 0 },
};

/* clap's usage error: the message, a usage line, the help hint; exit 1. */
static _Noreturn void
clap_error(const char *msg, const char *usage)
{
	fprintf(stderr, "error: %s\n\nUSAGE:\n    b3sum %s\n\n"
	    "For more information try --help\n", msg, usage);
	exit(B3_EXIT_FAIL);
}

/* A fatal error as b3sum's main returns it. */
static _Noreturn void
fatal(const char *msg)
{
	fprintf(stderr, "Error: %s\n", msg);
	exit(B3_EXIT_FAIL);
}

/* Rust's io::Error text. */
static const char *
os_error(int err)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s (os error %d)", strerror(err), err);
	return buf;
}

/* Two arguments that clap refuses together; usage lists what was given. */
static void
conflicts(const struct b3opts *o, bool length_given)
{
	static const struct { const char *a, *b; } pairs[] = {
		{ "--keyed", "--derive-key <CONTEXT>" },
		{ "--keyed", "--check" },
		{ "--derive-key <CONTEXT>", "--check" },
		{ "--raw", "--check" },
		{ "--no-names", "--check" },
		{ "--length <LEN>", "--check" },
	};
	bool given[] = {
		o->keyed && o->context, o->keyed && o->check,
		o->context && o->check, o->raw && o->check,
		o->no_names && o->check, length_given && o->check,
	};

	for (size_t i = 0; i < MS_ARRAY_LEN(pairs); i++) {
		char msg[128], usage[256];

		if (!given[i])
			continue;
		snprintf(msg, sizeof(msg), "The argument '%s' cannot be used "
		    "with '%s'", pairs[i].a, pairs[i].b);
		snprintf(usage, sizeof(usage), "%s%s%s%s%s%s%s",
		    o->keyed ? "<FILE>... " : "",
		    o->check ? "--check " : "",
		    o->context ? "--derive-key <CONTEXT> " : "",
		    o->keyed ? "--keyed " : "",
		    length_given ? "--length <LEN> " : "",
		    o->no_names ? "--no-names " : "",
		    o->raw ? "--raw " : "");
		usage[strlen(usage) - 1] = '\0';
		clap_error(msg, usage);
	}
	if (o->quiet && !o->check)
		clap_error("The following required arguments were not provided:\n"
		    "    --check", "--check --quiet");
}

static void
parse(struct b3opts *o, int argc, char **argv)
{
	bool length_given = false;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":chVl:", b3_options, NULL)) != -1) {
		switch (c) {
		case 'c': o->check = true; break;
		case 'h': fputs(help_text, stdout); exit(0);
		case 'V': puts("b3sum 1.2.0"); exit(0);
		case 'l': o->length = optarg; length_given = true; break;
		case O_KEYED: o->keyed = true; break;
		case O_DERIVE: o->context = optarg; break;
		case O_NO_NAMES: o->no_names = true; break;
		case O_RAW: o->raw = true; break;
		case O_QUIET: o->quiet = true; break;
		case O_THREADS: case O_NO_MMAP: break;	/* same output */
		case ':': {
			char msg[128];
			const char *which = optopt == 'l' ||
			    strncmp(argv[optind - 1], "--l", 3) == 0 ?
			    "--length <LEN>" : "--derive-key <CONTEXT>";

			if (optopt == 0 && strncmp(argv[optind - 1], "--n", 3) == 0)
				which = "--num-threads <NUM>";
			snprintf(msg, sizeof(msg), "The argument '%s' requires a "
			    "value but none was supplied", which);
			clap_error(msg, which);
		}
		default: {
			char msg[512], arg[3] = { '-', (char)optopt, '\0' };

			snprintf(msg, sizeof(msg), "Found argument '%s' which wasn't "
			    "expected, or isn't valid in this context",
			    optopt != 0 ? arg : argv[optind - 1]);
			clap_error(msg, "[FLAGS] [OPTIONS] [FILE]...");
		}
		}
	}
	conflicts(o, length_given);
}

/* b3sum reads the key before any input: exactly 32 bytes. */
static void
read_key(struct b3opts *o)
{
	uint8_t buf[MS_BLAKE3_KEY_LEN + 1];
	size_t got = 0;

	while (got < sizeof(buf)) {
		ssize_t n = read(STDIN_FILENO, buf + got, sizeof(buf) - got);

		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			fatal(os_error(errno));
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got > MS_BLAKE3_KEY_LEN)
		fatal("read more than 32 key bytes from stdin");
	if (got < MS_BLAKE3_KEY_LEN) {
		char msg[64];

		snprintf(msg, sizeof(msg), "expected 32 key bytes from stdin, "
		    "found %zu", got);
		fatal(msg);
	}
	memcpy(o->key, buf, sizeof(o->key));
}

static void
feed(void *arg, const void *p, size_t n)
{
	ms_blake3_update(arg, p, n);
}

/* Hash path into h; -1 with errno (EINVAL for "-" in keyed mode). */
static int
hash_path(const struct b3opts *o, const char *path, struct ms_blake3 *h)
{
	static unsigned char buf[256 * 1024];
	struct ms_source src;
	struct ms_chunk ch;
	int rc, err = 0;

	if (o->keyed)
		ms_blake3_init_keyed(h, o->key);
	else if (o->context)
		ms_blake3_init_derive_key(h, o->context, strlen(o->context));
	else
		ms_blake3_init(h);
	if (ms_source_open(&src, path, MS_IO_AUTO) == -1)
		return -1;
	while ((rc = ms_source_next(&src, &ch, buf, sizeof(buf))) == 1) {
		if (ms_chunk_feed(&ch, feed, h) == -1)
			err = errno;
		ms_chunk_release(&ch);
		if (err != 0)
			break;
	}
	if (rc == -1)
		err = errno;
	ms_source_close(&src);
	errno = err;
	return err ? -1 : 0;
}

/* Append c as UTF-8. */
static size_t
put_utf8(char *out, unsigned c)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xC0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	out[0] = (char)(0xE0 | c >> 12);
	out[1] = (char)(0x80 | (c >> 6 & 0x3F));
	out[2] = (char)(0x80 | (c & 0x3F));
	return 3;
}

/*
 * Rust's UTF-8 decoding: each maximal invalid subsequence of p becomes
 * one U+FFFD (*replaced says whether any did); with escape, \\ and \n
 * become two-character escapes (*escaped says whether any did).  out
 * holds 3 * n + 1 bytes; returns its length.
 */
static size_t
lossy(const unsigned char *p, size_t n, char *out, bool escape,
    bool *replaced, bool *escaped)
{
	char *q = out;

	*replaced = *escaped = false;
	for (size_t i = 0; i < n;) {
		unsigned char b = p[i];
		size_t need = b >= 0xF0 && b <= 0xF4 ? 4 : b >= 0xE0 && b < 0xF0 ?
		    3 : b >= 0xC2 && b < 0xE0 ? 2 : 0;
		unsigned char lo = b == 0xE0 ? 0xA0 : b == 0xF0 ? 0x90 : 0x80;
		unsigned char hi = b == 0xED ? 0x9F : b == 0xF4 ? 0x8F : 0xBF;
		size_t k = 1;

		if (b < 0x80) {
			if (escape && (b == '\\' || b == '\n')) {
				*q++ = '\\';
				*q++ = b == '\n' ? 'n' : '\\';
				*escaped = true;
			} else
				*q++ = (char)b;
			i++;
			continue;
		}
		for (; k < need && i + k < n; k++)
			if (p[i + k] < (k == 1 ? lo : 0x80) ||
			    p[i + k] > (k == 1 ? hi : 0xBF))
				break;
		if (need != 0 && k == need) {
			memcpy(q, p + i, need);
			q += need;
		} else {
			q += put_utf8(q, 0xFFFD);
			*replaced = true;
		}
		i += k;
	}
	*q = '\0';
	return (size_t)(q - out);
}

/* A name as b3sum prints it (malloc'd); *escaped if it needs the "\\". */
static char *
display_name(const char *s, bool *escaped)
{
	size_t n = strlen(s);
	char *out = ms_xmalloc(3 * n + 1);
	bool replaced;

	lossy((const unsigned char *)s, n, out, true, &replaced, escaped);
	return out;
}

/* Parse -l as b3sum does, when a file is hashed; -1 if invalid. */
static int
out_len(const struct b3opts *o, size_t *len)
{
	char *end;
	unsigned long long v;

	*len = MS_BLAKE3_OUT_LEN;
	if (o->length == NULL)
		return 0;
	errno = 0;
	v = strtoull(o->length, &end, 10);
	if (*o->length < '0' || *o->length > '9' || *end != '\0' ||
	    errno != 0 || v > SIZE_MAX)
		return -1;
	*len = (size_t)v;
	return 0;
}

static int
hash_one(const struct b3opts *o, const char *path)
{
	struct ms_blake3 h;
	size_t len;
	uint8_t *out;
	bool escaped;
	char *name;

	if (o->keyed && strcmp(path, "-") == 0) {
		fprintf(stderr, "b3sum: %s: Cannot open `-` in keyed mode\n", path);
		return -1;
	}
	if (hash_path(o, path, &h) == -1) {
		name = display_name(path, &escaped);
		fprintf(stderr, "b3sum: %s: %s\n", name, os_error(errno));
		free(name);
		return -1;
	}
	if (out_len(o, &len) == -1) {
		name = display_name(path, &escaped);
		fprintf(stderr, "b3sum: %s: Failed to parse length.\n", name);
		free(name);
		return -1;
	}
	out = ms_xmalloc(len + 1);
	ms_blake3_final(&h, out, len);
	if (o->raw) {
		fwrite(out, 1, len, stdout);
		free(out);
		return 0;
	}
	name = display_name(path, &escaped);
	if (!o->no_names && escaped)
		putchar('\\');
	for (size_t i = 0; i < len; i++)
		printf("%02x", out[i]);
	if (o->no_names)
		putchar('\n');
	else
		printf("  %s\n", name);
	free(name);
	free(out);
	return 0;
}

static int
hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
	    c - 'a' + 10 : -1;
}

static bool
valid_utf8(const char *s, size_t n)
{
	char *out = ms_xmalloc(3 * n + 1);
	bool replaced, escaped;

	lossy((const unsigned char *)s, n, out, false, &replaced, &escaped);
	free(out);
	return !replaced;
}

/* One manifest line (newline stripped): false if it did not verify. */
static bool
check_line(const struct b3opts *o, char *line)
{
	uint8_t want[MS_BLAKE3_OUT_LEN], got[MS_BLAKE3_OUT_LEN];
	const char *why = NULL;
	char *name, *w;
	struct ms_blake3 h;
	bool escaped = false;

	if (*line == '\0')
		why = "Empty line";
	else {
		if (*line == '\\') {
			escaped = true;
			line++;
		}
		if (strlen(line) <= 66)
			why = "Short line";
		for (int i = 0; why == NULL && i < 66; i++)
			if ((unsigned char)line[i] >= 0x80)
				why = "Non-ASCII prefix";
		if (why == NULL && (line[64] != ' ' || line[65] != ' '))
			why = "Invalid space";
		for (int i = 0; why == NULL && i < 32; i++) {
			int a = hexval(line[2 * i]), b = hexval(line[2 * i + 1]);

			if (a < 0 || b < 0)
				why = "Invalid hex";
			else
				want[i] = (uint8_t)(a << 4 | b);
		}
	}
	if (why != NULL) {
		fprintf(stderr, "b3sum: %s\n", why);
		return false;
	}
	/* Printed as written, the backslash in front included. */
	const char *pre = escaped ? "\\" : "", *shown = line + 66;

	name = w = ms_xstrdup(line + 66);
	if (escaped) {
		for (const char *r = line + 66; *r != '\0'; r++) {
			if (*r != '\\') {
				*w++ = *r;
				continue;
			}
			if (r[1] == 'n')
				*w++ = '\n';
			else if (r[1] == '\\')
				*w++ = '\\';
			else {
				why = "Invalid backslash escape";
				break;
			}
			r++;
		}
		*w = '\0';
	}
	if (why == NULL && strstr(name, "\xEF\xBF\xBD") != NULL)
		why = "Unicode replacement character in path";
	if (why != NULL) {
		fprintf(stderr, "b3sum: %s\n", why);
		free(name);
		return false;
	}
	if (hash_path(o, name, &h) == -1) {
		printf("%s%s: FAILED (%s)\n", pre, shown, os_error(errno));
		free(name);
		return false;
	}
	free(name);
	ms_blake3_final(&h, got, sizeof(got));
	if (memcmp(want, got, sizeof(got)) != 0) {
		printf("%s%s: FAILED\n", pre, shown);
		return false;
	}
	if (!o->quiet)
		printf("%s%s: OK\n", pre, shown);
	return true;
}

/* Every line of one manifest; a manifest that cannot be read is fatal. */
static unsigned long
check_file(const struct b3opts *o, const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	unsigned long failed = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (f == NULL)
		fatal(os_error(errno));
	while ((n = getline(&line, &cap, f)) != -1) {
		if (!valid_utf8(line, (size_t)n))
			fatal("stream did not contain valid UTF-8");
		while (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		if (!check_line(o, line))
			failed++;
		fflush(stdout);
	}
	if (ferror(f))
		fatal(os_error(errno));
	free(line);
	if (f != stdin)
		fclose(f);
	return failed;
}

int
ms_b3sum_main(int argc, char **argv)
{
	static char dash[] = "-";
	static char *stdin_only[] = { dash, NULL };
	struct b3opts o = { 0 };
	char **files;
	size_t nfiles;
	unsigned long failed = 0;
	const char *why;

	ms_program = "b3sum";
	parse(&o, argc, argv);
	files = argv + optind;
	nfiles = (size_t)(argc - optind);
	if (nfiles == 0) {
		files = stdin_only;
		nfiles = 1;
	}
	if (o.raw && nfiles > 1)
		fatal("Only one filename can be provided when using --raw");
	if (ms_blake3_simd_setup(&why) == -1) {
		fprintf(stderr, "b3sum: %s\n", why);
		return 2;
	}
	if (o.keyed)
		read_key(&o);
	for (size_t i = 0; i < nfiles; i++) {
		if (o.check)
			failed += check_file(&o, files[i]);
		else if (hash_one(&o, files[i]) == -1)
			failed++;
		fflush(stdout);
	}
	if (fflush(stdout) == EOF || ferror(stdout))
		fatal(os_error(errno ? errno : EIO));
	return failed > 0 ? B3_EXIT_FAIL : 0;
}

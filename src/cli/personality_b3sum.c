/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * personality_b3sum.c - multisum run as b3sum: the command line, help and
 * fatal errors of Debian's b3sum 1.2 (its clap-style usage errors, "Error:
 * ..." for fatal ones), and the styles in which hash.c and check.c then
 * write and read as it does: names with invalid UTF-8 as U+FFFD and \\ and
 * \n escaped, --no-names, --raw, "b3sum: NAME: CAUSE (os error N)", and
 * manifest_b3sum.c's rules and reasons for -c.
 *
 * Owns that command line and nothing else: files go through the engine,
 * with its threads (--num-threads) and its I/O (--no-mmap: read).
 */
#include "cli/personality_b3sum.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels/blake3.h"
#include "modes/check.h"
#include "modes/hash.h"
#include "modes/options.h"
#include "base/rust_text.h"
#include "base/util.h"

#define B3_EXIT_FAIL	1
#define B3_THREADS_MAX	1024	/* as multisum -j */
/* The longest -l a digest spec holds (its bits are an unsigned). */
#define B3_OUT_MAX	(UINT_MAX / 8)
#define B3_OUT_MAX_TEXT	"536870911"
_Static_assert(B3_OUT_MAX == 536870911u, "B3_OUT_MAX_TEXT is B3_OUT_MAX");
/* Longer digests are made one file at a time: each task in flight holds
 * its digest whole. */
#define B3_LONG_OUT	(64u << 10)

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

/* What clap's usage line lists once given, in its order. */
enum {
	U_FILES, U_CHECK, U_DERIVE, U_KEYED, U_LENGTH, U_NO_MMAP, U_NO_NAMES,
	U_THREADS, U_QUIET, U_RAW, U_COUNT
};

static const char *const usage_words[U_COUNT] = {
	[U_FILES] = "<FILE>...", [U_CHECK] = "--check",
	[U_DERIVE] = "--derive-key <CONTEXT>", [U_KEYED] = "--keyed",
	[U_LENGTH] = "--length <LEN>", [U_NO_MMAP] = "--no-mmap",
	[U_NO_NAMES] = "--no-names", [U_THREADS] = "--num-threads <NUM>",
	[U_QUIET] = "--quiet", [U_RAW] = "--raw",
};

struct b3opts {
	bool		 check, keyed, no_names, raw, quiet, no_mmap;
	const char	*context;	/* --derive-key */
	const char	*length;	/* -l, parsed per file as b3sum does */
	const char	*threads;	/* --num-threads */
	unsigned	 seen;		/* 1 << U_*: the usage line's words */
	int		 empty;		/* U_* of an option left without value, or -1 */
	uint8_t		 key[MS_BLAKE3_KEY_LEN];
};

/* A long option's val: 256 + its U_* row; -c and -l their letters. */
#define LONG_ONLY(u)	(256 + (u))

static const struct option b3_options[] = {
	{ .name = "check", .has_arg = no_argument, .val = 'c' },
	{ .name = "help", .has_arg = no_argument, .val = 'h' },
	{ .name = "version", .has_arg = no_argument, .val = 'V' },
	{ .name = "length", .has_arg = required_argument, .val = 'l' },
	{ .name = "keyed", .has_arg = no_argument, .val = LONG_ONLY(U_KEYED) },
	{ .name = "derive-key", .has_arg = required_argument,
	  .val = LONG_ONLY(U_DERIVE) },
	{ .name = "no-names", .has_arg = no_argument, .val = LONG_ONLY(U_NO_NAMES) },
	{ .name = "raw", .has_arg = no_argument, .val = LONG_ONLY(U_RAW) },
	{ .name = "quiet", .has_arg = no_argument, .val = LONG_ONLY(U_QUIET) },
	{ .name = "num-threads", .has_arg = required_argument,
	  .val = LONG_ONLY(U_THREADS) },
	{ .name = "no-mmap", .has_arg = no_argument, .val = LONG_ONLY(U_NO_MMAP) },
	{ NULL, 0, NULL, 0 },
};

static int
row_of(int val)
{
	return val == 'c' ? U_CHECK : val == 'l' ? U_LENGTH : val - 256;
}

/*
 * clap's usage error: the message, the usage line (the arguments given
 * so far, or the synopsis if none), the help hint; exit 1.
 */
static _Noreturn __attribute__((format(printf, 2, 3))) void
clap_error(const struct b3opts *o, const char *fmt, ...)
{
	va_list ap;

	fputs("error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n\nUSAGE:\n    b3sum", stderr);
	for (int u = 0; u < U_COUNT; u++)
		if (o->seen & 1u << u)
			fprintf(stderr, " %s", usage_words[u]);
	if (o->seen == 0)
		fputs(" [FLAGS] [OPTIONS] [FILE]...", stderr);
	fputs("\n\nFor more information try --help\n", stderr);
	exit(B3_EXIT_FAIL);
}

/* A fatal error as b3sum's main returns it. */
static _Noreturn __attribute__((format(printf, 1, 2))) void
fatal(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("Error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	putc('\n', stderr);
	exit(B3_EXIT_FAIL);
}

static _Noreturn void
unexpected(const struct b3opts *o, const char *arg)
{
	clap_error(o, "Found argument '%s' which wasn't expected, or isn't "
	    "valid in this context", arg);
}

/* Is arg one of b3sum's options, or "--"? */
static bool
is_option(const char *arg)
{
	size_t n = strcspn(arg, "=");

	if (arg[1] != '-')
		return arg[1] != '\0' && strchr("chVl", arg[1]) != NULL;
	if (arg[2] == '\0')
		return true;
	for (const struct option *p = b3_options; p->name != NULL; p++)
		if (strlen(p->name) == n - 2 && strncmp(p->name, arg + 2, n - 2) == 0)
			return true;
	return false;
}

/*
 * clap takes no value that looks like an option from the next argument
 * (N8d: "-l -1" is no length): an option it knows, or "--", leaves this
 * one without value, which is said once the line is read; anything else
 * is unexpected there.  Returns whether optarg is the value.
 */
static bool
value_given(struct b3opts *o, int row, char **argv)
{
	if (optarg != argv[optind - 1] || optarg[0] != '-' ||
	    strcmp(optarg, "-") == 0)
		return true;
	if (!is_option(optarg))
		unexpected(o, optarg);
	optind--;	/* parsed next, as the option it is */
	if (o->empty < 0)
		o->empty = row;
	return false;
}

/*
 * Two arguments that clap refuses together, then those it misses: --check
 * for --quiet, and a FILE for --keyed, whose key takes standard input
 * (nfiles: the operands left after the options).
 */
static void
conflicts(const struct b3opts *o, int nfiles)
{
	static const struct { int a, b; } pairs[] = {
		{ U_KEYED, U_DERIVE }, { U_KEYED, U_CHECK }, { U_DERIVE, U_CHECK },
		{ U_RAW, U_CHECK }, { U_NO_NAMES, U_CHECK }, { U_LENGTH, U_CHECK },
	};

	for (size_t i = 0; i < MS_ARRAY_LEN(pairs); i++) {
		int a = pairs[i].a, b = pairs[i].b;

		/* --quiet lists --check in the usage line, but is no --check */
		if ((o->seen & 1u << a) && (b == U_CHECK ? o->check :
		    (o->seen & 1u << b) != 0))
			clap_error(o, "The argument '%s' cannot be used with "
			    "'%s'", usage_words[a], usage_words[b]);
	}
	if (o->empty >= 0)
		clap_error(o, "The argument '%s' requires a value but none "
		    "was supplied", usage_words[o->empty]);
	if (o->quiet && !o->check)
		clap_error(o, "%s", "The following required arguments were "
		    "not provided:\n    --check");
	if (o->keyed && nfiles == 0)
		clap_error(o, "%s", "The following required arguments were "
		    "not provided:\n    <FILE>...");
}

/* What getopt hands back that is no option to keep: said, then exit. */
static void
answer(const struct b3opts *o, int c, char **argv)
{
	char arg[3] = { '-', (char)optopt, '\0' };

	switch (c) {
	case ':':
		clap_error(o, "The argument '%s' requires a value but none was "
		    "supplied", usage_words[row_of(optopt)]);
	case '?':
		unexpected(o, optopt > 0 && optopt < 256 ? arg : argv[optind - 1]);
	case 'h':
		fputs(help_text, stdout);
		exit(0);
	case 'V':
		puts("b3sum 1.2.0");
		exit(0);
	}
}

static void
parse(struct b3opts *o, int argc, char **argv)
{
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":chVl:", b3_options, NULL)) != -1) {
		/* clap lets a flag's "=VALUE" pass (getopt: optopt is its val) */
		if (c == '?' && (optopt >= 256 || (optopt != 0 &&
		    strchr("chV", optopt) != NULL)))
			c = optopt;
		if (c == ':')
			o->seen |= 1u << row_of(optopt);
		answer(o, c, argv);
		o->seen |= 1u << row_of(c);
		switch (row_of(c)) {
		case U_CHECK: o->check = true; break;
		case U_KEYED: o->keyed = true; o->seen |= 1u << U_FILES; break;
		case U_QUIET: o->quiet = true; o->seen |= 1u << U_CHECK; break;
		case U_NO_NAMES: o->no_names = true; break;
		case U_RAW: o->raw = true; break;
		case U_NO_MMAP: o->no_mmap = true; break;
		case U_LENGTH:
			if (value_given(o, U_LENGTH, argv))
				o->length = optarg;
			break;
		case U_DERIVE:
			if (value_given(o, U_DERIVE, argv))
				o->context = optarg;
			break;
		case U_THREADS:
			if (value_given(o, U_THREADS, argv))
				o->threads = optarg;
			break;
		default:
			ms_bug("b3sum option");
		}
	}
	conflicts(o, argc - optind);
}

/* b3sum reads the key before any input: exactly 32 bytes. */
static void
read_key(struct b3opts *o)
{
	uint8_t buf[MS_BLAKE3_KEY_LEN + 1];
	ssize_t got = ms_read_full(STDIN_FILENO, buf, sizeof(buf), -1);

	if (got == -1)
		fatal("%s", ms_rust_os_error(errno));
	if (got > MS_BLAKE3_KEY_LEN)
		fatal("read more than 32 key bytes from stdin");
	if (got < MS_BLAKE3_KEY_LEN)
		fatal("expected 32 key bytes from stdin, found %zd", got);
	memcpy(o->key, buf, sizeof(o->key));
}

/* --num-threads, else RAYON_NUM_THREADS as rayon reads it: the jobs. */
static void
threads(const struct b3opts *o, struct ms_engine_config *cfg)
{
	const char *env = getenv("RAYON_NUM_THREADS"), *why;
	uint64_t n = 0;

	if (o->threads != NULL && ms_rust_parse_u64(o->threads, &n, &why) == -1)
		fatal("Failed to parse num threads.\n\nCaused by:\n    %s", why);
	if (n == 0 && env != NULL && ms_rust_parse_u64(env, &n, &why) == -1)
		n = 0;
	if (n > 0)
		cfg->jobs = n > B3_THREADS_MAX ? B3_THREADS_MAX : (unsigned)n;
}

static int
hash_files(const struct b3opts *b, struct ms_options *o,
    struct ms_digest_spec spec)
{
	struct ms_hash_style style = {
		.rust_words = true,
		.stdin_refusal = b->keyed ? "Cannot open `-` in keyed mode" : NULL,
	};
	uint64_t len = MS_BLAKE3_OUT_LEN;
	const char *why;

	/* b3sum 1.2 parses -l only once a file is hashed. */
	if (b->length != NULL && ms_rust_parse_u64(b->length, &len, &why) == -1)
		style.late_refusal = "Failed to parse length.";
	else if (len > B3_OUT_MAX)
		style.late_refusal = "Length too large for multisum (at most "
		    B3_OUT_MAX_TEXT " bytes).";
	if (style.late_refusal != NULL)
		len = MS_BLAKE3_OUT_LEN;
	if (len > B3_LONG_OUT)
		o->engine.jobs = 1;
	spec.bits = (unsigned)len * 8;
	ms_selection_add(&o->sel, &spec);
	o->fmt.format = MS_FORMAT_GNU;
	o->fmt.b3sum_names = true;
	o->fmt.no_names = b->no_names;
	o->fmt.raw = b->raw;
	return ms_hash_run(o, &style);
}

static int
check_files(const struct b3opts *b, struct ms_options *o,
    const struct ms_digest_spec *spec)
{
	const struct ms_check_style style = {
		.rules = { .dialect = MS_DIALECT_B3SUM, .tool = spec->algo },
		.names = MS_CHECK_NAMES_AS_WRITTEN,
		.rust_words = true,
		.inline_causes = true,
		.bare_reasons = true,
		.no_summary = true,
		.fatal_unreadable = true,
	};

	o->quiet = b->quiet;
	return ms_check_run(o, &style);
}

int
ms_b3sum_main(int argc, char **argv)
{
	static struct ms_options o;
	struct b3opts b = { .empty = -1 };
	struct ms_digest_spec spec = { .algo = ms_algo_named("blake3"),
	    .bits = MS_BLAKE3_OUT_LEN * 8 };

	ms_program = "b3sum";
	parse(&b, argc, argv);
	ms_engine_defaults(&o.engine);
	o.progress = 0;		/* b3sum has none */
	o.files = argv + optind;
	o.nfiles = (size_t)(argc - optind);
	if (b.raw && o.nfiles > 1)
		fatal("Only one filename can be provided when using --raw");
	if (ms_spec_load(&spec) == -1)
		return MS_EXIT_USAGE;
	/* the mode travels in the spec's parameters */
	if (b.keyed) {
		read_key(&b);
		spec.param.key_mode = MS_KEY_KEYED;
		spec.param.key_len = sizeof(b.key);
		memcpy(spec.param.key, b.key, sizeof(b.key));
	} else if (b.context != NULL) {
		spec.param.key_mode = MS_KEY_DERIVE;
		spec.param.context = b.context;
	}
	threads(&b, &o.engine);
	if (b.no_mmap)
		o.engine.io = MS_IO_READ;
	return b.check ? check_files(&b, &o, &spec) : hash_files(&b, &o, spec);
}

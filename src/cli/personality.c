/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * personality.c - md5sum, sha1sum, sha224sum, sha256sum, sha384sum,
 * sha512sum and b2sum, as GNU coreutils 9.1 ships them, and cksum as
 * 9.11 does (its -a crc32b, sha2, sha3, -l, --base64, --raw, -b, -t).
 *
 * Owns the tools' command lines (their options, their checks on option
 * combinations, their messages, in their order) and their quirks.  The
 * work itself is multisum's: the engine hashes, format.c writes the
 * lines and check.c verifies with manifest.c's coreutils rules.
 */
#include "cli/personality.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modes/check.h"
#include "modes/hash.h"
#include "modes/options.h"
#include "base/quote.h"
#include "io/source.h"
#include "kernels/crc.h"
#include "base/util.h"
#include "base/version.h"

#define B2_MAX_BITS	512

struct tool {
	const char	*name;
	const char	*algo;		/* NULL: cksum, whose -a decides */
	bool		 length;	/* takes -l */
};

static const struct tool tools[] = {
	{ .name = "md5sum", .algo = "md5", .length = false },
	{ .name = "sha1sum", .algo = "sha1", .length = false },
	{ .name = "sha224sum", .algo = "sha224", .length = false },
	{ .name = "sha256sum", .algo = "sha256", .length = false },
	{ .name = "sha384sum", .algo = "sha384", .length = false },
	{ .name = "sha512sum", .algo = "sha512", .length = false },
	{ .name = "b2sum", .algo = "blake2b", .length = true },
	{ .name = "cksum", .algo = NULL, .length = true },
};


enum {
	OPT_IGNORE_MISSING = 256, OPT_STATUS, OPT_QUIET, OPT_STRICT, OPT_TAG,
	OPT_UNTAGGED, OPT_DEBUG, OPT_HELP, OPT_VERSION, OPT_RAW, OPT_BASE64,
};

/* In the tools' order: getopt lists ambiguous matches in this order. */
static const struct option common_opts[] = {
	{ "check",		no_argument, NULL, 'c' },
	{ "ignore-missing",	no_argument, NULL, OPT_IGNORE_MISSING },
	{ "quiet",		no_argument, NULL, OPT_QUIET },
	{ "status",		no_argument, NULL, OPT_STATUS },
	{ "warn",		no_argument, NULL, 'w' },
	{ "strict",		no_argument, NULL, OPT_STRICT },
	{ "tag",		no_argument, NULL, OPT_TAG },
	{ "zero",		no_argument, NULL, 'z' },
};
static const struct option cksum_opts[] = {
	{ "algorithm",		required_argument, NULL, 'a' },
	{ "base64",		no_argument, NULL, OPT_BASE64 },
	{ "debug",		no_argument, NULL, OPT_DEBUG },
	{ "raw",		no_argument, NULL, OPT_RAW },
	{ "untagged",		no_argument, NULL, OPT_UNTAGGED },
};
static const struct option mode_opts[] = {
	{ "binary",		no_argument, NULL, 'b' },
	{ "text",		no_argument, NULL, 't' },
};
static const struct option tail_opts[] = {
	{ "help",		no_argument, NULL, OPT_HELP },
	{ "version",		no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* Everything the command line said, as coreutils keeps it. */
struct cu {
	const struct tool *tool;
	bool		 cksum;
	int		 algo;		/* cksum: index into ms_cksum_algos */
	bool		 algo_given;
	uintmax_t	 length;	/* -l, bits; 0 if not given */
	const char	*length_arg;	/* NULL if not given */
	bool		 base64, raw;	/* cksum */
	bool		 check, strict, ignore_missing;
	int		 says;		/* the last of --status, -w, --quiet */
	bool		 debug;
	int		 binary;	/* -1 unset, 0 text, 1 binary */
	int		 tag;		/* -1 unset */
	bool		 zero;
	struct option	 longopts[24];
};

/* coreutils' usage errors exit 1, after the hint. */
static _Noreturn void
try_help(void)
{
	ms_try_help();
	exit(EXIT_FAILURE);
}

static _Noreturn void
usage_error(const char *msg)
{
	ms_warn("%s", msg);
	try_help();
}

static _Noreturn void
help(const struct cu *c)
{
	printf("Usage: %s [OPTION]... [FILE]...\n"
	    "Print or check %s checksums, as GNU coreutils' %s does.\n"
	    "This is multisum %s; see 'multisum --help' for its own options.\n",
	    ms_program, c->tool->algo ? c->tool->algo : "CRC or other",
	    c->tool->name, PACKAGE_VERSION);
	if (c->cksum)	/* in 9.11's order, which its tests read */
		fputs("\nDIGEST, as -a names it (crc if not given):\n"
		    "  sysv      System V sum, 512-byte blocks (sum -s)\n"
		    "  bsd       BSD sum, 1 KiB blocks (sum -r)\n"
		    "  crc       POSIX cksum's CRC\n"
		    "  crc32b    the CRC-32 of zlib and gzip\n"
		    "  md5       MD5 (md5sum)\n"
		    "  sha1      SHA-1 (sha1sum)\n"
		    "  sha2      SHA-2 of -l 224, 256, 384 or 512 bits\n"
		    "            (also -a sha224 ... sha512)\n"
		    "  sha3      SHA-3 of -l 224, 256, 384 or 512 bits\n"
		    "  blake2b   BLAKE2b, -l up to 512 bits (b2sum)\n"
		    "  sm3       SM3\n", stdout);
	exit(EXIT_SUCCESS);
}

static void
build_longopts(struct cu *c)
{
	size_t n = 0;

	if (c->tool->length)
		c->longopts[n++] = (struct option){ "length", required_argument,
		    NULL, 'l' };
	for (size_t i = 0; i < MS_ARRAY_LEN(common_opts); i++)
		c->longopts[n++] = common_opts[i];
	if (c->cksum)
		for (size_t i = 0; i < MS_ARRAY_LEN(cksum_opts); i++)
			c->longopts[n++] = cksum_opts[i];
	for (size_t i = 0; i < MS_ARRAY_LEN(mode_opts); i++)
		c->longopts[n++] = mode_opts[i];
	for (size_t i = 0; i < MS_ARRAY_LEN(tail_opts); i++)
		c->longopts[n++] = tail_opts[i];
}

/* cksum -a: argmatch_exact, and its complaint listing the choices. */
static int
cksum_algo_arg(const char *arg)
{
	for (size_t i = 0; i < ms_cksum_algo_count; i++)
		if (strcmp(arg, ms_cksum_algos[i].arg) == 0)
			return (int)i;
	fflush(stdout);
	fprintf(stderr, "%s: invalid argument %s for %s\n", ms_program,
	    ms_quote(arg), ms_quote("--algorithm"));
	fputs("Valid arguments are:", stderr);
	for (size_t i = 0; i < ms_cksum_algo_count; i++)
		fprintf(stderr, "\n  - %s", ms_quote(ms_cksum_algos[i].arg));
	putc('\n', stderr);
	try_help();
}

/* b2sum's -l: coreutils 9.1's xdectoumax, base 10, no suffixes. */
static uintmax_t
length_arg(const char *arg)
{
	const char *p = arg;
	char *end;
	uintmax_t v;

	while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
		p++;
	errno = 0;
	v = *p == '-' ? 0 : strtoumax(arg, &end, 10);
	if (*p != '-' && errno == ERANGE && end != arg && *end == '\0') {
		ms_warn("invalid length: %s: %s", ms_quote(arg), strerror(EOVERFLOW));
		exit(EXIT_FAILURE);
	}
	if (*p == '-' || errno != 0 || end == arg || *end != '\0') {
		ms_warn("invalid length: %s", ms_quote(arg));
		exit(EXIT_FAILURE);
	}
	return v;
}

/*
 * cksum's -l: 9.11's xnumtoimax from 0 to IDX_MAX, base 10, no suffixes,
 * too large quietly the maximum; a negative number is out of range.
 */
static uintmax_t
length_arg_cksum(const char *arg)
{
	char *end;
	intmax_t v;

	errno = 0;
	v = strtoimax(arg, &end, 10);
	if (end == arg || *end != '\0') {
		ms_warn("invalid length: %s", ms_quote(arg));
		exit(EXIT_FAILURE);
	}
	if (v < 0) {
		ms_warn("invalid length: %s: %s", ms_quote(arg),
		    strerror(EOVERFLOW));
		exit(EXIT_FAILURE);
	}
	return (uintmax_t)v;
}

/* The options that only turn a flag of struct cu on: true if opt is
 * one (its flag then set). */
static bool
flag_option(struct cu *c, int opt)
{
	const struct { int opt; bool *flag; } flags[] = {
		{ 'c', &c->check }, { 'z', &c->zero },
		{ OPT_IGNORE_MISSING, &c->ignore_missing },
		{ OPT_STRICT, &c->strict }, { OPT_BASE64, &c->base64 },
		{ OPT_RAW, &c->raw }, { OPT_DEBUG, &c->debug },
	};

	for (size_t i = 0; i < MS_ARRAY_LEN(flags); i++)
		if (flags[i].opt == opt) {
			*flags[i].flag = true;
			return true;
		}
	return false;
}

static void
parse(struct cu *c, int argc, char **argv)
{
	const char *shortopts = c->cksum ? "a:l:bctwz" :
	    c->tool->length ? "l:bctwz" : "bctwz";
	int opt;

	build_longopts(c);
	opterr = 1;
	while ((opt = getopt_long(argc, argv, shortopts, c->longopts, NULL)) != -1) {
		if (flag_option(c, opt))
			continue;
		switch (opt) {
		case 'a':
			c->algo = cksum_algo_arg(optarg);
			c->algo_given = true;
			break;
		case 'l':
			c->length_arg = optarg;
			if (c->cksum) {		/* 9.11: checked after all */
				c->length = length_arg_cksum(optarg);
				break;
			}
			/* 9.1 checks the multiple of 8 at once, the maximum
			 * only after every option. */
			c->length = length_arg(optarg);
			if (c->length % 8 != 0) {
				ms_warn("invalid length: %s", ms_quote(optarg));
				ms_warn("length is not a multiple of 8");
				exit(EXIT_FAILURE);
			}
			break;
		case OPT_STATUS:
		case 'w':
		case OPT_QUIET:		/* each cancels the other two */
			c->says = opt;
			break;
		case 'b':
		case 't':
			c->binary = opt == 'b';
			break;
		case OPT_UNTAGGED:
			c->tag = 0;
			break;
		case OPT_TAG:
			c->tag = 1;
			if (!c->cksum)
				c->binary = 1;
			break;
		case OPT_HELP:
			help(c);
		case OPT_VERSION:
			ms_print_version(ms_xasprintf("%s (multisum)",
			    c->tool->name));
			exit(EXIT_SUCCESS);
		default:
			try_help();
		}
	}
}

/* The checking options without -c, in coreutils' order. */
static void
checking_without_check(const struct cu *c)
{
	const struct { bool given; const char *name; } checking[] = {
		{ c->ignore_missing, "ignore-missing" },
		{ c->says == OPT_STATUS, "status" }, { c->says == 'w', "warn" },
		{ c->says == OPT_QUIET, "quiet" }, { c->strict, "strict" },
	};

	for (size_t i = 0; i < MS_ARRAY_LEN(checking) && !c->check; i++)
		if (checking[i].given) {
			ms_warn("the --%s option is meaningful only when "
			    "verifying checksums", checking[i].name);
			try_help();
		}
}

/* The output options -c refuses, then the checking options without -c,
 * in coreutils' order (9.1's and 9.11's alike). */
static void
check_conflicts(const struct cu *c)
{
	if (c->zero && c->check)
		usage_error("the --zero option is not supported when verifying "
		    "checksums");
	if (c->tag == 1 && c->check)
		usage_error("the --tag option is meaningless when verifying "
		    "checksums");
	if (c->binary >= 0 && c->check)
		usage_error("the --binary and --text options are meaningless "
		    "when verifying checksums");
	checking_without_check(c);
}

static _Noreturn void
bad_length(const struct cu *c, const char *why)
{
	ms_warn("invalid length: %s", ms_quote(c->length_arg));
	ms_warn("%s", why);
	exit(EXIT_FAILURE);
}

/* cksum 9.11's checks of -l, once the options are read, in its order. */
static void
cksum_length(const struct cu *c)
{
	const struct ms_cksum_algo *a = &ms_cksum_algos[c->algo];
	const uintmax_t l = c->length;
	char why[80];

	if (l != 0 && a->family == NULL && strcmp(a->arg, "blake2b") != 0) {
		ms_warn("--length is only supported with --algorithm "
		    "blake2b, sha2, or sha3");
		exit(EXIT_FAILURE);
	}
	if (a->family != NULL) {
		if (c->length_arg == NULL && !c->check) {
			ms_warn("--algorithm=%s requires specifying --length "
			    "224, 256, 384, or 512", a->arg);
			exit(EXIT_FAILURE);
		}
		if (c->length_arg != NULL && l != 224 && l != 256 &&
		    l != 384 && l != 512) {
			snprintf(why, sizeof(why), "digest length for %s must "
			    "be 224, 256, 384, or 512", ms_quote(a->tag));
			bad_length(c, why);
		}
		return;
	}
	if (l > B2_MAX_BITS) {
		snprintf(why, sizeof(why), "maximum digest length for %s is "
		    "%d bits", ms_quote(a->tag), B2_MAX_BITS);
		bad_length(c, why);
	}
	if (l % 8 != 0)
		bad_length(c, "length is not a multiple of 8");
}

/* The checks cksum 9.11 makes once the options are read, in its order. */
static void
validate_cksum(struct cu *c, size_t nfiles)
{
	cksum_length(c);
	if (c->check && c->algo_given && ms_cksum_algos[c->algo].sum) {
		ms_warn("--check is not supported with "
		    "--algorithm={bsd,sysv,crc,crc32b}");
		exit(EXIT_FAILURE);
	}
	if (c->base64 && c->raw)
		usage_error("--base64 and --raw are mutually exclusive");
	check_conflicts(c);
	if (c->tag == -1)
		c->tag = 1;
	if (c->tag && c->binary == 0)
		usage_error("--text mode is only supported with --untagged");
	if (c->binary < 0)
		c->binary = 0;
	if (c->raw && nfiles > 1) {
		ms_warn("the --raw option is not supported with multiple "
		    "files");
		exit(EXIT_FAILURE);
	}
}

/* The checks coreutils 9.1 makes once the options are read, in its
 * order. */
static void
validate(struct cu *c)
{
	if (c->length > B2_MAX_BITS) {
		ms_warn("invalid length: %s", ms_quote(c->length_arg));
		ms_warn("maximum digest length for %s is %d bits",
		    ms_quote("BLAKE2b"), B2_MAX_BITS);
		exit(EXIT_FAILURE);
	}
	if (c->tag == -1)
		c->tag = 0;
	if (c->tag && c->binary == 0)
		usage_error("--tag does not support --text mode");
	check_conflicts(c);
}

/* The digest the run computes: for cksum -a sha2, sha3 or blake2b, of
 * -l's length (0: the default). */
static struct ms_digest_spec
tool_spec(const struct cu *c)
{
	const struct ms_cksum_algo *a = c->cksum ? &ms_cksum_algos[c->algo] :
	    NULL;
	const char *why, *name = a != NULL ? a->algo : c->tool->algo;
	struct ms_digest_spec s;

	if (a != NULL && a->family != NULL && c->length != 0)
		name = a->family;
	if (ms_algo_resolve(name, (unsigned)c->length, &s, &why) == -1)
		ms_bug("personality algorithm");
	return s;
}

/*
 * cksum --debug's lines naming the CRC implementation, for the code
 * kernels/crc.c really runs, in coreutils 9.11's words: for crc, its
 * trials of AVX-512, AVX2 and PCLMUL, each up to the one it uses; for
 * crc32b, whether it uses PCLMUL.
 */
static const char *
crc_debug(const struct cu *c, const struct ms_digest_spec *spec)
{
	const char *v = ms_spec_variant(spec);
	bool vpclmul = v != NULL && strcmp(v, "vpclmul") == 0;
	bool pclmul = v != NULL && strcmp(v, "pclmul") == 0;

	if (!c->debug || strcmp(spec->algo->name, "cksum") != 0) {
		if (!c->debug || strcmp(spec->algo->name, "crc32") != 0)
			return NULL;
		return pclmul || vpclmul ? "using pclmul hardware support" :
		    "pclmul support not detected";
	}
	return vpclmul ? "using avx512 hardware support" :
	    pclmul ? "avx512 support not detected\n"
	    "avx2 support not detected\n"
	    "using pclmul hardware support" :
	    "avx512 support not detected\n"
	    "avx2 support not detected\n"
	    "pclmul support not detected";
}

/* Does glibc's hwcaps tunable list (h, n bytes) mask the feature? */
static bool
hwcap_masked(const char *h, size_t n, const char *feature)
{
	size_t fl = strlen(feature);

	for (size_t i = 0; i < n; i += strcspn(h + i, ",") + 1)
		if (h[i] == '-' && i + 1 + fl <= n &&
		    strncmp(h + i + 1, feature, fl) == 0 &&
		    (i + 1 + fl == n || h[i + 1 + fl] == ',' ||
		    h[i + 1 + fl] == ':'))
			return true;
	return false;
}

/*
 * coreutils 9.11 chooses its CRC code by the CPU features glibc reports,
 * which GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX,... masks (its
 * tests do so): the face caps kernels/crc.c's level the same way, unless
 * MULTISUM_CRC_LEVEL chose one.  Without AVX or PCLMUL, 9.11 runs its
 * table code; without AVX-512, no 512-bit code.
 */
static void
crc_level_from_tunables(void)
{
	const char *t = getenv("GLIBC_TUNABLES"), *h;
	const char key[] = "glibc.cpu.hwcaps=";
	size_t n;

	if (t == NULL || getenv("MULTISUM_CRC_LEVEL") != NULL ||
	    (h = strstr(t, key)) == NULL)
		return;
	h += sizeof(key) - 1;
	n = strcspn(h, ":");
	if (hwcap_masked(h, n, "AVX") || hwcap_masked(h, n, "PCLMULQDQ"))
		(void)ms_level_force(&ms_crc_levels, "table");
	else if (hwcap_masked(h, n, "AVX512F"))	/* if it runs at all */
		(void)ms_level_force(&ms_crc_levels, "pclmul");
}

static int
hash_files(const struct cu *c, struct ms_options *o)
{
	struct ms_digest_spec spec = tool_spec(c);
	bool sum = c->cksum && ms_cksum_algos[c->algo].sum;
	struct ms_hash_style style;

	if (sum)
		crc_level_from_tunables();
	style = (struct ms_hash_style){
		.crc_debug = sum ? crc_debug(c, &spec) : NULL,
		/* 9.11 asks about PCLMUL for each file it reads */
		.crc_debug_each = strcmp(spec.algo->name, "crc32") == 0,
	};

	ms_selection_add(&o->sel, &spec);
	if (ms_selection_load(&o->sel) == -1)
		return EXIT_FAILURE;
	o->fmt.format = c->tag && !sum ? MS_FORMAT_BSD : MS_FORMAT_GNU;
	o->fmt.decimal = sum;
	o->fmt.base64 = c->base64;
	o->fmt.raw = c->raw;
	o->fmt.binary = c->binary == 1;
	o->fmt.zero = c->zero;
	o->fmt.name_stdin = o->nfiles > 0;
	return ms_hash_run(o, &style);
}

static int
check_files(const struct cu *c, struct ms_options *o)
{
	const struct ms_algo *a = ms_algo_named(c->cksum ?
	    ms_cksum_algos[c->algo].algo : c->tool->algo);
	bool b2 = strcmp(a->name, "blake2b") == 0;
	struct ms_check_style style = {
		.rules = {
			.dialect = c->cksum && !c->algo_given ?
			    MS_DIALECT_CKSUM : MS_DIALECT_COREUTILS,
			.tool = a,
			.tag_length = c->tool->length,
			.auto_length = b2,
			.min_line = c->tool->length ? 3 : a->bits / 4 + 2,
			.cksum_face = c->cksum,
			.cksum = c->cksum && c->algo_given ?
			    &ms_cksum_algos[c->algo] : NULL,
		},
		.names = MS_CHECK_NAMES_NEWLINE,
	};

	o->quiet = c->says == OPT_QUIET;
	o->status = c->says == OPT_STATUS;
	o->strict = c->strict;
	o->warn = c->says == 'w';
	o->ignore_missing = c->ignore_missing;
	return ms_check_run(o, &style);
}

/*
 * coreutils closes a standard input it read (an operand "-", or none, or
 * a checked file named "-"), and a failure there (it was closed) fails
 * the run with one more line.  A closed one was replaced by a write-only
 * /dev/null at startup (ms_std_fds), whose closing would succeed.
 */
static int
close_stdin(const struct ms_options *o, int status)
{
	bool used = o->nfiles == 0 || ms_source_stdin_used;

	for (size_t i = 0; i < o->nfiles && !used; i++)
		used = strcmp(o->files[i], "-") == 0;
	if (!used)
		return status;
	if (fclose(stdin) == EOF || ms_stdin_was_closed) {
		ms_warn("standard input: %s",
		    strerror(ms_stdin_was_closed ? EBADF : errno));
		return EXIT_FAILURE;
	}
	return status;
}

bool
ms_personality_known(const char *name)
{
	for (size_t i = 0; i < MS_ARRAY_LEN(tools); i++)
		if (strcmp(name, tools[i].name) == 0)
			return true;
	return false;
}

int
ms_personality_main(const char *name, int argc, char **argv)
{
	static struct ms_options o;
	struct cu c = { .binary = -1, .tag = -1, .algo = 2 /* crc */ };

	for (size_t i = 0; i < MS_ARRAY_LEN(tools); i++)
		if (strcmp(name, tools[i].name) == 0)
			c.tool = &tools[i];
	if (c.tool == NULL)
		ms_bug("unknown personality");
	c.cksum = c.tool->algo == NULL;
	/* coreutils' messages name the program as it was called, directory
	 * and all ("/usr/bin/md5sum: f: No such file or directory"). */
	if (argc > 0)
		ms_program = argv[0];
	/* Quotes and printable characters in messages follow the locale. */
	setlocale(LC_ALL, "");
	parse(&c, argc, argv);
	if (c.cksum)
		validate_cksum(&c, (size_t)(argc - optind));
	else
		validate(&c);
	ms_engine_defaults(&o.engine);
	o.progress = 0;		/* coreutils has none */
	o.files = argv + optind;
	o.nfiles = (size_t)(argc - optind);
	return close_stdin(&o, c.check ? check_files(&c, &o) :
	    hash_files(&c, &o));
}

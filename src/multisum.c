/*
 * multisum.c - main: argv to one struct ms_options, a mode, an exit code.
 *
 * Owns option parsing, --help, --version, --list-algorithms and the
 * dispatch to the coreutils personalities by the name we were run as.
 * Only this file turns results into an exit status.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algorithm.h"
#include "hash.h"
#include "options.h"
#include "personality.h"
#include "util.h"

enum {
	OPT_TAG = 256, OPT_UNTAGGED, OPT_BASE64, OPT_RAW, OPT_FORMAT, OPT_QUIET, OPT_STATUS,
	OPT_STRICT, OPT_IGNORE_MISSING, OPT_EXPECT, OPT_IO, OPT_BUFFER_SIZE,
	OPT_EXCLUDE, OPT_FILES_FROM, OPT_FILES0_FROM, OPT_ARCHIVE,
	OPT_PROGRESS, OPT_NO_PROGRESS, OPT_BENCH, OPT_BENCH_TIME,
	OPT_BENCH_BASELINE, OPT_ASCII, OPT_LIST, OPT_DEBUG, OPT_HELP,
	OPT_VERSION,
};

static const struct option long_options[] = {
	{ "algorithm",		required_argument, NULL, 'a' },
	{ "length",		required_argument, NULL, 'l' },
	{ "binary",		no_argument,	   NULL, 'b' },
	{ "text",		no_argument,	   NULL, 't' },
	{ "tag",		no_argument,	   NULL, OPT_TAG },
	{ "untagged",		no_argument,	   NULL, OPT_UNTAGGED },
	{ "zero",		no_argument,	   NULL, 'z' },
	{ "base64",		no_argument,	   NULL, OPT_BASE64 },
	{ "raw",		no_argument,	   NULL, OPT_RAW },
	{ "format",		required_argument, NULL, OPT_FORMAT },
	{ "output",		required_argument, NULL, 'o' },
	{ "check",		no_argument,	   NULL, 'c' },
	{ "quiet",		no_argument,	   NULL, OPT_QUIET },
	{ "status",		no_argument,	   NULL, OPT_STATUS },
	{ "strict",		no_argument,	   NULL, OPT_STRICT },
	{ "warn",		no_argument,	   NULL, 'w' },
	{ "ignore-missing",	no_argument,	   NULL, OPT_IGNORE_MISSING },
	{ "expect",		required_argument, NULL, OPT_EXPECT },
	{ "io",			required_argument, NULL, OPT_IO },
	{ "buffer-size",	required_argument, NULL, OPT_BUFFER_SIZE },
	{ "jobs",		required_argument, NULL, 'j' },
	{ "recursive",		no_argument,	   NULL, 'r' },
	{ "dereference",	no_argument,	   NULL, 'L' },
	{ "exclude",		required_argument, NULL, OPT_EXCLUDE },
	{ "files-from",		required_argument, NULL, OPT_FILES_FROM },
	{ "files0-from",	required_argument, NULL, OPT_FILES0_FROM },
	{ "archive",		required_argument, NULL, OPT_ARCHIVE },
	{ "progress",		no_argument,	   NULL, OPT_PROGRESS },
	{ "no-progress",	no_argument,	   NULL, OPT_NO_PROGRESS },
	{ "bench",		no_argument,	   NULL, OPT_BENCH },
	{ "bench-time",		required_argument, NULL, OPT_BENCH_TIME },
	{ "bench-baseline",	required_argument, NULL, OPT_BENCH_BASELINE },
	{ "ascii",		no_argument,	   NULL, OPT_ASCII },
	{ "list-algorithms",	no_argument,	   NULL, OPT_LIST },
	{ "debug",		no_argument,	   NULL, OPT_DEBUG },
	{ "help",		no_argument,	   NULL, OPT_HELP },
	{ "version",		no_argument,	   NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/*
 * Exit after writing what the user asked for to standard output: if it
 * could not all be written (a full disk, a closed descriptor), say so and
 * fail, as coreutils does, instead of exiting 0 with the text lost.
 */
static _Noreturn void
exit_flushed(void)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		ms_warn("write error: %s", strerror(errno ? errno : EIO));
		exit(MS_EXIT_FAIL);
	}
	exit(MS_EXIT_OK);
}

static void
usage(int status)
{
	if (status != MS_EXIT_OK) {
		fprintf(stderr, "Try '%s --help' for more information.\n", ms_program);
		exit(status);
	}
	printf("Usage: %s [OPTION]... [FILE]...\n"
	    "  or:  %s -c [OPTION]... [MANIFEST]...\n"
	    "  or:  %s --bench [OPTION]... [FILE]...\n"
	    "  or:  %s --list-algorithms\n", ms_program, ms_program,
	    ms_program, ms_program);
	fputs(
"Print or check checksums of FILEs, reading each file once for every\n"
"selected algorithm (default: SHA-256).  With no FILE, or when FILE is -,\n"
"read standard input.\n"
"\n"
"Algorithms:\n"
"  -a, --algorithm=LIST   comma-separated algorithms; may repeat; 'all' selects\n"
"                         every one (see --list-algorithms)\n"
"  -l, --length=BITS      digest length of the variable-length algorithm\n"
"                         (blake2b, blake2s, shake128, shake256, sha2, sha3)\n"
"      --list-algorithms  list the algorithms of this build and exit\n"
"\n"
"Output:\n"
"  -b, --binary           mark names with '*' (GNU format)\n"
"  -t, --text             mark names with ' ' (the default)\n"
"      --tag              BSD-style lines: ALG (NAME) = DIGEST\n"
"      --untagged         GNU lines (one algorithm): DIGEST  NAME\n"
"      --format=FORMAT    gnu, bsd, sfv (crc32 only) or ndjson; with --bench:\n"
"                         table, csv or json\n"
"      --base64           digests in base64 instead of hex\n"
"      --raw              the bare binary digest of a single input\n"
"  -z, --zero             end lines with NUL, not newline; no name escaping\n"
"  -o, --output=FILE      write the manifest to FILE, atomically: FILE is\n"
"                         replaced only when every line was written\n"
"\n"
"Checking:\n"
"  -c, --check            verify the checksums listed in MANIFESTs\n"
"      --expect=DIGEST    verify one FILE against DIGEST (algorithm from -a,\n"
"                         else from the digest's length)\n"
"      --ignore-missing   do not fail or report for missing files\n"
"      --quiet            do not print OK for each verified file\n"
"      --status           print nothing; the exit status tells\n"
"      --strict           exit non-zero for improperly formatted lines\n"
"  -w, --warn             warn about improperly formatted lines\n"
"\n"
"Reading:\n"
"  -r, --recursive        hash the files below directory operands\n"
"  -L, --dereference      follow symbolic links found inside directories\n"
"      --exclude=GLOB     skip names matching GLOB (may repeat)\n"
"      --files-from=FILE  read operands from FILE, one per line (- is stdin)\n"
"      --files0-from=FILE read NUL-terminated operands from FILE\n"
"      --archive=ARCHIVE  hash (or check) the members of ARCHIVE without\n"
"                         extracting it; operands select members\n"
"      --io=MODE          auto, mmap or read\n"
"      --buffer-size=SIZE bytes per read (suffixes K, M; default 256K)\n"
"  -j, --jobs=N           worker threads (default: the online CPUs)\n"
"      --progress         show a progress line on standard error\n"
"      --no-progress      never show it\n"
"\n"
"Benchmark:\n"
"      --bench            measure the speed of the algorithms on this machine\n"
"                         (and of reading and hashing each FILE)\n"
"      --bench-time=SECONDS  time budget of the whole run\n"
"      --bench-baseline=ALG  the ratio column's reference (default sha256)\n"
"      --ascii            draw the bar chart in plain ASCII\n"
"\n"
"      --debug            tell which backend computes each algorithm\n"
"      --help             display this help and exit\n"
"      --version          output version information and exit\n"
"\n"
"Exit status: 0 if every file was read (and verified), 1 if a file could\n"
"not be read or did not verify, 2 for invalid usage.\n", stdout);
	exit_flushed();
}

static void
version(void)
{
	printf("multisum %s\n", PACKAGE_VERSION);
	exit_flushed();
}

static void
list_algorithms(void)
{
	printf("%-12s %-12s %-8s %-10s %s\n", "name", "tag", "bits", "backend", "class");
	for (size_t i = 0; i < ms_algo_count; i++) {
		const struct ms_algo *a = &ms_algos[i];
		char bits[32], tag[32];

		if (a->min_bits == a->max_bits)
			snprintf(bits, sizeof(bits), "%u", a->bits);
		else
			snprintf(bits, sizeof(bits), "%u..%u", a->min_bits, a->max_bits);
		snprintf(tag, sizeof(tag), "%s%s", a->tag,
		    strcmp(a->name + strlen(a->name) - 2, "-N") == 0 ? "-N" : "");
		printf("%-12s %-12s %-8s %-10s %s\n", a->name, tag, bits,
		    a->ops->backend, ms_class_name(a->class));
	}
	exit_flushed();
}

static unsigned
parse_uint(const char *opt, const char *s, unsigned max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end != '\0' || errno != 0 || v > max) {
		ms_warn("invalid %s: '%s'", opt, s);
		usage(MS_EXIT_USAGE);
	}
	return (unsigned)v;
}

/* Resolve the collected -a names (with -l) into the selection. */
static void
select_algorithms(struct ms_options *o, char **names, size_t cnt)
{
	size_t takes = 0;

	for (size_t i = 0; i < cnt; i++)
		takes += ms_algo_takes_length(names[i]);
	if (o->length != 0 && takes == 0) {
		ms_warn("--length needs a variable-length algorithm "
		    "(blake2b, blake2s, shake128, shake256, sha2, sha3)");
		usage(MS_EXIT_USAGE);
	}
	if (o->length != 0 && takes > 1) {
		ms_warn("--length is ambiguous with several variable-length algorithms");
		usage(MS_EXIT_USAGE);
	}
	for (size_t i = 0; i < cnt; i++) {
		struct ms_digest_spec spec;
		const char *why;

		if (strcmp(names[i], "all") == 0) {
			for (size_t k = 0; k < ms_algo_count; k++) {
				const struct ms_algo *a = &ms_algos[k];
				struct ms_digest_spec s = { a, a->bits };
				if (a->in_all)
					ms_selection_add(&o->sel, &s);
			}
			continue;
		}
		if (ms_algo_resolve(names[i], ms_algo_takes_length(names[i]) ?
		    o->length : 0, &spec, &why) == -1) {
			if (o->length && ms_algo_takes_length(names[i]))
				ms_warn("invalid length %u for '%s': %s", o->length,
				    names[i], why);
			else
				ms_warn("'%s': %s (see --list-algorithms)", names[i], why);
			usage(MS_EXIT_USAGE);
		}
		if (ms_selection_add(&o->sel, &spec) == -1) {
			ms_warn("too many algorithms");
			usage(MS_EXIT_USAGE);
		}
	}
}

/* Split "md5,sha1" into names appended to *names. */
static void
collect_names(const char *list, char ***names, size_t *cnt)
{
	char *copy = ms_xstrdup(list), *save = NULL;

	for (char *n = strtok_r(copy, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
		*names = ms_xrealloc(*names, (*cnt + 1) * sizeof(**names));
		(*names)[(*cnt)++] = ms_xstrdup(n);
	}
	if (*list == '\0' || strspn(list, ",") == strlen(list)) {
		ms_warn("empty algorithm list");
		usage(MS_EXIT_USAGE);
	}
	free(copy);
}

static void
parse(struct ms_options *o, int argc, char **argv)
{
	char **names = NULL;
	size_t nnames = 0;
	int c;

	ms_engine_defaults(&o->engine);
	o->progress = -1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":a:l:btzo:cwj:rL", long_options,
	    NULL)) != -1) {
		switch (c) {
		case 'a': collect_names(optarg, &names, &nnames); o->sel_given = true; break;
		case 'l': o->length = parse_uint("length", optarg, 1u << 20);
			if (o->length == 0 || o->length % 8 != 0) {
				ms_warn("invalid length: '%s' (a multiple of 8)", optarg);
				usage(MS_EXIT_USAGE);
			}
			break;
		case 'b': o->fmt.binary = true; break;
		case 't': o->fmt.binary = false; break;
		case OPT_TAG: o->tag = true; break;
		case OPT_UNTAGGED: o->format_name = "gnu"; break;
		case 'z': o->fmt.zero = true; break;
		case OPT_BASE64: o->fmt.base64 = true; break;
		case OPT_RAW: o->fmt.raw = true; break;
		case OPT_FORMAT: o->format_name = optarg; break;
		case 'o': o->output = optarg; break;
		case 'c': o->mode = MS_MODE_CHECK; break;
		case OPT_QUIET: o->quiet = true; break;
		case OPT_STATUS: o->status = true; break;
		case OPT_STRICT: o->strict = true; break;
		case 'w': o->warn = true; break;
		case OPT_IGNORE_MISSING: o->ignore_missing = true; break;
		case OPT_EXPECT: o->expect = optarg; o->mode = MS_MODE_CHECK; break;
		case OPT_IO:
			if (strcmp(optarg, "auto") == 0)
				o->engine.io = MS_IO_AUTO;
			else if (strcmp(optarg, "mmap") == 0)
				o->engine.io = MS_IO_MMAP;
			else if (strcmp(optarg, "read") == 0)
				o->engine.io = MS_IO_READ;
			else {
				ms_warn("invalid --io '%s' (auto, mmap or read)", optarg);
				usage(MS_EXIT_USAGE);
			}
			break;
		case OPT_BUFFER_SIZE:
			if (ms_parse_size(optarg, &o->engine.buffer_size) == -1 ||
			    o->engine.buffer_size < 4096 ||
			    o->engine.buffer_size > (1u << 30)) {
				ms_warn("invalid --buffer-size '%s' (4K to 1G)", optarg);
				usage(MS_EXIT_USAGE);
			}
			break;
		case 'j': o->engine.jobs = parse_uint("--jobs", optarg, 1024);
			if (o->engine.jobs == 0) {
				ms_warn("invalid --jobs: '0'");
				usage(MS_EXIT_USAGE);
			}
			break;
		case 'r': o->walk.recursive = true; break;
		case 'L': o->walk.dereference = true; break;
		case OPT_EXCLUDE:
			o->walk.excludes = ms_xrealloc(o->walk.excludes,
			    (o->walk.nexcludes + 1) * sizeof(char *));
			o->walk.excludes[o->walk.nexcludes++] = optarg;
			break;
		case OPT_FILES_FROM: o->files_from = optarg; o->files_from_nul = false; break;
		case OPT_FILES0_FROM: o->files_from = optarg; o->files_from_nul = true; break;
		case OPT_ARCHIVE: o->archive = optarg; break;
		case OPT_PROGRESS: o->progress = 1; break;
		case OPT_NO_PROGRESS: o->progress = 0; break;
		case OPT_BENCH: o->mode = MS_MODE_BENCH; break;
		case OPT_BENCH_TIME: {
			char *end;
			errno = 0;
			o->bench_time = strtod(optarg, &end);
			if (*end != '\0' || errno != 0 || !(o->bench_time > 0) ||
			    o->bench_time > 3600) {
				ms_warn("invalid --bench-time '%s' (seconds)", optarg);
				usage(MS_EXIT_USAGE);
			}
			break;
		}
		case OPT_BENCH_BASELINE: o->bench_baseline = optarg; break;
		case OPT_ASCII: o->ascii = true; break;
		case OPT_LIST: o->mode = MS_MODE_LIST; break;
		case OPT_DEBUG: o->debug = true; break;
		case OPT_HELP: usage(MS_EXIT_OK); break;
		case OPT_VERSION: version(); break;
		case ':':
			ms_warn("option '%s' requires an argument", argv[optind - 1]);
			usage(MS_EXIT_USAGE);
			break;
		default:
			if (optopt != 0 && optopt < 256)
				ms_warn("invalid option -- '%c'", optopt);
			else
				ms_warn("unrecognized option '%s'", argv[optind - 1]);
			usage(MS_EXIT_USAGE);
		}
	}
	o->files = argv + optind;
	o->nfiles = (size_t)(argc - optind);
	if (o->mode == MS_MODE_LIST)
		list_algorithms();
	select_algorithms(o, names, nnames);
	if (o->sel.cnt == 0 && o->mode == MS_MODE_HASH) {
		struct ms_digest_spec def;
		const char *why;
		ms_algo_resolve("sha256", 0, &def, &why);
		ms_selection_add(&o->sel, &def);
	}
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
}

/* --debug: which library computes what. */
static void
debug_selection(const struct ms_options *o)
{
	for (size_t i = 0; i < o->sel.cnt; i++) {
		const struct ms_digest_spec *s = &o->sel.spec[i];
		const char *v = s->algo->ops->version ? s->algo->ops->version() : NULL;
		char buf[32];

		ms_warn("%s: %s%s%s (%s)", ms_spec_name(s, buf, sizeof(buf)),
		    s->algo->ops->backend, v ? " " : "", v ? v : "", s->algo->impl);
	}
	ms_warn("io=%s buffer-size=%zu jobs=%u",
	    o->engine.io == MS_IO_AUTO ? "auto" : o->engine.io == MS_IO_MMAP ?
	    "mmap" : "read", o->engine.buffer_size, o->engine.jobs);
}

int
main(int argc, char **argv)
{
	static struct ms_options o;
	const char *base = argc > 0 ? strrchr(argv[0], '/') : NULL;

	ms_program = base ? base + 1 : argc > 0 ? argv[0] : "multisum";
	if (ms_personality_known(ms_program))
		return ms_personality_main(ms_program, argc, argv);
	ms_program = "multisum";
	parse(&o, argc, argv);
	if (o.debug)
		debug_selection(&o);
	switch (o.mode) {
	case MS_MODE_HASH:	return ms_hash_main(&o);
	case MS_MODE_CHECK:	return ms_check_main(&o);
	case MS_MODE_BENCH:	return ms_bench_main(&o);
	case MS_MODE_LIST:	break;
	}
	return MS_EXIT_USAGE;
}

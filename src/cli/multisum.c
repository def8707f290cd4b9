/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * multisum.c - main: argv to one struct ms_options, a mode, an exit code.
 *
 * Owns option parsing and the option-pair rules (one validate pass, so
 * that the modes only read struct ms_options) and the dispatch to the
 * coreutils personalities by the name we were run as; what --help,
 * --version and --list-algorithms print is help.c's.  Usage errors exit here with status 2; each
 * mode returns the exit status of its run, and main returns it.
 */
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "digest/algorithm.h"
#include "digest/backend_s3.h"
#include "bench/bench.h"
#include "modes/check.h"
#include "modes/hash.h"
#include "modes/part.h"
#include "manifest/ledger.h"
#include "manifest/manifest.h"
#include "cli/personality.h"
#include "cli/personality_b3sum.h"
#include "modes/per_dir.h"
#include "modes/store.h"
#include "modes/tree_digest.h"
#include "modes/update.h"
#include "cli/help.h"
#include "cli/mode_rules.h"
#include "modes/xattr.h"
#include "base/exit_status.h"
#include "io/device.h"
#include "base/util.h"
#include "base/version.h"

enum {
	OPT_TAG = 256, OPT_UNTAGGED, OPT_BASE64, OPT_RAW, OPT_FORMAT, OPT_QUIET, OPT_STATUS,
	OPT_STRICT, OPT_IGNORE_MISSING, OPT_EXPECT, OPT_IO, OPT_BUFFER_SIZE, OPT_PART_SIZE,
	OPT_EXCLUDE, OPT_FILES_FROM, OPT_FILES0_FROM, OPT_ARCHIVE,
	OPT_PROGRESS, OPT_NO_PROGRESS, OPT_BENCH, OPT_BENCH_TIME,
	OPT_BENCH_BASELINE, OPT_ASCII, OPT_LIST, OPT_DEBUG, OPT_HELP,
	OPT_VERSION, OPT_AUDIT, OPT_SHARD, OPT_MERGE, OPT_KEY_FILE, OPT_KEYED,
	OPT_DERIVE_KEY, OPT_CHECKPOINT, OPT_PARTIAL, OPT_XATTR, OPT_MATCH,
	OPT_UNMATCHED, OPT_PER_DIR, OPT_PIECE_SIZE, OPT_PRIVATE, OPT_NOCACHE,
	OPT_MEMORY, OPT_PUBKEY, OPT_KEYRING, OPT_ALLOWED_SIGNERS, OPT_NAMESPACE,
	OPT_SIGNATURE, OPT_SIGNER, OPT_SIGN,
	OPT_SIGN_EMBEDDED, OPT_PASSPHRASE_FILE, OPT_GENERATE_KEY,
	OPT_NO_PASSPHRASE, OPT_BYTES_PER_CRC, OPT_BLOCK_SIZE, OPT_PART,
	OPT_STDIN_NAME, OPT_ACCEPT_CORRUPT, OPT_PRINTF, OPT_TEMPLATE,
	OPT_EMBED_CRC, OPT_EMBED_CRC_DELIMITER, OPT_ROOT,
	OPT_NAMES_ARE_DIGESTS, OPT_TREE_DIGEST, OPT_TREE_PREFIX,
};

/* The modes an option applies to: the column beside the option table. */
#define H	(1u << MS_MODE_HASH)
#define C	(1u << MS_MODE_CHECK)
#define B	(1u << MS_MODE_BENCH)
#define U	(1u << MS_MODE_UPDATE)
#define A	(1u << MS_MODE_AUDIT)
#define M	(1u << MS_MODE_MERGE)
#define X	(1u << MS_MODE_XATTR)
#define K	(1u << MS_MODE_KEYGEN)
#define ANY	(H | C | B | U | A | X)

/*
 * Option-pair rules (the one list; validate() applies them after parsing,
 * each refusal is one line naming both options, then the --help hint, and
 * exit status 2):
 *   1. Each option applies to the modes of its column in opts[] below.
 *      Given in another mode it is refused: "--X cannot be used with
 *      --MODE" when a mode was chosen, else "--X needs --check or
 *      --expect", "--X needs --bench" or "--X needs" the list of its modes.
 *   2. The modes exclude each other: -c, --expect, --bench, --update,
 *      --audit, --merge, --xattr and --generate-key (set_mode).
 *   3. Pairs of options that would silently override each other: the
 *      table exclusive[] below.
 *   4. Options that need one of two others: the table needs[] below
 *      (--signature needs a key, --sign needs -o, ...).
 *   5. Then each mode's own (mode_rules.c): hash mode's --format against
 *      the algorithm count and --raw against several inputs (choose_format), --bench's
 *      --format and --bench-baseline values, --expect's digest, the
 *      --format of --update (gnu, bsd or ndjson) and of --audit (ndjson),
 *      --merge's operands; and --key-file, --keyed or --derive-key in
 *      hash mode without -a blake3 (mode_rules.c, digest_params); the
 *      signature options' (check_signing).  --update and --audit take
 *      their algorithms from the manifest when -a is not given.
 * --list-algorithms ignores every other option; the personalities keep
 * coreutils 9.1's own rules and wording (personality.c).
 */
static const struct opt {
	const char	*name;
	int		 has_arg;
	int		 val;
	unsigned	 modes;
} opts[] = {
	{ "algorithm",		required_argument, 'a',			ANY | M },
	{ "length",		required_argument, 'l',			ANY | M },
	{ "binary",		no_argument,	   'b',			H | U },
	{ "text",		no_argument,	   't',			H | U },
	{ "tag",		no_argument,	   OPT_TAG,		H | U },
	{ "untagged",		no_argument,	   OPT_UNTAGGED,	H | U },
	{ "zero",		no_argument,	   'z',			H | C },
	{ "base64",		no_argument,	   OPT_BASE64,		H | U },
	{ "raw",		no_argument,	   OPT_RAW,		H },
	{ "format",		required_argument, OPT_FORMAT,		H | B | U | A | X },
	{ "output",		required_argument, 'o',			H | M },
	{ "match",		required_argument, OPT_MATCH,		H },
	{ "unmatched",		required_argument, OPT_UNMATCHED,	H },
	{ "per-dir",		required_argument, OPT_PER_DIR,		H | C },
	{ "names-are-digests",	optional_argument, OPT_NAMES_ARE_DIGESTS, C },
	{ "tree-digest",	required_argument, OPT_TREE_DIGEST,	H },
	{ "tree-prefix",	required_argument, OPT_TREE_PREFIX,	H },
	{ "check",		no_argument,	   'c',			C },
	{ "quiet",		no_argument,	   OPT_QUIET,		C | U | A | X },
	{ "status",		no_argument,	   OPT_STATUS,		C },
	{ "strict",		no_argument,	   OPT_STRICT,		C },
	{ "warn",		no_argument,	   'w',			C },
	{ "ignore-missing",	no_argument,	   OPT_IGNORE_MISSING,	C },
	{ "expect",		required_argument, OPT_EXPECT,		C },
	{ "root",		required_argument, OPT_ROOT,		C },
	{ "io",			required_argument, OPT_IO,		ANY },
	{ "buffer-size",	required_argument, OPT_BUFFER_SIZE,	ANY },
	{ "nocache",		no_argument,	   OPT_NOCACHE,		H | C | U | A | X },
	{ "memory",		required_argument, OPT_MEMORY,		ANY },
	{ "part-size",		required_argument, OPT_PART_SIZE,	ANY },
	{ "bytes-per-crc",	required_argument, OPT_BYTES_PER_CRC,	ANY },
	{ "block-size",		required_argument, OPT_BLOCK_SIZE,	ANY },
	{ "jobs",		required_argument, 'j',			ANY },
	{ "recursive",		no_argument,	   'r',			H | C | U | A | X },
	{ "dereference",	no_argument,	   'L',			H | C | U | A | X },
	{ "exclude",		required_argument, OPT_EXCLUDE,		H | C | U | A | X },
	{ "files-from",		required_argument, OPT_FILES_FROM,	H | U | A | X },
	{ "files0-from",	required_argument, OPT_FILES0_FROM,	H | U | A | X },
	{ "archive",		required_argument, OPT_ARCHIVE,		H | C },
	{ "stdin-name",		required_argument, OPT_STDIN_NAME,	H },
	{ "progress",		no_argument,	   OPT_PROGRESS,	ANY },
	{ "no-progress",	no_argument,	   OPT_NO_PROGRESS,	ANY },
	{ "update",		required_argument, 'u',			U },
	{ "audit",		required_argument, OPT_AUDIT,		A },
	{ "piece-size",		required_argument, OPT_PIECE_SIZE,	H | C | U },
	{ "private",		no_argument,	   OPT_PRIVATE,		H | C },
	{ "accept-corrupt",	no_argument,	   OPT_ACCEPT_CORRUPT,	U },
	{ "shard",		required_argument, OPT_SHARD,		H | C | U | A },
	{ "checkpoint",		required_argument, OPT_CHECKPOINT,	U },
	{ "merge",		no_argument,	   OPT_MERGE,		M },
	{ "partial",		no_argument,	   OPT_PARTIAL,		M },
	{ "xattr",		required_argument, OPT_XATTR,		X },
	{ "part",		required_argument, OPT_PART,		H },
	{ "bench",		no_argument,	   OPT_BENCH,		B },
	{ "bench-time",		required_argument, OPT_BENCH_TIME,	B },
	{ "bench-baseline",	required_argument, OPT_BENCH_BASELINE,	B },
	{ "ascii",		no_argument,	   OPT_ASCII,		B },
	{ "key-file",		required_argument, OPT_KEY_FILE,	H | C },
	{ "keyed",		no_argument,	   OPT_KEYED,		H | C },
	{ "derive-key",		required_argument, OPT_DERIVE_KEY,	H | C },
	{ "pubkey",		required_argument, OPT_PUBKEY,		C },
	{ "keyring",		required_argument, OPT_KEYRING,		C },
	{ "allowed-signers",	required_argument, OPT_ALLOWED_SIGNERS,	C },
	{ "namespace",		required_argument, OPT_NAMESPACE,	H | C },
	{ "signature",		required_argument, OPT_SIGNATURE,	C },
	{ "signer",		required_argument, OPT_SIGNER,		C },
	{ "printf",		required_argument, OPT_PRINTF,		H },
	{ "check-embedded",	no_argument,	   'k',			H },
	{ "embed-crc",		no_argument,	   OPT_EMBED_CRC,	H },
	{ "embed-crc-delimiter", required_argument, OPT_EMBED_CRC_DELIMITER, H },
	{ "template",		required_argument, OPT_TEMPLATE,	H },
	{ "sign",		required_argument, OPT_SIGN,		H | U | M },
	{ "sign-embedded",	no_argument,	   OPT_SIGN_EMBEDDED,	H },
	{ "passphrase-file",	required_argument, OPT_PASSPHRASE_FILE,	H | U | M | K },
	{ "generate-key",	required_argument, OPT_GENERATE_KEY,	K },
	{ "no-passphrase",	no_argument,	   OPT_NO_PASSPHRASE,	K },
	{ "list-algorithms",	no_argument,	   OPT_LIST,		ANY | M | K },
	{ "debug",		no_argument,	   OPT_DEBUG,		ANY | M | K },
	{ "help",		no_argument,	   OPT_HELP,		ANY | M | K },
	{ "version",		no_argument,	   OPT_VERSION,		ANY | M | K },
};
#define NOPTS	MS_ARRAY_LEN(opts)

/* Rule 3: options of which at most one may be given. */
static const int exclusive[][2] = {
	{ OPT_FILES_FROM, OPT_FILES0_FROM },
	{ OPT_TAG, OPT_UNTAGGED },
	{ OPT_TAG, OPT_FORMAT },
	{ OPT_UNTAGGED, OPT_FORMAT },
	{ OPT_RAW, OPT_BASE64 },
	{ OPT_MATCH, OPT_UNMATCHED },
	{ OPT_MATCH, OPT_RAW },
	{ OPT_UNMATCHED, OPT_RAW },
	/* --per-dir writes and reads a manifest per folder of -r's trees */
	{ OPT_PER_DIR, 'o' }, { OPT_PER_DIR, OPT_RAW }, { OPT_PER_DIR, 'z' },
	{ OPT_PER_DIR, OPT_MATCH }, { OPT_PER_DIR, OPT_UNMATCHED },
	{ OPT_PER_DIR, OPT_FILES_FROM }, { OPT_PER_DIR, OPT_FILES0_FROM },
	{ OPT_PER_DIR, OPT_SHARD }, { OPT_PER_DIR, OPT_ARCHIVE },
	{ OPT_PER_DIR, OPT_EXPECT },
	{ OPT_SHARD, OPT_ARCHIVE },	/* a member's hard link may cross shards */
	{ OPT_KEY_FILE, OPT_KEYED },
	{ OPT_KEY_FILE, OPT_DERIVE_KEY },
	{ OPT_KEYED, OPT_DERIVE_KEY },
	{ OPT_PUBKEY, OPT_KEYRING },	/* one kind of key */
	{ OPT_PUBKEY, OPT_ALLOWED_SIGNERS }, { OPT_KEYRING, OPT_ALLOWED_SIGNERS },
	{ OPT_EXPECT, OPT_ALLOWED_SIGNERS }, { OPT_PER_DIR, OPT_ALLOWED_SIGNERS },
	{ OPT_PASSPHRASE_FILE, OPT_NO_PASSPHRASE },
	{ OPT_EXPECT, OPT_PUBKEY },	/* a digest on the command line is unsigned */
	{ OPT_EXPECT, OPT_KEYRING },
	{ OPT_PER_DIR, OPT_PUBKEY }, { OPT_PER_DIR, OPT_KEYRING },
	{ OPT_PER_DIR, OPT_SIGN_EMBEDDED },	/* signify -C: no "#" lines */
	/* --part: one part of one regular file, as a record */
	{ OPT_PART, 'r' }, { OPT_PART, OPT_FILES_FROM },
	{ OPT_PART, OPT_FILES0_FROM }, { OPT_PART, OPT_ARCHIVE },
	{ OPT_PART, OPT_SHARD }, { OPT_PART, OPT_RAW },
	{ OPT_PART, OPT_PER_DIR }, { OPT_PART, OPT_MATCH },
	{ OPT_PART, OPT_UNMATCHED },
	/* a keyed BLAKE3's merge would need the key */
	{ OPT_PART, OPT_KEY_FILE }, { OPT_PART, OPT_KEYED },
	{ OPT_PART, OPT_DERIVE_KEY },
	{ OPT_PART, OPT_SIGN },
	/* --stdin-name: standard input hashed as one of the inputs */
	{ OPT_STDIN_NAME, OPT_PER_DIR }, { OPT_STDIN_NAME, OPT_ARCHIVE },
	{ OPT_STDIN_NAME, OPT_PART }, { OPT_STDIN_NAME, OPT_KEYED },
	/* --printf and --template: the line is the template's */
	{ OPT_PRINTF, OPT_TEMPLATE }, { OPT_PRINTF, OPT_FORMAT },
	{ OPT_TEMPLATE, OPT_FORMAT }, { OPT_PRINTF, OPT_TAG },
	{ OPT_TEMPLATE, OPT_TAG }, { OPT_PRINTF, OPT_UNTAGGED },
	{ OPT_TEMPLATE, OPT_UNTAGGED }, { OPT_PRINTF, OPT_RAW },
	{ OPT_TEMPLATE, OPT_RAW }, { OPT_PRINTF, OPT_BASE64 },
	{ OPT_TEMPLATE, OPT_BASE64 }, { OPT_PRINTF, OPT_SHARD },
	{ OPT_TEMPLATE, OPT_SHARD }, { OPT_PRINTF, OPT_PER_DIR },
	{ OPT_TEMPLATE, OPT_PER_DIR }, { OPT_PRINTF, OPT_PART },
	{ OPT_TEMPLATE, OPT_PART },
	/* -k writes verdicts; --embed-crc renames files it has read */
	{ 'k', OPT_EMBED_CRC }, { 'k', OPT_PRINTF }, { 'k', OPT_TEMPLATE },
	{ 'k', OPT_FORMAT }, { 'k', OPT_TAG }, { 'k', OPT_UNTAGGED },
	{ 'k', OPT_RAW }, { 'k', OPT_BASE64 }, { 'k', 'z' },
	{ 'k', OPT_MATCH }, { 'k', OPT_UNMATCHED },
	{ 'k', OPT_ARCHIVE }, { 'k', OPT_PER_DIR }, { 'k', OPT_PART },
	{ 'k', OPT_SHARD }, { 'k', OPT_SIGN },
	{ OPT_EMBED_CRC, OPT_ARCHIVE }, { OPT_EMBED_CRC, OPT_PER_DIR },
	{ OPT_EMBED_CRC, OPT_PART }, { OPT_EMBED_CRC, OPT_SHARD },
	{ OPT_EMBED_CRC, OPT_RAW }, { OPT_EMBED_CRC, OPT_STDIN_NAME },
	/* --names-are-digests: a store's names are its only list */
	{ OPT_NAMES_ARE_DIGESTS, OPT_PER_DIR },
	{ OPT_NAMES_ARE_DIGESTS, OPT_EXPECT },
	{ OPT_NAMES_ARE_DIGESTS, OPT_ARCHIVE },
	{ OPT_NAMES_ARE_DIGESTS, OPT_PUBKEY },
	{ OPT_NAMES_ARE_DIGESTS, OPT_KEYRING },
	{ OPT_NAMES_ARE_DIGESTS, OPT_SHARD },
	/* --tree-digest: one value of one tree, on standard output */
	{ OPT_TREE_DIGEST, 'o' }, { OPT_TREE_DIGEST, OPT_PER_DIR },
	{ OPT_TREE_DIGEST, OPT_PART }, { OPT_TREE_DIGEST, OPT_ARCHIVE },
	{ OPT_TREE_DIGEST, OPT_MATCH }, { OPT_TREE_DIGEST, OPT_UNMATCHED },
	{ OPT_TREE_DIGEST, OPT_FILES_FROM },
	{ OPT_TREE_DIGEST, OPT_FILES0_FROM },
	{ OPT_TREE_DIGEST, OPT_STDIN_NAME }, { OPT_TREE_DIGEST, OPT_SHARD },
	{ OPT_TREE_DIGEST, 'a' }, { OPT_TREE_DIGEST, OPT_FORMAT },
};

/* Rule 5: an option that needs one of two others (0: no second). */
static const int needs[][4] = {
	{ OPT_SIGNATURE, OPT_PUBKEY, OPT_KEYRING, OPT_ALLOWED_SIGNERS },
	{ OPT_SIGNER, OPT_KEYRING, OPT_ALLOWED_SIGNERS, 0 },
	{ OPT_NAMESPACE, OPT_PUBKEY, OPT_ALLOWED_SIGNERS, OPT_SIGN },
	{ OPT_SIGN, 'o', OPT_PER_DIR, 0 },	/* (--update signs its ledger) */
	{ OPT_SIGN_EMBEDDED, OPT_SIGN, 0 },
	{ OPT_EMBED_CRC_DELIMITER, OPT_EMBED_CRC, 0 },
	{ OPT_PASSPHRASE_FILE, OPT_SIGN, OPT_GENERATE_KEY },
	{ OPT_TREE_PREFIX, OPT_TREE_DIGEST, 0 },
};

/* What parsing saw, for validate(): which options, and the mode's. */
struct seen {
	bool		 given[NOPTS];
	int		 mode_opt;	/* the mode's option; 0 if none */
};

static unsigned
parse_uint(const char *opt, const char *s, unsigned max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end != '\0' || errno != 0 || v > max)
		ms_cli_refuse("invalid %s: '%s'", opt, s);
	return (unsigned)v;
}

/* -l BITS: a multiple of 8. */
static unsigned
parse_length(const char *arg)
{
	unsigned bits = parse_uint("length", arg, 1u << 20);

	if (bits == 0 || bits % 8 != 0)
		ms_cli_refuse("invalid length: '%s' (a multiple of 8)", arg);
	return bits;
}

static enum ms_io
parse_io(const char *arg)
{
	if (strcmp(arg, "auto") == 0)
		return MS_IO_AUTO;
	if (strcmp(arg, "mmap") == 0)
		return MS_IO_MMAP;
	if (strcmp(arg, "read") == 0)
		return MS_IO_READ;
	ms_cli_refuse("invalid --io '%s' (auto, mmap or read)", arg);
}

/* --xattr=update|audit */
static enum ms_xattr_mode
parse_xattr(const char *arg)
{
	if (strcmp(arg, "update") == 0)
		return MS_XATTR_UPDATE;
	if (strcmp(arg, "audit") == 0)
		return MS_XATTR_AUDIT;
	ms_cli_refuse("invalid --xattr '%s' (update or audit)", arg);
}

/* A size with its suffix (K, M, G) for --OPT, from min to max; a refusal
 * says why: not a number, an unknown suffix, too small or too large. */
static size_t
parse_bytes(const char *opt, const char *arg, size_t min, size_t max,
    const char *range)
{
	size_t n;
	int rc = ms_parse_size(arg, &n);

	if (rc != 0)
		ms_cli_refuse("invalid --%s '%s': %s", opt, arg,
		    ms_size_error(rc));
	if (n < min || n > max)
		ms_cli_refuse("invalid --%s '%s': too %s%s", opt, arg,
		    n < min ? "small" : "large", range);
	return n;
}

static unsigned
parse_jobs(const char *arg)
{
	unsigned n = parse_uint("--jobs", arg, 1024);

	if (n == 0)
		ms_cli_refuse("invalid --jobs: '0'");
	return n;
}

/* --bench-time: seconds, more than 0, at most an hour. */
static double
parse_seconds(const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (*end != '\0' || errno != 0 || !(v > 0) || v > 3600)
		ms_cli_refuse("invalid --bench-time '%s' (seconds)", arg);
	return v;
}

static void
add_exclude(struct ms_walk_opts *w, const char *glob)
{
	w->excludes = ms_xrealloc(w->excludes, (w->nexcludes + 1) * sizeof(char *));
	w->excludes[w->nexcludes++] = glob;
}

/* Resolve the collected -a names (with -l) into the selection. */
static void
select_algorithms(struct ms_options *o, char **names, size_t cnt)
{
	size_t takes = 0;

	for (size_t i = 0; i < cnt; i++)
		takes += ms_algo_takes_length(names[i]);
	if (o->length != 0 && takes == 0)
		ms_cli_refuse("--length needs a variable-length algorithm "
		    "(blake2b, blake2s, shake128, shake256, blake3, sha2, sha3)");
	if (o->length != 0 && takes > 1)
		ms_cli_refuse("--length is ambiguous with several variable-length algorithms");
	for (size_t i = 0; i < cnt; i++) {
		struct ms_digest_spec spec;
		const char *why;

		if (strcmp(names[i], "all") == 0) {
			ms_selection_add_all(&o->sel);
			continue;
		}
		if (ms_algo_resolve(names[i], ms_algo_takes_length(names[i]) ?
		    o->length : 0, &spec, &why) == -1) {
			char lengths[64];

			if (o->length && ms_algo_takes_length(names[i]))
				ms_cli_refuse("invalid length %u for '%s': %s", o->length,
				    names[i], ms_algo_lengths(names[i], lengths,
				    sizeof(lengths)));
			ms_cli_refuse("'%s': %s (see --list-algorithms)", names[i], why);
		}
		if (ms_selection_add(&o->sel, &spec) == -1)
			ms_cli_refuse("too many algorithms");
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
	if (*list == '\0' || strspn(list, ",") == strlen(list))
		ms_cli_refuse("empty algorithm list");
	free(copy);
}

/* The row of opts[] for an option's value, by its short letter or code. */
static size_t
opt_row(int val)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (opts[i].val == val)
			return i;
	ms_bug("option without a row");
}

/* Rule 2: -c, --expect and --bench choose the mode; one of them. */
static void
set_mode(struct ms_options *o, struct seen *seen, int opt, enum ms_mode mode)
{
	if (seen->mode_opt != 0 && seen->mode_opt != opt)
		ms_cli_refuse("--%s and --%s cannot be combined",
		    opts[opt_row(seen->mode_opt)].name, opts[opt_row(opt)].name);
	seen->mode_opt = opt;
	o->mode = mode;
}

static void
parse(struct ms_options *o, struct seen *seen, int argc, char **argv)
{
	struct option long_options[NOPTS + 1] = { { 0 } };
	char **names = NULL;
	size_t nnames = 0;
	int c;

	for (size_t i = 0; i < NOPTS; i++)
		long_options[i] = (struct option){ opts[i].name, opts[i].has_arg,
		    NULL, opts[i].val };
	ms_engine_defaults(&o->engine);
	o->progress = -1;
	o->checkpoint = 60;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":a:l:btzo:cwj:rLu:k", long_options,
	    NULL)) != -1) {
		if (c != ':' && c != '?')
			seen->given[opt_row(c)] = true;
		switch (c) {
		case 'a': collect_names(optarg, &names, &nnames); o->sel_given = true; break;
		case 'l': o->length = parse_length(optarg); break;
		case 'b': o->fmt.binary = true; break;
		case 't': o->fmt.binary = false; break;
		case OPT_TAG: o->tag = true; break;
		case OPT_UNTAGGED: o->format_name = "gnu"; break;
		case 'z': o->fmt.zero = true; break;
		case OPT_BASE64: o->fmt.base64 = true; break;
		case OPT_RAW: o->fmt.raw = true; break;
		case OPT_FORMAT: o->format_name = optarg; break;
		case OPT_PRINTF: o->printf_text = optarg; break;
		case OPT_TEMPLATE: o->template_file = optarg; break;
		case 'k': o->check_embedded = true; break;
		case OPT_EMBED_CRC: o->embed_crc = true; break;
		case OPT_EMBED_CRC_DELIMITER:
			if (strlen(optarg) != 1)
				ms_cli_refuse("--embed-crc-delimiter takes one "
				    "character: '%s'", optarg);
			o->embed_delim = optarg[0];
			break;
		case 'o': o->output = optarg; break;
		case OPT_MATCH:
		case OPT_UNMATCHED:
			o->unmatched = c == OPT_UNMATCHED;
			o->sets = ms_xrealloc(o->sets, (o->nsets + 1) * sizeof(*o->sets));
			o->sets[o->nsets++] = optarg;
			break;
		case 'c': set_mode(o, seen, c, MS_MODE_CHECK); break;
		case OPT_QUIET: o->quiet = true; break;
		case OPT_STATUS: o->status = true; break;
		case OPT_STRICT: o->strict = true; break;
		case 'w': o->warn = true; break;
		case OPT_IGNORE_MISSING: o->ignore_missing = true; break;
		case OPT_EXPECT: o->expect = optarg; set_mode(o, seen, c, MS_MODE_CHECK); break;
		case OPT_IO: o->engine.io = parse_io(optarg); break;
		case OPT_BUFFER_SIZE: o->engine.buffer_size = parse_bytes("buffer-size",
		    optarg, 4096, MS_BUFFER_MAX, " (4K to 64M)"); break;
		case OPT_NOCACHE: o->engine.nocache = true; break;
		case OPT_MEMORY: o->engine.memory = parse_bytes("memory", optarg,
		    MS_MEMORY_MIN, SIZE_MAX, " (at least 1M)"); break;
		case 'j': o->engine.jobs = parse_jobs(optarg); break;
		case OPT_PART_SIZE: o->param.part_size = parse_bytes("part-size",
		    optarg, MS_S3_PART_MIN, MS_S3_PART_MAX,
		    " (S3's parts are 5M to 5G)"); break;
		case OPT_BYTES_PER_CRC: o->param.bytes_per_crc = (uint32_t)parse_bytes(
		    "bytes-per-crc", optarg, 1, INT32_MAX, ""); break;
		case OPT_BLOCK_SIZE: o->param.block_size = parse_bytes("block-size",
		    optarg, 1, SIZE_MAX, ""); break;
		case 'r': o->walk.recursive = true; break;
		case 'L': o->walk.dereference = true; break;
		case OPT_EXCLUDE: add_exclude(&o->walk, optarg); break;
		case OPT_FILES_FROM: o->files_from = optarg; o->files_from_nul = false; break;
		case OPT_FILES0_FROM: o->files_from = optarg; o->files_from_nul = true; break;
		case OPT_ARCHIVE: o->archive = optarg; break;
		case OPT_STDIN_NAME: o->stdin_name = optarg; break;
		case OPT_PER_DIR: o->per_dir = optarg; break;
		case OPT_ROOT: o->root = optarg; break;
		case OPT_NAMES_ARE_DIGESTS:
			o->names_are_digests = optarg != NULL ? optarg : "";
			break;
		case OPT_TREE_DIGEST: o->tree_digest = optarg; break;
		case OPT_TREE_PREFIX: o->tree_prefix = optarg; break;
		case OPT_PIECE_SIZE: o->piece_size = parse_bytes("piece-size", optarg,
		    4096, SIZE_MAX, " (4K or more)");
			o->param.piece_length = o->piece_size; break;
		case OPT_PRIVATE: o->param.bt_private = 1; break;
		case OPT_PROGRESS: o->progress = 1; break;
		case OPT_NO_PROGRESS: o->progress = 0; break;
		case 'u': o->update = optarg; set_mode(o, seen, c, MS_MODE_UPDATE); break;
		case OPT_AUDIT: o->audit = optarg; set_mode(o, seen, c, MS_MODE_AUDIT); break;
		case OPT_MERGE: set_mode(o, seen, c, MS_MODE_MERGE); break;
		case OPT_CHECKPOINT: o->checkpoint = parse_uint("--checkpoint", optarg, 1u << 30); break;
		case OPT_PARTIAL: o->partial = true; break;
		case OPT_ACCEPT_CORRUPT: o->accept_corrupt = true; break;
		case OPT_XATTR:
			o->xattr = parse_xattr(optarg);
			set_mode(o, seen, c, MS_MODE_XATTR);
			break;
		case OPT_SHARD:
			if (ms_shard_parse(&o->shard, optarg) == -1)
				ms_cli_refuse("invalid --shard '%s' (K/N, 1 <= K <= N)", optarg);
			break;
		case OPT_PART:
			if (ms_shard_parse(&o->part, optarg) == -1)
				ms_cli_refuse("invalid --part '%s' (K/N, 1 <= K <= N)", optarg);
			break;
		case OPT_BENCH: set_mode(o, seen, c, MS_MODE_BENCH); break;
		case OPT_BENCH_TIME: o->bench_time = parse_seconds(optarg); break;
		case OPT_BENCH_BASELINE: o->bench_baseline = optarg; break;
		case OPT_ASCII: o->ascii = true; break;
		case OPT_LIST: o->mode = MS_MODE_LIST; break;
		case OPT_DEBUG: o->debug = o->engine.debug = true; break;
		case OPT_KEY_FILE: o->blake3_key_file = optarg; break;
		case OPT_KEYED: o->blake3_keyed = true; break;
		case OPT_DERIVE_KEY: o->blake3_context = optarg; break;
		case OPT_PUBKEY: o->signing.pubkey = optarg; break;
		case OPT_KEYRING: o->signing.keyring = optarg; break;
		case OPT_ALLOWED_SIGNERS:
			o->signing.allowed_signers = optarg;
			break;
		case OPT_NAMESPACE: o->signing.ns = optarg; break;
		case OPT_SIGNATURE: o->signing.signature = optarg; break;
		case OPT_SIGNER: o->signing.signer = optarg; break;
		case OPT_SIGN: o->signing.sign = optarg; break;
		case OPT_SIGN_EMBEDDED: o->signing.sign_embedded = true; break;
		case OPT_PASSPHRASE_FILE: o->signing.passphrase_file = optarg; break;
		case OPT_NO_PASSPHRASE: o->signing.no_passphrase = true; break;
		case OPT_GENERATE_KEY:
			o->signing.generate = optarg;
			set_mode(o, seen, c, MS_MODE_KEYGEN);
			break;
		case OPT_HELP: ms_cli_help(); break;
		case OPT_VERSION: ms_cli_version(); break;
		case ':':
			ms_cli_refuse("option '%s' requires an argument", argv[optind - 1]);
		default:
			if (optopt != 0 && optopt < 256)
				ms_cli_refuse("invalid option -- '%c'", optopt);
			ms_cli_refuse("unrecognized option '%s'", argv[optind - 1]);
		}
	}
	o->argc = argc;
	o->argv = argv;
	o->files = argv + optind;
	o->nfiles = (size_t)(argc - optind);
	if (o->mode == MS_MODE_LIST)
		ms_cli_list_algorithms();
	select_algorithms(o, names, nnames);
	ms_free_strings(names, nnames);
}

/* "--check, --expect, --update or --audit": the modes an option needs. */
static const char *
modes_text(unsigned modes)
{
	static const struct { unsigned bit; const char *text; } names[] = {
		{ C, "--check" }, { C, "--expect" }, { B, "--bench" },
		{ U, "--update" }, { A, "--audit" }, { M, "--merge" },
		{ X, "--xattr" }, { K, "--generate-key" },
	};
	static char buf[128];
	size_t n = 0, k = 0;

	for (size_t i = 0; i < MS_ARRAY_LEN(names); i++)
		n += (modes & names[i].bit) != 0;
	buf[0] = '\0';
	for (size_t i = 0; i < MS_ARRAY_LEN(names); i++) {
		if (!(modes & names[i].bit))
			continue;
		k++;
		strcat(buf, k == 1 ? "" : k == n ? " or " : ", ");
		strcat(buf, names[i].text);
	}
	return buf;
}

/* The option-pair rules (listed above the option table), then each mode's. */
static void
validate(struct ms_options *o, const struct seen *seen)
{
	for (size_t i = 0; i < NOPTS; i++) {
		if (!seen->given[i] || (opts[i].modes & (1u << o->mode)))
			continue;
		if (seen->mode_opt != 0)
			ms_cli_refuse("--%s cannot be used with --%s", opts[i].name,
			    opts[opt_row(seen->mode_opt)].name);
		if (opts[i].modes == C)
			ms_cli_refuse("--%s needs --check or --expect", opts[i].name);
		if (opts[i].modes == B)
			ms_cli_refuse("--%s needs --bench", opts[i].name);
		ms_cli_refuse("--%s needs %s", opts[i].name, modes_text(opts[i].modes));
	}
	for (size_t i = 0; i < MS_ARRAY_LEN(exclusive); i++) {
		size_t x = opt_row(exclusive[i][0]), y = opt_row(exclusive[i][1]);

		if (seen->given[x] && seen->given[y])
			ms_cli_refuse("--%s and --%s cannot be combined", opts[x].name,
			    opts[y].name);
	}
	for (size_t i = 0; i < MS_ARRAY_LEN(needs); i++) {
		size_t x = opt_row(needs[i][0]), y = opt_row(needs[i][1]);
		size_t z = needs[i][2] != 0 ? opt_row(needs[i][2]) : y;
		size_t w = needs[i][3] != 0 ? opt_row(needs[i][3]) : z;

		if (needs[i][0] == OPT_SIGN && seen->mode_opt == 'u')
			continue;	/* the ledger is the list signed */
		if (needs[i][0] == OPT_SIGN && seen->mode_opt == OPT_MERGE)
			z = w = y;	/* --per-dir is no --merge's */
		if (seen->given[x] && !seen->given[y] && !seen->given[z] &&
		    !seen->given[w])
			ms_cli_refuse("--%s needs --%s%s%s%s%s", opts[x].name,
			    opts[y].name, z != y ? w != z ? ", --" : " or --" : "",
			    z != y ? opts[z].name : "", w != z ? " or --" : "",
			    w != z ? opts[w].name : "");
	}
	ms_cli_mode_rules(o);
}

/* --debug: which library computes what. */
static void
debug_selection(const struct ms_options *o)
{
	for (size_t i = 0; i < o->sel.cnt; i++) {
		const struct ms_digest_spec *s = &o->sel.spec[i];
		const struct ms_digest_ops *ops = ms_spec_stream_ops(s);
		const char *v = ops->version ? ops->version() : NULL;
		const char *path = ms_spec_variant(s);
		char buf[32];

		ms_warn("%s: %s%s%s (%s)", ms_spec_name(s, buf, sizeof(buf)),
		    ops->backend, v ? " " : "", v ? v : "",
		    path != NULL ? path : s->algo->impl);
	}
	ms_warn("io=%s buffer-size=%zu jobs=%u%s",
	    o->engine.io == MS_IO_AUTO ? "auto" : o->engine.io == MS_IO_MMAP ?
	    "mmap" : "read", o->engine.buffer_size, o->engine.jobs,
	    o->engine.nocache ? " nocache" : "");
}

/* The mode's own status: 0, 1 for any failure, 2 for usage. */
static int
run_mode(const struct ms_options *o)
{
	if (o->per_dir != NULL)
		return ms_per_dir_main(o);
	switch (o->mode) {
	case MS_MODE_HASH:
		if (o->tree_digest != NULL)
			return ms_tree_digest_main(o);
		return o->part.n != 0 ? ms_part_main(o) : ms_hash_main(o);
	case MS_MODE_CHECK:
		return ms_store_wanted(o) ? ms_store_main(o) : ms_check_main(o);
	case MS_MODE_BENCH:	return ms_bench_main(o);
	case MS_MODE_UPDATE:	return ms_update_main(o);
	case MS_MODE_AUDIT:	return ms_audit_main(o);
	case MS_MODE_MERGE:	return ms_merge_main(o);
	case MS_MODE_XATTR:	return ms_xattr_main(o);
	case MS_MODE_KEYGEN:	return ms_generate_key(&o->signing);
	case MS_MODE_LIST:	break;
	}
	return MS_EXIT_USAGE;
}

int
main(int argc, char **argv)
{
	static struct ms_options o;
	static struct seen seen;
	const char *base = argc > 0 ? strrchr(argv[0], '/') : NULL;

	ms_std_fds();
	ms_close_stdout_at_exit();
	ms_program = base ? base + 1 : argc > 0 ? argv[0] : "multisum";
	if (strcmp(ms_program, "b3sum") == 0)
		return ms_b3sum_main(argc, argv);
	if (ms_personality_known(ms_program))
		return ms_personality_main(ms_program, argc, argv);
	ms_program = "multisum";
	ms_outcome_native();
	parse(&o, &seen, argc, argv);
	validate(&o, &seen);
	{
		enum ms_read_order order;
		enum ms_dev_class cls;

		if (ms_device_settings(&order, &cls) == -1)
			return MS_EXIT_USAGE;	/* it said which */
	}
	if (o.debug)
		debug_selection(&o);
	/* the mode says whether the run failed; the outcomes noted, how */
	return ms_outcome_status(run_mode(&o));
}

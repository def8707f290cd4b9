/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mode_rules.c - rule 5 of multisum.c's option rules: each mode's own
 * checks once the option table's have passed, and what they settle in
 * struct ms_options before the mode runs (the line format of hash mode,
 * --expect's digest, the algorithms --update and --audit take from their
 * manifest and --match from its sets, blake3's mode, HDFS's block size
 * against its bytes per CRC, --part's one file and digests that compose;
 * the signature options' one reader of standard input, --signer's
 * value).  Every refusal is a usage error (ms_cli_refuse); a file that
 * cannot be read is exit 1.
 */
#include "cli/mode_rules.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/help.h"
#include "digest/algorithm.h"
#include "digest/backend_hdfs.h"
#include "digest/compose.h"
#include "engine/engine.h"
#include "manifest/match_set.h"
#include "manifest/ledger.h"
#include "manifest/manifest.h"
#include "io/source.h"
#include "base/exit_status.h"
#include "io/text_input.h"
#include "io/xattr_calls.h"
#include "base/util.h"

/* The bound on the known sets' tables: --memory's (else its default),
 * into buf as --memory takes it. */
static size_t
sets_bound(const struct ms_options *o, char *buf, size_t cap)
{
	size_t m = o->engine.memory != 0 ? o->engine.memory : ms_memory_default();
	const char *unit = "KMG";
	int k = -1;

	while (k < 2 && m % 1024 == 0 && m >= 1024) {
		m /= 1024;
		k++;
	}
	snprintf(buf, cap, "%zu%.*s", m, k >= 0 ? 1 : 0, unit + (k >= 0 ? k : 0));
	return o->engine.memory != 0 ? o->engine.memory : ms_memory_default();
}

/*
 * --match, --unmatched: every SET read into one set of digests (exit 1
 * if one cannot be read); without -a the files are read for the
 * algorithms the sets hold.
 */
static void
load_sets(struct ms_options *o)
{
	struct ms_selection held = { 0 };
	bool usable = false, empty = false;
	char weak[128], mem[32];
	size_t bound = sets_bound(o, mem, sizeof(mem));

	o->match = ms_match_set_new();
	for (size_t i = 0; i < o->nsets; i++) {
		struct ms_manifest_input in;
		size_t bad = 0, got = 0;

		/* through the door, as -c reads lists; in memory --memory
		 * bounds, as any buffer of the run */
		if (ms_text_input(&in, o->sets[i]) == -1 ||
		    ms_match_set_load(o->match, &in, o->sel_given ? &o->sel : NULL,
		    bound, &bad, &got) == -1) {
			if (errno == E2BIG)
				ms_warn("%s: too large for --memory=%s", o->sets[i],
				    mem);
			else
				ms_warn("%s: %s", o->sets[i],
				    ms_text_strerror(errno));
			ms_outcome_exit(ms_text_outcome(errno));
		}
		/* a set of nothing is a wrong file, as -c's "no properly
		 * formatted lines" */
		if (got == 0) {
			ms_warn("%s: no digest in it: not a manifest or a list of "
			    "digests%s", o->sets[i], o->sel_given ?
			    " of the algorithms given" : "");
			empty = true;
		} else if (bad > 0) {
			ms_warn("%s: %zu line%s hold%s no digest: skipped",
			    o->sets[i], bad, bad == 1 ? "" : "s",
			    bad == 1 ? "s" : "");
		}
	}
	if (empty)
		exit(MS_EXIT_FAIL);
	if (ms_match_set_drop_weak(o->match, weak, sizeof(weak)) != NULL)
		ms_warn("the known sets' %s digests are not used: checksums "
		    "or under 128 bits, a match by them would prove nothing "
		    "beside the others", weak);
	else if (ms_match_set_weak(o->match))
		ms_warn("the known sets hold only checksums or digests under "
		    "128 bits: a file of other content can match by chance or "
		    "by design");
	ms_match_set_algorithms(o->match, &held);
	if (!o->sel_given)
		o->sel = held;
	for (size_t i = 0; i < o->sel.cnt; i++)
		for (size_t k = 0; k < held.cnt; k++)
			usable |= o->sel.spec[i].algo == held.spec[k].algo &&
			    o->sel.spec[i].bits == held.spec[k].bits;
	if (!usable)
		ms_warn("the known sets hold no digest%s: %s", held.cnt > 0 ?
		    " of the algorithms given" : "", o->unmatched ?
		    "every file is unmatched" : "no file can match");
	if (o->debug) {
		char names[256] = "", nb[32];
		size_t used = 0;

		/* which algorithm each digest was read as (a bare 32-digit
		 * one is md5 by its length, unless -a says otherwise) */
		for (size_t k = 0; k < held.cnt && used < sizeof(names); k++)
			used += (size_t)snprintf(names + used, sizeof(names) - used,
			    "%s%s", k > 0 ? "," : "", ms_spec_name(&held.spec[k],
			    nb, sizeof(nb)));
		ms_warn("known sets: %zu digests (%s) in %zu bytes of tables",
		    ms_match_set_count(o->match), names,
		    ms_match_set_bytes(o->match));
	}
}

/* --format=hashdeep: its columns (md5,sha256 unless -a), hex lines. */
static void
hashdeep_format(struct ms_options *o)
{
	const char *why;

	/* hashdeep's default columns */
	for (const char *n = "md5\0sha256\0"; o->sel.cnt < 2 && !o->sel_given &&
	    *n != '\0'; n += strlen(n) + 1) {
		struct ms_digest_spec s;

		if (ms_algo_resolve(n, 0, &s, &why) == -1)
			ms_bug("no md5 or sha256");
		ms_selection_add(&o->sel, &s);
	}
	if ((why = ms_format_hashdeep_refuses(&o->sel)) != NULL)
		ms_cli_refuse("%s", why);
	if (o->fmt.base64 || o->fmt.zero || o->fmt.binary)
		ms_cli_refuse("--format=hashdeep writes hex lines: no --%s",
		    o->fmt.base64 ? "base64" : o->fmt.zero ? "zero" : "binary");
	o->fmt.format = MS_FORMAT_HASHDEEP;
}

/* No algorithm chosen (nor found in a manifest): sha256. */
static void
default_algorithm(struct ms_options *o)
{
	struct ms_digest_spec def;
	const char *why;

	if (o->sel.cnt > 0)
		return;
	if (ms_algo_resolve("sha256", 0, &def, &why) == -1)
		ms_bug("no sha256");
	ms_selection_add(&o->sel, &def);
}

/* --template FILE's bytes, NUL-terminated; *len without the NUL. */
static char *
read_template(const char *path, size_t *len)
{
	const char *encoding;
	FILE *fp = ms_text_open(path, &encoding);
	char *text = NULL;
	size_t n = 0, got = 0;

	if (fp == NULL)
		ms_cli_refuse("%s: %s", path, ms_text_strerror(errno));
	do {
		text = ms_xrealloc(text, n += 4096);
		got += fread(text + got, 1, n - got - 1, fp);
	} while (got == n - 1 && !feof(fp) && !ferror(fp));
	if (ferror(fp))
		ms_cli_refuse("%s: %s", path, ms_strerror(errno));
	ms_text_close(fp);
	text[got] = '\0';
	*len = strlen(text);	/* RHash's template ends at a NUL byte */
	return text;
}

/* --printf, --template: the template and the digests it names, with -a's
 * (a template without one still reads the file: crc32, printed by none) */
static void
printf_format(struct ms_options *o)
{
	size_t len = 0;
	char *text = o->printf_text != NULL ? ms_xstrdup(o->printf_text) :
	    read_template(o->template_file, &len);
	const char *why = NULL;
	struct ms_digest_spec crc;

	if (o->printf_text != NULL)
		len = strlen(text);
	if ((o->printf = ms_printf_parse(text, len, &why)) == NULL)
		ms_cli_refuse("invalid --%s: %s", o->printf_text != NULL ?
		    "printf" : "template", why);
	free(text);
	if (ms_printf_select(o->printf, &o->sel) == -1)
		ms_cli_refuse("too many algorithms");
	if (o->sel.cnt == 0 && ms_algo_resolve("crc32", 0, &crc, &why) == 0)
		ms_selection_add(&o->sel, &crc);
}

/* --format=magnet: RHash's links, its digests by default */
static void
magnet_format(struct ms_options *o)
{
	const char *why = ms_magnet_select(&o->sel);

	if (why != NULL)
		ms_cli_refuse("--format=magnet: %s", why);
	o->magnet = true;
}

/* -k, --embed-crc: crc32 among the digests; --embed-crc's lines are SFV's
 * by default, as RHash's */
static void
embedded_crc(struct ms_options *o)
{
	struct ms_digest_spec crc;
	const char *why;
	bool has = false;

	if (ms_algo_resolve("crc32", 0, &crc, &why) == -1)
		ms_bug("no crc32");
	for (size_t i = 0; i < o->sel.cnt; i++)
		has |= ms_spec_same(&o->sel.spec[i], &crc);
	if (!has && ms_selection_add(&o->sel, &crc) == -1)
		ms_cli_refuse("too many algorithms");
	if (o->embed_crc && o->sel.cnt == 1 && o->format_name == NULL &&
	    !o->tag && o->printf_text == NULL && o->template_file == NULL)
		o->format_name = "sfv";
	if (o->embed_delim == '\0')
		o->embed_delim = ' ';
}

/* Hash mode: the line format from --format, --tag and the algorithm count. */
static void
choose_format(struct ms_options *o)
{
	const char *f;

	if (o->check_embedded || o->embed_crc)
		embedded_crc(o);
	f = o->format_name;
	if (o->printf_text != NULL || o->template_file != NULL)
		printf_format(o);
	else if (f != NULL && strcmp(f, "magnet") == 0)
		magnet_format(o);
	if (f == NULL || strcmp(f, "hashdeep") != 0)
		default_algorithm(o);
	/* signify -C reads BSD-tagged lines only: a list it would reject
	 * is refused, and without a format the tags are implied (the same
	 * digests, nothing lost; -c reads both) */
	if (o->signing.sign_embedded && f != NULL && strcmp(f, "bsd") != 0)
		ms_cli_refuse("--sign-embedded writes BSD-tagged lines (signify "
		    "-C reads no other), not --format=%s%s", f,
		    strcmp(f, "gnu") == 0 ? " (--untagged)" : "");
	if (o->signing.sign_embedded && o->fmt.zero)
		ms_cli_refuse("--sign-embedded writes lines signify -C reads: "
		    "newline-ended, not -z's");
	if (o->signing.sign_embedded && f == NULL && !o->tag) {
		if (o->sel.cnt == 1)
			ms_warn("--sign-embedded: the lines are BSD-tagged, as "
			    "--tag writes them (signify -C reads no other)");
		o->tag = true;
	}
	if (f == NULL)
		o->fmt.format = o->tag || o->sel.cnt > 1 ? MS_FORMAT_BSD : MS_FORMAT_GNU;
	else if (strcmp(f, "magnet") == 0)
		o->fmt.format = MS_FORMAT_GNU;	/* its lines are magnet's */
	else if (ms_format_named(f, strlen(f), &o->fmt.format) == -1)
		ms_cli_refuse("invalid --format '%s' (gnu, bsd, sfv, ndjson, "
		    "hashdeep or magnet)", f);
	else if (o->fmt.format == MS_FORMAT_HASHDEEP)
		hashdeep_format(o);
	if (o->fmt.format == MS_FORMAT_GNU && o->sel.cnt > 1 && !o->magnet &&
	    o->printf == NULL)
		ms_cli_refuse("--format=gnu (--untagged) takes exactly one algorithm");
	if (o->fmt.format == MS_FORMAT_SFV &&
	    (o->sel.cnt != 1 || strcmp(o->sel.spec[0].algo->name, "crc32") != 0))
		ms_cli_refuse("--format=sfv takes the crc32 algorithm only");
	/* An archive without an operand may hold any number of members. */
	if (o->fmt.raw && (o->nfiles > 1 || o->walk.recursive || o->files_from ||
	    (o->archive != NULL && o->nfiles != 1)))
		ms_cli_refuse("--raw takes a single input");
	if (o->shard.n > 0 && ((o->fmt.format != MS_FORMAT_GNU && o->fmt.format !=
	    MS_FORMAT_BSD) || o->fmt.zero || o->fmt.raw))	/* '#' bookkeeping */
		ms_cli_refuse("--shard writes gnu or bsd lines only (its bookkeeping)");
}

/* --part=K/N: one regular FILE, and digests that compose. */
static void
check_part(const struct ms_options *o)
{
	uint64_t unit;
	size_t bad;
	bool pow2;
	const char *why;

	if (o->nfiles != 1 || ms_source_is_stream(o->files[0]))
		ms_cli_refuse("--part takes exactly one FILE, not standard input "
		    "or a stream");
	if (ms_compose_unit(&o->sel, &unit, &pow2, &why, &bad) == -1)
		ms_cli_refuse("--part: '%s' %s", o->sel.spec[bad].algo->name, why);
}

/* --expect=DIGEST: decoded once, for check mode to compare with. */
static void
decode_expect(struct ms_options *o)
{
	const char *why;

	if (ms_manifest_expect(o->expect, o->sel_given ? &o->sel : NULL,
	    &o->expect_entry, &why) == 0)
		return;
	if (why != NULL)
		ms_cli_refuse("--expect: '%s': ambiguous length (%s): name the "
		    "algorithm with -a or a prefix (crc32:HEX)", o->expect, why);
	ms_cli_refuse("--expect: '%s' is not a digest of %s", o->expect,
	    o->sel_given ? "the algorithm given with -a" :
	    "a known length (or give -a)");
}

/* --bench: its --format and --bench-baseline values. */
static void
check_bench(struct ms_options *o)
{
	const char *f = o->format_name ? o->format_name : "table";
	const char *why;

	if (strcmp(f, "table") != 0 && strcmp(f, "csv") != 0 &&
	    strcmp(f, "json") != 0)
		ms_cli_refuse("invalid --format '%s' for --bench (table, csv or json)", f);
	if (ms_algo_resolve(o->bench_baseline ? o->bench_baseline : "sha256", 0,
	    &o->bench_base, &why) == -1)
		ms_cli_refuse("invalid --bench-baseline: '%s' (see --list-algorithms)",
		    o->bench_baseline);
}

/* --update and --audit without -a: the manifest's algorithms, else sha256. */
static void
manifest_algorithms(struct ms_options *o, const char *manifest)
{
	struct ms_manifest_input in;

	/* one that cannot be read is said once, by the mode that loads it */
	if (!o->sel_given && ms_text_input(&in, manifest) == 0)
		(void)ms_ledger_scan(&in, &o->sel);
	ms_selection_set_params(&o->sel, &o->param);
	default_algorithm(o);
}

/* --update: the manifest's lines are gnu or bsd; ndjson reports fates. */
static void
check_update(struct ms_options *o)
{
	const char *f = o->format_name;
	bool gnu = f != NULL && strcmp(f, "gnu") == 0;
	bool bsd = f != NULL && strcmp(f, "bsd") == 0;

	manifest_algorithms(o, o->update);
	if (f != NULL && !gnu && !bsd && strcmp(f, "ndjson") != 0)
		ms_cli_refuse("--update writes gnu or bsd lines (--format=ndjson "
		    "reports each file's fate)");
	if (gnu && o->sel.cnt > 1)
		ms_cli_refuse("--format=gnu (--untagged) takes exactly one algorithm");
	o->fmt.format = bsd || o->tag || o->sel.cnt > 1 ? MS_FORMAT_BSD :
	    MS_FORMAT_GNU;
}

/* Is the row named name in o's selection? */
static bool
selected_row(const struct ms_options *o, const char *name)
{
	for (size_t i = 0; i < o->sel.cnt; i++)
		if (strcmp(o->sel.spec[i].algo->name, name) == 0)
			return true;
	return false;
}

/*
 * Hash mode, the digests chosen (--printf's and magnet's too): btih's
 * --piece-size and --private need it, and its specs take them.
 */
static void
btih_params(struct ms_options *o)
{
	if (!selected_row(o, "btih") &&
	    (o->param.piece_length != 0 || o->param.bt_private))
		ms_cli_refuse("--%s needs -a btih", o->param.bt_private ?
		    "private" : "piece-size");
	ms_selection_set_params(&o->sel, &o->param);
}

/*
 * --key-file, --keyed, --derive-key: the mode of every blake3 digest,
 * into the parameters that the selection's specs then take (with
 * --part-size's, and btih's --piece-size and --private).
 */
static void
digest_params(struct ms_options *o)
{
	bool selected;
	uint64_t bpc = o->param.bytes_per_crc ? o->param.bytes_per_crc :
	    MS_HDFS_BYTES_PER_CRC;
	uint64_t block = o->param.block_size ? o->param.block_size :
	    MS_HDFS_BLOCK_SIZE;

	/* HDFS's rule: a block holds whole chunks */
	if (block % bpc != 0)
		ms_cli_refuse("--block-size (%ju) must be a multiple of "
		    "--bytes-per-crc (%ju)", (uintmax_t)block, (uintmax_t)bpc);

	if (o->blake3_key_file == NULL && !o->blake3_keyed &&
	    o->blake3_context == NULL) {
		ms_selection_set_params(&o->sel, &o->param);
		return;
	}
	selected = selected_row(o, "blake3");
	if (o->mode == MS_MODE_HASH && !selected)
		ms_cli_refuse("--%s needs -a blake3", o->blake3_context ? "derive-key" :
		    o->blake3_keyed ? "keyed" : "key-file");
	if (o->blake3_keyed) {
		bool stdin_read = o->nfiles == 0 && o->files_from == NULL;

		for (size_t i = 0; i < o->nfiles; i++)
			stdin_read |= strcmp(o->files[i], "-") == 0;
		if (stdin_read)
			ms_cli_refuse("--keyed reads the key from standard input, "
			    "which cannot also be an input");
	}
	if (o->blake3_context != NULL) {
		o->param.key_mode = MS_KEY_DERIVE;
		o->param.context = o->blake3_context;
	} else if (ms_params_key_file(&o->param, o->blake3_key_file) == -1)
		ms_outcome_exit(MS_OUTCOME_RETRY);	/* unreadable, not usage */
	ms_selection_set_params(&o->sel, &o->param);
}

/* --names-are-digests[=ALG]: an algorithm of the table; directories. */
static void
names_are_digests(const struct ms_options *o)
{
	struct ms_digest_spec spec;
	const char *why;

	if (o->names_are_digests[0] != '\0' &&
	    ms_algo_resolve(o->names_are_digests, 0, &spec, &why) == -1)
		ms_cli_refuse("invalid --names-are-digests '%s': %s",
		    o->names_are_digests, why);
	if (o->nfiles == 0)
		ms_cli_refuse("--names-are-digests needs a directory operand");
}

/* --tree-digest=go-h1: one directory or zip file. */
static void
tree_digest(const struct ms_options *o)
{
	if (strcmp(o->tree_digest, "go-h1") != 0)
		ms_cli_refuse("invalid --tree-digest '%s' (go-h1)", o->tree_digest);
	if (o->nfiles != 1)
		ms_cli_refuse("--tree-digest takes one directory or zip file");
	if (o->walk.recursive)
		ms_cli_refuse("--tree-digest walks its directory itself (no -r)");
}

/* --per-dir=NAME: a file name, -r's trees; gnu or bsd lines. */
static void
per_dir(const struct ms_options *o)
{
	const char *n = o->per_dir;

	if (*n == '\0' || strchr(n, '/') != NULL || strcmp(n, ".") == 0 ||
	    strcmp(n, "..") == 0)
		ms_cli_refuse("invalid --per-dir '%s' (a file name, such as "
		    "SHA256SUMS)", n);
	if (!o->walk.recursive)
		ms_cli_refuse("--per-dir needs -r (a manifest in each folder of "
		    "the trees)");
	if (o->mode == MS_MODE_HASH && o->fmt.format != MS_FORMAT_GNU &&
	    o->fmt.format != MS_FORMAT_BSD)
		ms_cli_refuse("--per-dir writes gnu or bsd lines");
}

/* --stdin-name=NAME: a name, for standard input read as an input. */
static void
stdin_name(const struct ms_options *o)
{
	bool read = o->nfiles == 0 && o->files_from == NULL;

	for (size_t i = 0; i < o->nfiles; i++)
		read |= strcmp(o->files[i], "-") == 0;
	if (*o->stdin_name == '\0')
		ms_cli_refuse("--stdin-name needs a name");
	if (!read)
		ms_cli_refuse("--stdin-name names standard input, which is not "
		    "an input here (give - or no FILE)");
}

/* Signed lists: what the option table cannot say (rule 5). */
static void
check_signing(const struct ms_options *o)
{
	const struct ms_signature_opts *g = &o->signing;
	/* the files a run may read from standard input, and who reads them */
	const struct { const char *path, *what; } reads[] = {
		{ g->signature, "--signature" }, { g->pubkey, "--pubkey" },
		{ g->keyring, "--keyring" },
		{ g->allowed_signers, "--allowed-signers" }, { g->passphrase_file,
		"--passphrase-file" }, { o->files_from, "--files-from" },
	};
	const char *first = NULL;
	bool stdin_operand = o->nfiles == 0 && o->files_from == NULL &&
	    o->mode != MS_MODE_KEYGEN;

	for (size_t i = 0; i < o->nfiles; i++)
		stdin_operand |= strcmp(o->files[i], "-") == 0;
	if (stdin_operand)
		first = o->mode == MS_MODE_CHECK ? "the list" : "an input";
	for (size_t i = 0; i < MS_ARRAY_LEN(reads); i++) {
		if (reads[i].path == NULL || strcmp(reads[i].path, "-") != 0)
			continue;
		if (first != NULL)
			ms_cli_refuse("%s=- and %s cannot both read standard input",
			    reads[i].what, first);
		first = reads[i].what;
	}
	if (g->signature != NULL && o->nfiles > 1)
		ms_cli_refuse("--signature names the signature of one list, not %zu",
		    o->nfiles);
	if (g->ns != NULL && *g->ns == '\0')
		ms_cli_refuse("--namespace needs a name");
	if (g->signer != NULL && g->keyring != NULL &&
	    ms_signature_fingerprint(g->signer, NULL) == -1)
		ms_cli_refuse("invalid --signer '%s' (an OpenPGP fingerprint: 40 or 64 "
		    "hex digits)", g->signer);
	if (o->mode == MS_MODE_KEYGEN && o->nfiles > 0)
		ms_cli_refuse("--generate-key takes no FILE operand");
}

void
ms_cli_mode_rules(struct ms_options *o)
{
	digest_params(o);
	check_signing(o);
	switch (o->mode) {
	case MS_MODE_HASH:
		if (o->tree_digest != NULL)
			tree_digest(o);
		if (o->nsets > 0)
			load_sets(o);
		choose_format(o);
		btih_params(o);
		if (o->part.n != 0)
			check_part(o);
		if (o->stdin_name != NULL)
			stdin_name(o);
		break;
	case MS_MODE_CHECK:
		/* -r, -L and --exclude walk trees only to find --per-dir's */
		if (o->per_dir == NULL && (o->walk.recursive ||
		    o->walk.dereference || o->walk.nexcludes > 0))
			ms_cli_refuse("--%s cannot be used with --%s",
			    o->walk.recursive ? "recursive" : o->walk.dereference ?
			    "dereference" : "exclude", o->expect ? "expect" : "check");
		if (o->expect != NULL)
			decode_expect(o);
		if (o->names_are_digests != NULL)
			names_are_digests(o);
		break;
	case MS_MODE_BENCH:	check_bench(o); break;
	case MS_MODE_LIST:	break;
	case MS_MODE_UPDATE:	check_update(o); break;
	case MS_MODE_AUDIT:
		if (o->format_name != NULL && strcmp(o->format_name, "ndjson") != 0)
			ms_cli_refuse("--audit prints a report: --format=ndjson or none");
		manifest_algorithms(o, o->audit);
		break;
	case MS_MODE_MERGE:
		if (o->nfiles == 0)
			ms_cli_refuse("--merge needs the shard manifests as operands");
		break;
	case MS_MODE_XATTR:
		if (o->format_name != NULL && strcmp(o->format_name, "ndjson") != 0)
			ms_cli_refuse("--xattr prints a report: --format=ndjson or none");
		if (!ms_xattr_supported())
			ms_cli_refuse("--xattr: " MS_XATTR_UNSUPPORTED);
		break;
	case MS_MODE_KEYGEN:	break;
	}
	if (o->per_dir != NULL)
		per_dir(o);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * options.h - everything the command line decided, as one struct that
 * main() fills and checks (multisum.c's option-pair rules) and the modes
 * (hash.h, check.h, bench.h) then only read.
 */
#ifndef MS_OPTIONS_H
#define MS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "digest/digest_set.h"
#include "engine/engine.h"
#include "manifest/format.h"
#include "manifest/format_printf.h"
#include "manifest/match_set.h"
#include "manifest/manifest.h"
#include "manifest/shard.h"
#include "io/walk.h"
#include "signature/signature.h"

enum ms_mode { MS_MODE_HASH, MS_MODE_CHECK, MS_MODE_BENCH, MS_MODE_LIST,
    MS_MODE_UPDATE, MS_MODE_AUDIT, MS_MODE_MERGE, MS_MODE_XATTR,
    MS_MODE_KEYGEN };

/* --xattr=update|audit */
enum ms_xattr_mode { MS_XATTR_OFF, MS_XATTR_UPDATE, MS_XATTR_AUDIT };

struct ms_options {
	enum ms_mode	 mode;
	struct ms_selection sel;	/* the algorithms, in the order given */
	bool		 sel_given;	/* -a was given */
	unsigned	 length;	/* -l, in bits; 0 if not given */
	const char	*blake3_key_file;	/* --key-file */
	bool		 blake3_keyed;		/* --keyed: the key on stdin */
	const char	*blake3_context;	/* --derive-key */
	/* --part-size and the key: every spec takes those its row reads,
	 * those of sel when validated, a manifest's as the mode reads it */
	struct ms_digest_params param;

	/* hashing output */
	struct ms_format_opts fmt;
	bool		 tag;		/* --tag */
	const char	*format_name;	/* --format, read by the mode */
	/* RHash's output (format_printf.c): --printf's template or
	 * --template's file, parsed by the mode's rules; --format=magnet */
	const char	*printf_text;
	const char	*template_file;
	struct ms_printf *printf;
	bool		 magnet;
	/* CRC32s in names (embedded.c): -k checks them, --embed-crc adds
	 * them with its delimiter (--embed-crc-delimiter, ' ' by default) */
	bool		 check_embedded;
	bool		 embed_crc;
	char		 embed_delim;
	const char	*output;	/* -o FILE, written atomically */
	/* --match=SET / --unmatched=SET: the sets' files, and the digests
	 * they hold once main loaded them */
	const char	**sets;
	size_t		 nsets;
	bool		 unmatched;
	struct ms_match_set *match;
	const char	*per_dir;	/* --per-dir=NAME (per_dir.c) */
	/* --names-are-digests[=ALG] ("" without ALG; store.c) */
	const char	*names_are_digests;
	/* --tree-digest=go-h1 and --tree-prefix=PREFIX (tree_digest.c) */
	const char	*tree_digest, *tree_prefix;

	/* checking */
	bool		 quiet, status, strict, warn, ignore_missing;
	const char	*expect;	/* --expect=HEX */
	struct ms_manifest_entry expect_entry;	/* its digest, decoded */
	const char	*root;		/* --root: a torrent's files' folder, a
					 * Debian Packages index's tree, what a
					 * Python RECORD's or an attestation's
					 * names are below */

	/* signed lists: -c's keys, --sign, --generate-key (MS_MODE_KEYGEN) */
	struct ms_signature_opts signing;

	/* reading */
	struct ms_engine_config engine;
	struct ms_walk_opts walk;
	const char	*files_from;	/* --files-from / --files0-from */
	bool		 files_from_nul;
	const char	*archive;	/* --archive */
	const char	*stdin_name;	/* --stdin-name: "-" so named in output */
	int		 progress;	/* -1 auto, 0 never, 1 always */

	/* keeping manifests over time (update.c, audit.c, merge.c) */
	const char	*update;	/* --update=MANIFEST */
	const char	*audit;		/* --audit=MANIFEST */
	struct ms_shard	 shard;		/* --shard=K/N; n = 0 when off */
	unsigned	 checkpoint;	/* --checkpoint, seconds; 0: at the end */
	bool		 partial;	/* --merge --partial */
	bool		 accept_corrupt;	/* --update: record a corrupt file */
	enum ms_xattr_mode xattr;	/* --xattr (xattr.c) */
	uint64_t	 piece_size;	/* --piece-size: "#%" pieces, 0 none */
	struct ms_shard	 part;		/* --part=K/N; n = 0 when off */

	/* benchmark */
	double		 bench_time;	/* seconds, 0 = default */
	const char	*bench_baseline;
	struct ms_digest_spec bench_base;	/* --bench-baseline, resolved */
	bool		 ascii;

	bool		 debug;

	/* the operands, as given, and the whole command line */
	char		**files;
	size_t		 nfiles;
	int		 argc;
	char		**argv;
};

#endif

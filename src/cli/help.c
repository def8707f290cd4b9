/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * help.c - what multisum prints and exits with when asked about itself:
 * --help, --version and --list-algorithms, and the one line of a usage
 * error (ms_cli_refuse, for multisum.c and mode_rules.c).
 *
 * Owns the help text (one block per option group, in the order of the
 * option table in multisum.c) and nothing else: it parses no option and
 * runs no mode.  Each function exits, with status 1 if standard output
 * could not be written (2 after a usage error).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/help.h"
#include "digest/algorithm.h"
#include "base/exit_status.h"
#include "base/util.h"
#include "base/version.h"

/*
 * Exit after writing what the user asked for to standard output: if it
 * could not all be written (a full disk, a closed descriptor), say so and
 * fail, as coreutils does, instead of exiting 0 with the text lost.
 */
static _Noreturn void
exit_flushed(void)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		ms_write_error();
		ms_outcome_exit(MS_OUTCOME_RETRY);
	}
	exit(MS_EXIT_OK);
}

_Noreturn void
ms_cli_help(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n"
	    "  or:  %s -c [OPTION]... [MANIFEST]...\n"
	    "  or:  %s -c [--names-are-digests[=ALG]] [OPTION]... DIR...\n"
	    "  or:  %s --tree-digest=go-h1 [--tree-prefix=PREFIX] DIR|ZIP\n"
	    "  or:  %s -r --update=MANIFEST [OPTION]... [DIR]...\n"
	    "  or:  %s -r --audit=MANIFEST [OPTION]... [DIR]...\n"
	    "  or:  %s --part=K/N [OPTION]... FILE\n"
	    "  or:  %s --merge [-o MANIFEST] SHARD-MANIFEST...|PART-RECORD...\n"
	    "  or:  %s -r --xattr=update|audit [OPTION]... [DIR]...\n"
	    "  or:  %s [-c] -r --per-dir=NAME [OPTION]... [DIR]...\n"
	    "  or:  %s --bench [OPTION]... [FILE]...\n"
	    "  or:  %s --generate-key=NAME\n"
	    "  or:  %s --list-algorithms\n", ms_program, ms_program,
	    ms_program, ms_program,
	    ms_program, ms_program, ms_program, ms_program, ms_program,
	    ms_program, ms_program, ms_program, ms_program);
	fputs(
"Print or check checksums of FILEs, reading each file once for every\n"
"selected algorithm (default: SHA-256).  With no FILE, or when FILE is -,\n"
"read standard input.\n"
"\n"
"Algorithms:\n"
"  -a, --algorithm=LIST   comma-separated algorithms; may repeat; 'all' selects\n"
"                         every one (see --list-algorithms)\n"
"  -l, --length=BITS      digest length of the variable-length algorithm\n"
"                         (blake2b, blake2s, shake128, shake256, blake3,\n"
"                         sha2, sha3)\n"
"      --key-file=FILE    blake3 in keyed mode, the 32-byte key read from FILE\n"
"      --keyed            the same with the key read from standard input\n"
"      --derive-key=CONTEXT  blake3 in key derivation mode with CONTEXT\n"
"      --part-size=SIZE   part size of s3etag, s3-crc32, s3-crc32c, s3-sha1 and\n"
"                         s3-sha256, S3's multipart checksums (default 8M;\n"
"                         S3's limits: 5M to 5G, 10,000 parts)\n"
"      --bytes-per-crc=N  HDFS's bytes per CRC of hdfs-md5md5crc32c (default 512)\n"
"      --block-size=SIZE  HDFS's block size of hdfs-md5md5crc32c (default 128M)\n"
"      --piece-size=SIZE  btih's piece length (default rhash's: 16K, from 16M\n"
"                         on the size/512 rounded down to a power of two, at\n"
"                         most 8M)\n"
"      --private          btih of a private torrent\n"
"      --list-algorithms  list the algorithms of this build and exit\n"
"\n"
"Output:\n"
"  -b, --binary           mark names with '*' (GNU format)\n"
"  -t, --text             mark names with ' ' (the default)\n"
"      --tag              BSD-style lines: ALG (NAME) = DIGEST\n"
"      --untagged         GNU lines (one algorithm): DIGEST  NAME\n"
"      --format=FORMAT    gnu, bsd, sfv (crc32 only), ndjson, hashdeep\n"
"                         (md5,sha256 unless -a) or magnet (RHash's links:\n"
"                         tth,ed2k,aich unless -a); with --bench: table,\n"
"                         csv or json\n"
"      --base64           digests in base64 instead of hex\n"
"      --raw              the bare binary digest of a single input\n"
"  -z, --zero             end lines with NUL, not newline; no name escaping\n"
"                           (with -c: read NUL-terminated manifests)\n"
"      --printf=TEMPLATE  write TEMPLATE per file, as rhash --printf: \\n \\t\n"
"                         \\0 \\NNN \\xNN escapes; %p %f %s %{mtime} %u/%U;\n"
"                         %c %m %h %t %a %e %w %r %g %l, %{md5}, %{sha-256}\n"
"                         ... (RHash's names; a capital: upper case);\n"
"                         %x %b %B %@ prefixes: hex, base32, base64, raw\n"
"      --template=FILE    the same, the template read from FILE\n"
"  -k, --check-embedded   check the CRC32 each name carries, as [XXXXXXXX]\n"
"                         or (XXXXXXXX): NAME: OK or NAME: FAILED\n"
"      --embed-crc        rename each file to carry its CRC32: NAME [CRC].EXT\n"
"                         (never over another file; one that carries a CRC\n"
"                         is left as it is)\n"
"      --embed-crc-delimiter=C  C before [CRC] instead of a space\n"
"  -o, --output=FILE      write the manifest to FILE, atomically: FILE is\n"
"                         replaced only when every line was written\n"
"\n"
"Checking:\n"
"  -c, --check            verify the checksums listed in MANIFESTs; a\n"
"                         FILE.torrent (v1, v2, hybrid) piece by piece\n"
"      --expect=DIGEST    verify one FILE against DIGEST (algorithm from -a,\n"
"                         else from the digest's length)\n"
"      --root=DIR         with -c FILE.torrent: the folder its files are in\n"
"                         (default: the torrent's own); with -c Packages:\n"
"                         the folder its Filename paths are under (default:\n"
"                         the folder above its dists/); with -c RECORD:\n"
"                         the folder its names are below (default: the\n"
"                         folder above its *.dist-info); with -c on an\n"
"                         attestation: its names' folder (default: its own)\n"
"      --ignore-missing   do not fail or report for missing files\n"
"      --quiet            do not print OK for each verified file\n"
"      --status           print nothing; the exit status tells\n"
"      --strict           exit non-zero for improperly formatted lines, and\n"
"                         for files a Debian Release lists that are absent\n"
"  -w, --warn             warn about improperly formatted lines\n"
"\n"
"Content-addressed stores and trees:\n"
"  -c DIR                 check a store whose files are named by their digests:\n"
"                         an OCI image layout (blobs/ALG/HEX), a restic\n"
"                         repository (no password needed), git-lfs objects\n"
"      --names-are-digests[=ALG]  with -c DIR: any directory, every file's\n"
"                         name its ALG digest (default sha256); other names\n"
"                         are said and skipped (--strict: fail the run)\n"
"      --tree-digest=go-h1  print Go's h1: digest of one DIR or ZIP\n"
"                         (golang.org/x/mod dirhash Hash1)\n"
"      --tree-prefix=PREFIX  the names' prefix in it (module@version)\n"
"\n"
"Signed lists:\n"
"      --pubkey=KEY       with -c: the list's signify, minisign or SSH signature\n"
"                         must verify with KEY (a .pub file, minisign's\n"
"                         base64 key, or an OpenSSH KEY.pub) before any file\n"
"                         is checked; for an attestation (.intoto.jsonl,\n"
"                         .sigstore.json), a PEM key (ECDSA P-256 or\n"
"                         Ed25519) its DSSE signature\n"
"      --keyring=FILE     with -c: its OpenPGP signature must verify, through\n"
"                         gpgv, with a key of FILE (a keyring or an exported\n"
"                         key, armoured or not)\n"
"      --signature=FILE   the list's signature (default: LIST.minisig, LIST.sig,\n"
"                         LIST.asc, LIST.gpg, LIST.sign, else inside LIST)\n"
"      --allowed-signers=FILE  with -c: its SSH signature (ssh-keygen -Y sign)\n"
"                         must verify with a key of FILE (OpenSSH's allowed\n"
"                         signers format: principals, namespaces=, valid-*)\n"
"      --signer=ID        with --keyring: the signing key's fingerprint; with\n"
"                         --allowed-signers: the principal (default: any)\n"
"      --namespace=NS     SSH signatures' namespace (default: file)\n"
"      --sign=SECRET-KEY  sign each list written (-o, -u, --merge, --per-dir;\n"
"                         minisign key: LIST.minisig; signify key: LIST.sig;\n"
"                         OpenSSH private key: the LIST.sig of ssh-keygen\n"
"                         -Y sign), written with it atomically\n"
"      --sign-embedded    signify: LIST.sig holds the signature, then the list\n"
"                         (BSD-tagged lines, which signify -C reads)\n"
"      --passphrase-file=FILE  the secret key's passphrase (first line of FILE)\n"
"      --generate-key=NAME  make a minisign key pair NAME.key and NAME.pub\n"
"      --no-passphrase    with --generate-key: do not encrypt NAME.key\n"
"\n"
"Reading:\n"
"  -r, --recursive        hash the files below directory operands\n"
"  -L, --dereference      follow symbolic links found inside directories\n"
"      --exclude=GLOB     skip names matching GLOB (may repeat)\n"
"      --files-from=FILE  read operands from FILE, one per line (- is stdin)\n"
"      --files0-from=FILE read NUL-terminated operands from FILE\n"
"      --stdin-name=NAME  name standard input NAME in the output (not -)\n"
"      --archive=ARCHIVE  hash (or check) the members of ARCHIVE without\n"
"                         extracting it; operands select members\n"
"      --io=MODE          auto, mmap or read\n"
"      --buffer-size=SIZE bytes per read (K, M; default 256K, at most 64M)\n"
"      --nocache          drop each file from the page cache once it is read\n"
"                         (a scrub of a big archive then evicts nothing else)\n"
"      --memory=SIZE      bound on all buffers (K, M, G; default: a quarter\n"
"                         of the available memory)\n"
"  -j, --jobs=N           worker threads (default: the CPUs it may run on)\n"
"      --progress         show a progress line on standard error\n"
"      --no-progress      never show it\n"
"\n"
"Keeping manifests over time:\n"
"  -u, --update=MANIFEST  bring MANIFEST in line with the tree, hashing only\n"
"                         new and changed files (bookkeeping in '#' lines)\n"
"      --accept-corrupt   --update: record the new content of a corrupt file\n"
"                         (other content, same size and time), which is\n"
"                         otherwise said, kept out of MANIFEST, and exit 1\n"
"      --checkpoint=SECONDS  --update: save the work done every SECONDS\n"
"                         (default 60; 0: only at the end) to resume a kill\n"
"      --audit=MANIFEST   read every file and report modified, corrupt, moved,\n"
"                         new and missing ones (with --update's pieces, the\n"
"                         byte ranges of a corrupt file that changed)\n"
"      --piece-size=SIZE  with --update: also a CRC-64 of each SIZE piece of\n"
"                         every file, in the bookkeeping ('#%' lines)\n"
"      --shard=K/N        keep only the files of shard K of N (hashing, -c,\n"
"                         --update, --audit)\n"
"      --merge            merge shard manifests, or a file's part records,\n"
"                         into one (-o MANIFEST)\n"
"      --partial          --merge: merge the shards there are (or manifests\n"
"                         without shard bookkeeping), naming those missing\n"
"      --part=K/N         hash part K of N of one FILE into a record for\n"
"                         --merge (the CRCs, blake3, s3*, dropbox, hdfs*)\n"
"\n"
"For archivists:\n"
"      --xattr=update     keep each file's digests in its extended attributes\n"
"                         (cshatag's user.shatag.ALG and user.shatag.ts)\n"
"      --xattr=audit      class each file ok, timechange, outdated, corrupt or\n"
"                         new against them (exit 1 if one is corrupt)\n"
"      --match=SET        print only the files whose digest is in SET, any\n"
"                         manifest or hash list (names ignored; may repeat;\n"
"                         without -a, the algorithms SET holds)\n"
"      --unmatched=SET    print only the files whose digest is not in SET\n"
"      --per-dir=NAME     with -r: write a manifest NAME in each folder (its\n"
"                         own files; its subfolders in '#/' lines); with\n"
"                         -c -r: verify them all, and report files no NAME\n"
"                         lists, folders without one, folders gone missing\n"
"\n"
"Benchmark:\n"
"      --bench            measure the speed of the algorithms on this machine\n"
"                         (and of reading and hashing each FILE; of a\n"
"                         directory, every file below it; each FILE read\n"
"                         cold too, evicted first: the disk or the digest,\n"
"                         which limits a run)\n"
"      --bench-time=SECONDS  time budget of the whole run\n"
"      --bench-baseline=ALG  the ratio column's reference (default sha256)\n"
"      --ascii            draw the bar chart in plain ASCII\n"
"\n"
"      --debug            tell which backend (for CRCs, which code) computes\n"
"                         each algorithm; MULTISUM_CRC_LEVEL caps the CRC code\n"
"                         with -c, which algorithm verified each line;\n"
"                         each device read: seeking or not, why, the order\n"
"      --help             display this help and exit\n"
"      --version          output version information and exit\n"
"\n"
"Options that do not apply to the mode are refused as invalid usage.\n"
"Exit status: 0 if every file was read (and verified); 1 a mismatch,\n"
"corruption or an entry missing (do not retry); 2 invalid usage; 3 an input\n"
"not read or changed while read, an output not written (retry); 4 a\n"
"signature that does not verify or could not be checked.  Several: 1, then\n"
"4, then 3.\n", stdout);
	exit_flushed();
}

_Noreturn void
ms_cli_version(void)
{
	ms_print_version("multisum");
	exit_flushed();
}

_Noreturn void
ms_cli_list_algorithms(void)
{
	printf("%-12s %-12s %-8s %-32s %s\n", "name", "tag", "bits", "backend", "class");
	for (size_t i = 0; i < ms_algo_count; i++) {
		const struct ms_algo *a = &ms_algos[i];
		char bits[32], tag[32], backend[48];

		if (a->min_bits == a->max_bits)
			snprintf(bits, sizeof(bits), "%u", a->bits);
		else
			snprintf(bits, sizeof(bits), "%u..%u", a->min_bits, a->max_bits);
		snprintf(tag, sizeof(tag), "%s%s", a->tag,
		    strcmp(a->name + strlen(a->name) - 2, "-N") == 0 ? "-N" : "");
		printf("%-12s %-12s %-8s %-32s %s\n", a->name, tag, bits,
		    ms_algo_backend(a, backend, sizeof(backend)),
		    ms_class_name(a->class));
	}
	exit_flushed();
}

/* A usage error: one line, the hint, exit status 2. */
_Noreturn void
ms_cli_refuse(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ms_vwarn(fmt, ap);
	va_end(ap);
	ms_try_help();
	exit(MS_EXIT_USAGE);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-roundtrip.c - libFuzzer target: what format.c writes, manifest.c
 * reads back to the same entry.  The input is a file name (escaping and
 * unescaping of \, newline and CR included) and the bytes of a digest;
 * the first byte picks the algorithm and the layout (GNU text or binary
 * mode, BSD tag; hex or base64).  The line multisum would write is parsed
 * with multisum -c's rules (-c -a ALG for an untagged line, which does not
 * name its algorithm), and must give the same name, algorithm and digest.  A name holding no byte at all cannot be written and is
 * skipped.
 */
#include "fuzz.h"

#include <stdio.h>

#include "digest/algorithm.h"
#include "manifest/format.h"
#include "manifest/manifest.h"
#include "base/util.h"

static const char *const algos[] = {
	"md5", "sha1", "sha256", "sha512", "blake2b-256", "sha3-384",
	"xxh128", "crc32c",
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ms_format_opts fo = { 0 };
	struct ms_manifest_rules r = { .dialect = MS_DIALECT_NATIVE };
	struct ms_manifest_state st;
	struct ms_manifest_entry e;
	struct ms_selection sel = { 0 };
	struct ms_digest_spec s;
	unsigned char digest[MS_DIGEST_MAX] = { 0 };
	const char *why;
	char *name, *line = NULL;
	size_t len = 0, dlen;
	FILE *out;
	unsigned pick;

	if (size < 2)
		return 0;
	pick = data[0];
	if (ms_algo_resolve(algos[pick % 8], 0, &s, &why) == -1)
		abort();
	ms_selection_add(&sel, &s);
	dlen = ms_spec_len(&s);
	fo.format = pick & 8 ? MS_FORMAT_BSD : MS_FORMAT_GNU;
	fo.binary = (pick & 16) != 0;
	fo.base64 = (pick & 32) != 0;
	/* The digest from the end of the input, the name from the rest. */
	size--;
	data++;
	memcpy(digest, data + (size > dlen ? size - dlen : 0),
	    size > dlen ? dlen : size);
	name = fuzz_text(data, size > dlen ? size - dlen : 0);
	if (name[0] == '\0') {
		free(name);
		return 0;
	}
	out = open_memstream(&line, &len);
	if (out == NULL)
		abort();
	ms_format_result(out, &fo, name, &sel, digest, 0);
	fclose(out);

	memset(&st, 0, sizeof(st));
	memset(&e, 0, sizeof(e));
	/* An untagged line does not name its algorithm: -c -a ALG reads it. */
	if (fo.format == MS_FORMAT_GNU)
		r.given = &sel;
	ms_manifest_begin(&r, &st, "MANIFEST");
	/* One line, as check mode reads it: up to the newline, then NUL. */
	if (ms_manifest_parse(&r, &st, line, len, &e) != MS_LINE_ENTRY ||
	    strlen(name) != strlen(e.name) || strcmp(name, e.name) != 0 ||
	    e.n != 1 || e.d[0].spec.algo != s.algo || e.d[0].spec.bits != s.bits ||
	    e.d[0].len != dlen || memcmp(e.d[0].digest, digest, dlen) != 0) {
		fprintf(stderr, "round trip failed: %s", line);
		abort();
	}
	ms_manifest_end(&st);
	free(line);
	free(name);
	return 0;
}

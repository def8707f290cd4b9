/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-expect.c - libFuzzer target: --expect=DIGEST decoding
 * (ms_manifest_expect), with no -a and with -a sha256,blake2b-64.  The
 * first byte picks the selection.  Checks: no crash, no sanitizer
 * report; a decoded digest is as long as its algorithm's and, written
 * back as hex, decodes again to the same algorithm and bytes.
 */
#include "fuzz.h"

#include "algorithm.h"
#include "manifest.h"
#include "util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ms_selection given = { 0 };
	struct ms_manifest_entry e, again;
	struct ms_digest_spec s;
	const char *why;
	char *text, hex[2 * MS_DIGEST_MAX + 4];

	if (size < 1)
		return 0;
	if (data[0] & 1) {
		if (ms_algo_resolve("sha256", 0, &s, &why) == 0)
			ms_selection_add(&given, &s);
		if (ms_algo_resolve("blake2b-64", 0, &s, &why) == 0)
			ms_selection_add(&given, &s);
	}
	text = fuzz_text(data + 1, size - 1);
	memset(&e, 0, sizeof(e));
	if (ms_manifest_expect(text, &given, &e) == 0) {
		if (e.spec.algo == NULL || e.digest_len == 0 ||
		    e.digest_len > sizeof(e.digest))
			abort();
		/* The plain hex of what was decoded means the same. */
		ms_hex(hex, e.digest, e.digest_len);
		memset(&again, 0, sizeof(again));
		if (e.digest_len == ms_spec_len(&e.spec) &&
		    (ms_manifest_expect(hex, &given, &again) != 0 ||
		    again.digest_len != e.digest_len ||
		    memcmp(again.digest, e.digest, e.digest_len) != 0))
			abort();
	}
	free(text);
	return 0;
}

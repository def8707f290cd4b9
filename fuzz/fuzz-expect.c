/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-expect.c - libFuzzer target: --expect=DIGEST decoding
 * (ms_manifest_expect), with no -a and with -a sha256,blake2b-64.  The
 * first byte picks the selection.  Checks: no crash, no sanitizer
 * report; a decoded digest is as long as its algorithm's and, written
 * back as hex, decodes again to the same algorithm and bytes.
 */
#include "fuzz.h"

#include <stdio.h>

#include "digest/algorithm.h"
#include "manifest/manifest.h"
#include "base/util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ms_selection given = { 0 };
	struct ms_manifest_entry e, again;
	struct ms_digest_spec s;
	const char *why;
	/* "ALG:HEX": a name of up to 31 bytes ("blake3-4096"), the digest */
	char *text, hex[32 + 1 + 2 * MS_DIGEST_MAX + 1];

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
	if (ms_manifest_expect(text, &given, &e, &why) == 0) {
		const struct ms_manifest_digest *d = &e.d[0];
		char name[32];

		if (e.n != 1 || d->spec.algo == NULL || d->len == 0 ||
		    d->len > sizeof(d->digest))
			abort();
		/* "ALG:HEX" of what was decoded means the same. */
		snprintf(hex, sizeof(hex), "%s:", ms_spec_name(&d->spec, name,
		    sizeof(name)));
		ms_hex(hex + strlen(hex), d->digest, d->len);
		memset(&again, 0, sizeof(again));
		if (d->len == ms_spec_len(&d->spec) &&
		    (ms_manifest_expect(hex, &given, &again, &why) != 0 ||
		    again.d[0].len != d->len ||
		    memcmp(again.d[0].digest, d->digest, d->len) != 0))
			abort();
	}
	free(text);
	return 0;
}

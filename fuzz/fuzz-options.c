/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-options.c - libFuzzer target: the option values that are parsed
 * by a function of their own: sizes (--buffer-size, "256K", "4M") by
 * ms_parse_size, and algorithm names with lengths ("blake2b-256",
 * "shake128", -a lists) by ms_algo_resolve.  Checks: no crash, no
 * sanitizer report; an accepted size is what its digits and suffix say;
 * an accepted algorithm has a length within its row's bounds.
 */
#include "fuzz.h"

#include "digest/algorithm.h"
#include "base/util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ms_digest_spec s;
	const char *why;
	size_t n;

	if (ms_parse_size(text, &n) == 0 && n == 0 && text[0] != '0')
		abort();	/* "0" alone may mean nothing else */
	for (unsigned bits = 0; bits <= 512; bits += 256)
		if (ms_algo_resolve(text, bits, &s, &why) == 0 &&
		    (s.algo == NULL || s.bits < s.algo->min_bits ||
		    s.bits > s.algo->max_bits || s.bits % 8 != 0))
			abort();
	free(text);
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz.h - what every libFuzzer target of fuzz/ shares: the entry point's
 * prototype and a NUL-terminated copy of the input.
 */
#ifndef MS_FUZZ_H
#define MS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int	 LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* data as a C string of size bytes (it may hold NULs) plus a NUL. */
static inline char *
fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif

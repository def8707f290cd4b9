/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-text.c - libFuzzer target: a manifest file as -c opens it
 * (io/text_input.c), any bytes: a UTF-16 byte order mark (LE or BE) and
 * what follows, odd lengths, lone and broken surrogates.  Checks: no
 * crash, no sanitizer report; what a UTF-16 file reads as is valid UTF-8
 * with no surrogate; a gzip or xz one decompressed, or refused as
 * damaged; any other file reads back byte for byte.
 */
#include "fuzz.h"

#include <stdbool.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io/text_input.h"

/* Is s (n bytes) UTF-8, with no surrogate and nothing past U+10FFFF? */
static bool
utf8_valid(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned c = s[i], cp, k;

		if (c < 0x80) {
			i++;
			continue;
		}
		k = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
		if (k == 0 || c > 0xf4 || i + k >= n)
			return false;
		cp = c & (0x3f >> k);
		for (unsigned j = 1; j <= k; j++) {
			if ((s[i + j] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + j] & 0x3f);
		}
		if ((k == 1 && cp < 0x80) || (k == 2 && cp < 0x800) ||
		    (k == 3 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += k + 1;
	}
	return true;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-text", 0);
	char path[64], *out = NULL;
	size_t cap = 0, n = 0, got;
	const char *enc;
	char buf[4096];
	FILE *fp;
	bool bad;

	/* a gzip or xz file is read decompressed: any text, or an error
	 * for damaged data; only no crash is asked of it */
	bool packed = (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) ||
	    (size >= 6 && memcmp(data, "\xfd" "7zXZ", 6) == 0);

	if (fd == -1 || (size > 0 && write(fd, data, size) != (ssize_t)size))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if ((fp = ms_text_open(path, &enc)) == NULL) {
		if (!packed)
			abort();
		close(fd);
		return 0;
	}
	while ((got = fread(buf, 1, sizeof(buf), fp)) > 0) {
		if (n + got > cap && (out = realloc(out, cap = 2 * (n + got)))
		    == NULL)
			abort();
		memcpy(out + n, buf, got);
		n += got;
	}
	bad = ferror(fp) != 0;
	bad |= ms_text_close(fp) != 0;
	if (!packed && (bad || (enc != NULL ?
	    !utf8_valid((unsigned char *)out, n) :
	    n != size || (n > 0 && memcmp(out, data, n) != 0))))
		abort();
	free(out);
	close(fd);
	return 0;
}

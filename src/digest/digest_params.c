/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * digest_params.c - a key for the run's digest parameters
 * (digest_params.h), read from a file or standard input.
 *
 * Owns the one read of a key: exactly the key's length, a longer or
 * shorter file refused with one line naming it.  It sets parameters and
 * nothing else; which specs take them is algorithm.c's
 * ms_spec_set_params.
 */
#include "digest/digest_params.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "base/exit_status.h"
#include "base/util.h"

int
ms_params_key_file(struct ms_digest_params *p, const char *path)
{
	const char *name = path != NULL ? path : "standard input";
	unsigned char key[MS_KEY_BLAKE3 + 1];
	size_t got = 0;
	int fd = path != NULL ? open(path, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;

	if (fd == -1) {
		ms_warn("%s: %s", name, strerror(errno));
		return -1;
	}
	/* One byte more than a key, to tell a longer file. */
	while (got < sizeof(key)) {
		ssize_t n = read(fd, key + got, sizeof(key) - got);

		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			ms_warn("%s: %s", name, strerror(errno));
			if (path != NULL)
				close(fd);
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (path != NULL)
		close(fd);
	if (got != MS_KEY_BLAKE3) {
		ms_warn("%s: a BLAKE3 key is exactly %d bytes", name,
		    MS_KEY_BLAKE3);
		ms_outcome_note(MS_OUTCOME_FAIL);	/* read again, no better */
		return -1;
	}
	p->key_mode = MS_KEY_KEYED;
	p->key_len = got;
	memcpy(p->key, key, got);
	p->context = NULL;
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lines.h - a manifest's bytes as this layer is handed them, cut into
 * lines.  The layer never opens or reads a file: a mode opens it
 * through io/text_input.h's door, which fills in a struct
 * ms_manifest_input, and the readers here (ledger, known sets) pull
 * blocks from it.
 */
#ifndef MS_LINES_H
#define MS_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A line no manifest holds: past it, the input is "not a manifest". */
#define MS_LINE_MAX	((size_t)16 << 20)

struct ms_manifest_input {
	const char	*name;		/* its path ("-": standard input) */
	void		*src;		/* what the callbacks are given */
	/* Up to cap bytes into buf: their count, 0 at the end, -1 with
	 * errno. */
	ssize_t		(*pull)(void *src, char *buf, size_t cap);
	/* The file's own bytes at off, again (as pull gave them), or NULL
	 * if they cannot be had (a pipe, a decoded UTF-16 file). */
	ssize_t		(*pull_at)(void *src, char *buf, size_t cap,
			    uint64_t off);
	int		(*close)(void *src);	/* -1 with errno */
};

/*
 * The input cut into lines as getline would (newline kept, NUL bytes
 * allowed), in place in one buffer of large blocks (no copy): each line
 * is followed by a NUL for the time it is in use.
 */
struct ms_lines {
	const struct ms_manifest_input *in;
	char		*buf;
	size_t		 cap;		/* buf holds cap + 1 bytes */
	size_t		 start, end;	/* unread bytes */
	size_t		 held_at;	/* where the NUL was put, or SIZE_MAX */
	char		 held;		/* the byte it covers */
	bool		 eof;
	uint64_t	 base;		/* the input's offset of buf[0] */
};

void	 ms_lines_init(struct ms_lines *r, const struct ms_manifest_input *in);
/*
 * The next line, its offset in the input and its length; 0 at the end,
 * -1 with errno on a read error, or EFBIG for a line over MS_LINE_MAX
 * bytes (not a manifest: /dev/zero).
 */
ssize_t	 ms_lines_next(struct ms_lines *r, char **line, uint64_t *at);
/* The bytes read so far. */
uint64_t ms_lines_size(const struct ms_lines *r);
void	 ms_lines_free(struct ms_lines *r);

/* Close in (its close callback, if any); -1 with errno. */
int	 ms_manifest_input_close(const struct ms_manifest_input *in);

#endif

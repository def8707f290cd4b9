/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * part_record.h - the partial record of --part=K/N (part_record.c): what
 * one run over one part of a file writes and --merge reads.
 */
#ifndef MS_PART_RECORD_H
#define MS_PART_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "digest/compose.h"
#include "digest/digest_set.h"
#include "manifest/format.h"
#include "manifest/lines.h"

/* A record's first line starts so (--merge tells parts from shards),
 * then its version: 2, with the record's own checksum. */
#define MS_PART_MAGIC	"#multisum-part "
#define MS_PART_VERSION	"v2 "

struct ms_part_record {
	char		*name;		/* the file, as the operand named it */
	uint32_t	 k, n;		/* part k of n */
	uint64_t	 size;		/* of the whole file */
	int64_t		 mtime_ns;	/* its modification time */
	struct ms_part	 part;		/* the range and the saved states */
	struct ms_format_opts fmt;	/* how a run over it writes lines */
	struct ms_selection sel;	/* the digests, with their parameters */
};

/*
 * The stable text, every line a comment to checkers:
 *   #multisum-part v2 part=K/N size=SIZE mtime=NS range=OFF+LEN
 *       format=gnu|bsd|sfv|ndjson options=binary,zero,base64|-
 *   #multisum-part-name NAME               (\\, \n, \r escaped)
 *   #multisum-part-state ALGORITHM [part-size=N] [bytes-per-crc=N]
 *       [block-size=N] HEX|-               (one per digest, in order)
 *   #multisum-part-sum sha256=HEX          (of every byte above it)
 * Text only, so the same on every byte order.  A record whose sum does
 * not match is refused, as is one of v1, which has none.  Writing
 * returns -1 (nothing written) if the checksum cannot be computed.
 */
int	 ms_part_record_write(FILE *out, const struct ms_part_record *r);

/* Read one record from in (opened through io/text_input.h's door) into r
 * (zeroed first); -1 with *why (a message fragment) when it is none, is
 * damaged or could not be read. */
int	 ms_part_record_read(const struct ms_manifest_input *in,
	    struct ms_part_record *r, const char **why);

/* Do the n bytes at head (a file's first) begin a record? */
bool	 ms_part_record_begins(const char *head, size_t n);

void	 ms_part_record_free(struct ms_part_record *r);

#endif

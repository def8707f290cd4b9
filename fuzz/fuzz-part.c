/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-part.c - libFuzzer target: a --part record, as --merge reads what
 * other nodes wrote (through the door, io/text_input.c, to
 * part_record.c), and its states joined as a merge of one part would
 * join them (compose.c and every row's join).  Checks: no crash, no
 * sanitizer report; a record read is sane (its range inside the file, a
 * digest a state each) and writes back to text that reads as the same
 * record.
 */
#include "fuzz.h"

#include <stdio.h>

#include "digest/compose.h"
#include "io/text_input.h"
#include "manifest/part_record.h"

static void
join_all(const struct ms_part_record *r)
{
	struct ms_digest_set set;
	unsigned char d[MS_SET_MAX * MS_DIGEST_MAX];

	if (ms_selection_load(&r->sel) == -1)
		return;
	ms_digest_set_create(&set, &r->sel);
	ms_digest_set_init(&set);
	for (size_t i = 0; i < r->sel.cnt; i++)
		if (ms_digest_set_join(&set, i, r->part.saved[i].p,
		    r->part.saved[i].len, r->part.off, r->part.len) == -1)
			goto out;
	if (r->sel.out_len <= sizeof(d))
		ms_digest_set_final(&set, d);
out:
	ms_digest_set_destroy(&set);
}

/* r read from the len bytes at text, through the door --merge reads
 * records through; -1 with *why as ms_part_record_read's. */
static int
read_record(const void *text, size_t len, struct ms_part_record *r,
    const char **why)
{
	struct ms_manifest_input in;
	FILE *fp = fmemopen((void *)text, len, "r");
	int rc;

	*why = "no memory";
	memset(r, 0, sizeof(*r));
	if (fp == NULL || ms_text_input_stream(&in, "record", fp) == -1)
		return -1;
	rc = ms_part_record_read(&in, r, why);
	ms_manifest_input_close(&in);
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ms_part_record r, again;
	char *text = NULL;
	size_t len = 0;
	const char *why;

	if (size == 0)
		return 0;
	if (read_record(data, size, &r, &why) == 0) {
		FILE *out = open_memstream(&text, &len);

		if (r.part.off > r.size || r.part.len > r.size - r.part.off ||
		    r.sel.cnt == 0 || r.k < 1 || r.k > r.n || out == NULL)
			abort();
		join_all(&r);
		ms_part_record_write(out, &r);
		fclose(out);
		if (read_record(text, len, &again, &why) == -1 ||
		    again.size != r.size || again.sel.cnt != r.sel.cnt ||
		    strcmp(again.name, r.name) != 0)
			abort();
		ms_part_record_free(&again);
		free(text);
	}
	ms_part_record_free(&r);
	return 0;
}

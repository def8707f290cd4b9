/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz-torrent.c - libFuzzer target: a .torrent's bytes as -c reads them
 * (bencode.c's strict reader, torrent.c's files and hashes).  Checks: no
 * crash, no sanitizer report; every node's raw bytes lie inside the
 * input, and re-reading a value's raw bytes alone gives it back; a
 * torrent read has files, every path free of "." and ".." components
 * and of a leading "/", v1 pieces that cover its files, and v2 layers
 * inside the input.
 */
#include "fuzz.h"

#include "manifest/bencode.h"
#include "manifest/torrent.h"

static void
inside(const uint8_t *data, size_t size, const void *p, size_t n)
{
	const uint8_t *b = p;

	if (n > 0 && (b < data || b + n > data + size))
		abort();
}

static void
walk(const uint8_t *data, size_t size, const struct ms_bnode *v)
{
	inside(data, size, v->raw, v->raw_len);
	if (v->type == MS_BSTR)
		inside(data, size, v->s, v->len);
	if (v->type == MS_BLIST || v->type == MS_BDICT) {
		size_t n = v->type == MS_BDICT ? 2 * v->len : v->len;

		for (size_t i = 0; i < n; i++)
			walk(data, size, &v->item[i]);
	}
}

static void
path_ok(const char *path)
{
	const char *c = path;

	if (*path == '\0' || *path == '/')
		abort();
	for (;;) {
		size_t n = strcspn(c, "/");

		if (n == 0 || (n == 1 && c[0] == '.') ||
		    (n == 2 && c[0] == '.' && c[1] == '.'))
			abort();
		if (c[n] == '\0')
			break;
		c += n + 1;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *why;
	struct ms_bnode *root = ms_bencode_parse(data, size, &why);
	struct ms_torrent t;

	if (root != NULL) {
		struct ms_bnode *again;

		walk(data, size, root);
		if (root->raw != data || root->raw_len != size)
			abort();
		again = ms_bencode_parse(root->raw, root->raw_len, &why);
		if (again == NULL)
			abort();
		ms_bencode_free(again);
		ms_bencode_free(root);
	}
	if (ms_torrent_read(&t, data, size, &why) == 0) {
		if (t.nfiles == 0 || t.piece_length == 0)
			abort();
		for (size_t i = 0; i < t.nfiles; i++) {
			path_ok(t.file[i].path);
			if (t.file[i].layer != NULL)
				inside(data, size, t.file[i].layer,
				    t.file[i].layer_count * MS_TORRENT_V2_HASH);
		}
		if (t.v1 && !t.v2) {
			const struct ms_torrent_file *l = &t.file[t.nfiles - 1];
			uint64_t total = l->offset + l->length;

			if ((total + t.piece_length - 1) / t.piece_length !=
			    t.piece_count)
				abort();
		}
		ms_torrent_free(&t);
	}
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * torrent.c - a .torrent's info dictionary read as a checksum list: the
 * files (v1's "files" or "length", v2's "file tree"), BEP 47's padding
 * files, the v1 pieces and the v2 roots and piece layers.
 *
 * Owns the meaning of a torrent's keys and the safety of its names:
 * every path is checked here, once, so that the check mode never opens
 * anything outside its root.  Bytes come from the mode (a torrent is
 * binary, not a text list); the syntax is bencode.c's.  Nothing is
 * hashed here.
 */
#include "manifest/torrent.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* v2's smallest piece, and a cap on any piece that keeps sums in range. */
#define V2_PIECE_MIN	16384
#define PIECE_MAX	((uint64_t)1 << 40)
#define TOTAL_MAX	((uint64_t)1 << 62)

struct reader {
	struct ms_torrent *t;
	const char	*why;
	struct ms_bytes	 path;		/* the path being built */
	struct ms_torrent_file **list;
	size_t		*n, cap;
};

static int
fail(struct reader *r, const char *why)
{
	if (r->why == NULL)
		r->why = why;
	return -1;
}

/* Append "/"-less component c (a string node) to r->path. */
static int
add_component(struct reader *r, const struct ms_bnode *c)
{
	if (c == NULL || c->type != MS_BSTR)
		return fail(r, "a name that is not a string");
	if (c->len == 0 || memchr(c->s, '/', c->len) != NULL ||
	    memchr(c->s, '\0', c->len) != NULL ||
	    (c->len == 1 && c->s[0] == '.') ||
	    (c->len == 2 && c->s[0] == '.' && c->s[1] == '.'))
		return fail(r, "a file name that could leave the folder "
		    "(empty, \".\", \"..\", or holding \"/\")");
	if (r->path.len > 0)
		ms_bytes_add(&r->path, "/", 1);
	ms_bytes_add(&r->path, c->s, c->len);
	return 0;
}

static struct ms_torrent_file *
new_file(struct reader *r, const struct ms_bnode *length)
{
	struct ms_torrent_file *f;

	if (length == NULL || length->type != MS_BINT || length->i < 0)
		return fail(r, "a file without a length"), NULL;
	if (*r->n == r->cap) {
		r->cap = r->cap == 0 ? 16 : 2 * r->cap;
		*r->list = ms_xrealloc(*r->list, r->cap * sizeof(**r->list));
	}
	f = &(*r->list)[(*r->n)++];
	memset(f, 0, sizeof(*f));
	ms_bytes_add(&r->path, "", 1);
	f->path = ms_xstrdup((const char *)r->path.p);
	r->path.len--;
	f->length = (uint64_t)length->i;
	return f;
}

/* v1: "length", or "files" (with BEP 47's padding files). */
static int
read_v1(struct reader *r, const struct ms_bnode *info,
    const struct ms_bnode *name)
{
	const struct ms_bnode *files = ms_bencode_get(info, "files");
	uint64_t at = 0;

	if (files == NULL) {
		r->path.len = 0;
		if (add_component(r, name) == -1 ||
		    new_file(r, ms_bencode_get(info, "length")) == NULL)
			return -1;
		return 0;
	}
	if (files->type != MS_BLIST || files->len == 0)
		return fail(r, "\"files\" not a list of files");
	for (size_t i = 0; i < files->len; i++) {
		const struct ms_bnode *fd = &files->item[i];
		const struct ms_bnode *path = ms_bencode_get(fd, "path");
		const struct ms_bnode *attr = ms_bencode_get(fd, "attr");
		struct ms_torrent_file *f;

		r->path.len = 0;
		if (add_component(r, name) == -1)
			return -1;
		if (path == NULL || path->type != MS_BLIST || path->len == 0)
			return fail(r, "a file without a path");
		for (size_t k = 0; k < path->len; k++)
			if (add_component(r, &path->item[k]) == -1)
				return -1;
		if ((f = new_file(r, ms_bencode_get(fd, "length"))) == NULL)
			return -1;
		f->pad = attr != NULL && attr->type == MS_BSTR &&
		    memchr(attr->s, 'p', attr->len) != NULL;
		if (f->length > TOTAL_MAX - at)
			return fail(r, "files too long");
		f->offset = at;
		at += f->length;
	}
	return 0;
}

/* v2: the "file tree" under dir, in its (sorted) order. */
static int
read_tree(struct reader *r, const struct ms_bnode *dir)
{
	if (dir == NULL || dir->type != MS_BDICT || dir->len == 0)
		return fail(r, "a folder of \"file tree\" "
		    "not a dictionary");
	for (size_t i = 0; i < dir->len; i++) {
		const struct ms_bnode *key = &dir->item[2 * i];
		const struct ms_bnode *val = &dir->item[2 * i + 1];
		const struct ms_bnode *leaf = ms_bencode_get(val, "");
		size_t len = r->path.len;

		if (add_component(r, key) == -1)
			return -1;
		if (leaf != NULL) {
			const struct ms_bnode *root =
			    ms_bencode_get(leaf, "pieces root");
			struct ms_torrent_file *f;

			if (val->len != 1)
				return fail(r, "a file that "
				    "is a folder too");
			f = new_file(r, ms_bencode_get(leaf, "length"));
			if (f == NULL)
				return -1;
			if (f->length > 0 && (root == NULL ||
			    root->type != MS_BSTR ||
			    root->len != MS_TORRENT_V2_HASH))
				return fail(r, "a file "
				    "without its \"pieces root\"");
			if (f->length > 0)
				f->root = root->s;
		} else if (read_tree(r, val) == -1) {
			return -1;
		}
		r->path.len = len;
	}
	return 0;
}

/* v2: each file longer than a piece has its layer. */
static int
find_layers(struct reader *r, const struct ms_bnode *layers)
{
	struct ms_torrent *t = r->t;

	for (size_t i = 0; i < t->nfiles; i++) {
		struct ms_torrent_file *f = &t->file[i];
		uint64_t count = (f->length + t->piece_length - 1) /
		    t->piece_length;

		if (f->length <= t->piece_length)
			continue;
		if (layers == NULL || layers->type != MS_BDICT)
			return fail(r, "no \"piece layers\"");
		for (size_t k = 0; k < layers->len; k++) {
			const struct ms_bnode *key = &layers->item[2 * k];
			const struct ms_bnode *val = &layers->item[2 * k + 1];

			if (key->len == MS_TORRENT_V2_HASH &&
			    memcmp(key->s, f->root, key->len) == 0 &&
			    val->type == MS_BSTR) {
				f->layer = val->s;
				f->layer_count = val->len / MS_TORRENT_V2_HASH;
				if (val->len % MS_TORRENT_V2_HASH != 0 ||
				    f->layer_count != count)
					return fail(r, "a piece "
					    "layer of the wrong length");
			}
		}
		if (f->layer == NULL)
			return fail(r, "a file without its "
			    "piece layer");
	}
	return 0;
}

static int
read_info(struct reader *r, const struct ms_bnode *top)
{
	struct ms_torrent *t = r->t;
	const struct ms_bnode *info = ms_bencode_get(top, "info");
	const struct ms_bnode *name, *plen, *pieces, *version;

	if (info == NULL || info->type != MS_BDICT)
		return fail(r, "no info dictionary");
	t->info = info->raw;
	t->info_len = info->raw_len;
	name = ms_bencode_get(info, "name");
	plen = ms_bencode_get(info, "piece length");
	pieces = ms_bencode_get(info, "pieces");
	version = ms_bencode_get(info, "meta version");
	if (plen == NULL || plen->type != MS_BINT || plen->i <= 0 ||
	    (uint64_t)plen->i > PIECE_MAX)
		return fail(r, "no valid \"piece length\"");
	t->piece_length = (uint64_t)plen->i;
	t->v2 = version != NULL;
	t->v1 = pieces != NULL;
	if (t->v2) {
		if (version->type != MS_BINT || version->i != 2)
			return fail(r, "a torrent of an unknown meta version");
		if (t->piece_length < V2_PIECE_MIN ||
		    (t->piece_length & (t->piece_length - 1)) != 0)
			return fail(r, "a v2 piece length not "
			    "a power of two of 16 KiB or more");
	}
	if (t->v1) {
		if (pieces->type != MS_BSTR ||
		    pieces->len % MS_TORRENT_V1_HASH != 0)
			return fail(r, "\"pieces\" not SHA-1s");
		t->pieces = pieces->s;
		t->piece_count = pieces->len / MS_TORRENT_V1_HASH;
		r->list = t->v2 ? &t->v1file : &t->file;
		r->n = t->v2 ? &t->nv1files : &t->nfiles;
		r->cap = 0;
		if (read_v1(r, info, name) == -1)
			return -1;
	}
	if (t->v2) {
		const struct ms_bnode *tree = ms_bencode_get(info, "file tree");
		bool single = tree != NULL && tree->type == MS_BDICT &&
		    tree->len == 1 &&
		    ms_bencode_get(&tree->item[1], "") != NULL;

		r->list = &t->file;
		r->n = &t->nfiles;
		r->cap = 0;
		r->path.len = 0;
		if ((!single && add_component(r, name) == -1) ||
		    read_tree(r, tree) == -1 ||
		    find_layers(r, ms_bencode_get(top, "piece layers")) == -1)
			return -1;
	}
	if (!t->v1 && !t->v2)
		return fail(r, "neither v1 \"pieces\" nor v2 "
		    "\"meta version\"");
	if (t->v1) {
		const struct ms_torrent_file *last = t->v2 ?
		    &t->v1file[t->nv1files - 1] : &t->file[t->nfiles - 1];
		uint64_t total = last->offset + last->length;

		if ((total + t->piece_length - 1) / t->piece_length !=
		    t->piece_count)
			return fail(r, "\"pieces\" does not "
			    "cover the files");
	}
	return 0;
}

int
ms_torrent_read(struct ms_torrent *t, const unsigned char *buf, size_t n,
    const char **why)
{
	struct reader r = { .t = t };

	memset(t, 0, sizeof(*t));
	t->tree = ms_bencode_parse(buf, n, why);
	if (t->tree == NULL)
		return -1;
	if (t->tree->type != MS_BDICT || read_info(&r, t->tree) == -1) {
		*why = r.why != NULL ? r.why : "not a dictionary";
		free(r.path.p);
		ms_torrent_free(t);
		return -1;
	}
	free(r.path.p);
	return 0;
}

static void
free_files(struct ms_torrent_file *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(f[i].path);
	free(f);
}

void
ms_torrent_free(struct ms_torrent *t)
{
	free_files(t->file, t->nfiles);
	free_files(t->v1file, t->nv1files);
	ms_bencode_free(t->tree);
	memset(t, 0, sizeof(*t));
}

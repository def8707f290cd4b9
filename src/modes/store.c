/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * store.c - -c of a content-addressed store: every regular file below
 * the directory is checked against its own name, through check mode's
 * queue and the engine (so all of them are hashed in parallel, as -r
 * hashes).  The layouts it knows, told by their marks:
 *   OCI image layouts (oci-layout): blobs/ALG/HEX, each with its ALG;
 *   restic repositories (config, data/, keys/): SHA-256 names under
 *     data/ (two-level fan-out), index/, snapshots/ and keys/; config
 *     has no digest name, locks/ are not content;
 *   git-lfs objects (.git/lfs/objects, lfs/objects): SHA-256 names.
 * --names-are-digests[=ALG] takes any directory, every file in it.
 * Another operand is read as -c reads a list (a directory of no known
 * layout fails as it always did: "Is a directory").
 * Symbolic links are never followed (the walk without -L).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "modes/store.h"
#include "modes/check.h"
#include "base/exit_status.h"
#include "base/quote.h"
#include "base/util.h"
#include "digest/algorithm.h"
#include "io/walk.h"

/* One directory of a store and how its files' names are read. */
struct store {
	struct run	*r;
	struct manifest	*m;
	const struct ms_options *o;
	struct ms_digest_spec spec;	/* the names' algorithm */
	bool		 by_folder;	/* OCI: the parent folder names it */
	size_t		 skipped;	/* not a digest name */
	size_t		 failed;	/* walk errors */
};

/* Is dir/sub, not followed, a folder (folder) or a regular file? */
static bool
is_kind(const char *dir, const char *sub, bool folder)
{
	char *p = ms_xasprintf("%s/%s", dir, sub);
	struct stat st;
	bool yes = lstat(p, &st) == 0 &&
	    (folder ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));

	free(p);
	return yes;
}

static bool
is_dir(const char *dir, const char *sub)
{
	return is_kind(dir, sub, true);
}

static bool
is_file(const char *dir, const char *sub)
{
	return is_kind(dir, sub, false);
}

static const char *
base_name(const char *path, size_t *len)
{
	const char *end = path + strlen(path), *b = end;

	while (b > path && b[-1] != '/')
		b--;
	*len = (size_t)(end - b);
	return b;
}

/* OCI: the name of the folder holding path ("sha256"), resolved. */
static bool
folder_spec(const char *path, struct ms_digest_spec *spec)
{
	size_t n;
	const char *b = base_name(path, &n), *f = b;
	const char *why;
	char alg[32];

	if (b == path)
		return false;
	for (f = b - 1; f > path && f[-1] != '/'; f--)
		;
	n = (size_t)(b - 1 - f);
	if (n == 0 || n >= sizeof(alg))
		return false;
	memcpy(alg, f, n);
	alg[n] = '\0';
	/* the OCI names are sha256 and sha512, the table's too */
	return ms_algo_resolve(alg, 0, spec, &why) == 0;
}

static void
one_file(void *arg, const char *path, const struct ms_walked *found)
{
	struct store *s = arg;
	struct ms_manifest_entry e = { .name = path, .n = 1 };
	size_t n;
	const char *b = base_name(path, &n);

	e.d[0].spec = s->spec;
	if (s->by_folder && !folder_spec(path, &e.d[0].spec)) {
		ms_check_note(s->r, path, "not a digest name");
		s->skipped++;
		return;
	}
	ms_spec_set_params(&e.d[0].spec, &s->o->param);
	e.d[0].len = ms_spec_len(&e.d[0].spec);
	if (n != 2 * e.d[0].len || e.d[0].len > MS_DIGEST_MAX ||
	    ms_unhex(e.d[0].digest, b, e.d[0].len) == -1) {
		ms_check_note(s->r, path, "not a digest name");
		s->skipped++;
		return;
	}
	ms_check_list_entry(s->r, s->m, &e, found != NULL);
}

static void
walk_below(struct store *s, const char *dir, const char *sub)
{
	struct ms_walk_opts w = { .recursive = true };
	char *p = sub != NULL ? ms_xasprintf("%s/%s", dir, sub) :
	    ms_xstrdup(dir);

	s->failed += ms_walk(&w, p, one_file, s);
	free(p);
}

enum layout { NONE, OCI, RESTIC, LFS_GIT, LFS };

/* Which store dir is, told by its marks. */
static enum layout
layout_of(const char *dir)
{
	if (is_file(dir, "oci-layout") && is_dir(dir, "blobs"))
		return OCI;
	if (is_file(dir, "config") && is_dir(dir, "data") && is_dir(dir, "keys"))
		return RESTIC;
	if (is_dir(dir, ".git/lfs/objects"))
		return LFS_GIT;
	if (is_dir(dir, "lfs/objects"))
		return LFS;
	return NONE;
}

/* Walk dir as its layout says (or every file, with the option). */
static bool
walk_store(struct store *s, const char *dir)
{
	static const char *const restic[] = {
		"data", "index", "snapshots", "keys",
	};
	const char *why;

	if (ms_algo_resolve("sha256", 0, &s->spec, &why) == -1)
		return false;
	if (s->o->names_are_digests != NULL) {
		if (s->o->names_are_digests[0] != '\0' && ms_algo_resolve(
		    s->o->names_are_digests, 0, &s->spec, &why) == -1)
			return false;
		walk_below(s, dir, NULL);
		return true;
	}
	switch (layout_of(dir)) {
	case OCI:
		s->by_folder = true;
		walk_below(s, dir, "blobs");
		break;
	case RESTIC:
		for (size_t i = 0; i < MS_ARRAY_LEN(restic); i++)
			if (is_dir(dir, restic[i]))
				walk_below(s, dir, restic[i]);
		break;
	case LFS_GIT:
		walk_below(s, dir, ".git/lfs/objects");
		break;
	case LFS:
		walk_below(s, dir, "lfs/objects");
		break;
	case NONE:
		return false;
	}
	return true;
}

bool
ms_store_wanted(const struct ms_options *o)
{
	if (o->names_are_digests != NULL)
		return true;
	/* A key checks lists: every operand is one, read as -c reads
	 * them, so that none goes unverified beside a store. */
	if (o->signing.pubkey != NULL || o->signing.keyring != NULL)
		return false;
	for (size_t i = 0; i < o->nfiles; i++)
		if (layout_of(o->files[i]) != NONE)
			return true;
	return false;
}

int
ms_store_main(const struct ms_options *o)
{
	struct run *r = ms_check_begin(o);
	bool failed = false;
	struct stat st;

	for (size_t i = 0; i < o->nfiles; i++) {
		struct store s = { .r = r, .o = o };
		const char *dir = o->files[i];

		if (o->names_are_digests == NULL && layout_of(dir) == NONE) {
			/* a list among stores, read as -c reads one */
			ms_check_read(r, dir, NULL, NULL);
			continue;
		}
		if (stat(dir, &st) == -1 || !S_ISDIR(st.st_mode)) {
			ms_warn("%s: %s", ms_quotef(dir), stat(dir, &st) == -1 ?
			    strerror(errno) : "not a directory (a store is one)");
			ms_outcome_note(MS_OUTCOME_RETRY);
			failed = true;
			continue;
		}
		s.m = ms_check_list_begin(r, dir);
		if (!walk_store(&s, dir)) {
			ms_warn("%s: unknown algorithm for --names-are-digests",
			    ms_quotef(o->names_are_digests));
			ms_outcome_note(MS_OUTCOME_FAIL);
			failed = true;
		}
		ms_check_list_end(r, s.m);
		if (s.failed != 0) {
			ms_outcome_note(MS_OUTCOME_RETRY);
			failed = true;
		}
		if (s.skipped != 0 && o->strict) {
			ms_outcome_note(MS_OUTCOME_FAIL);
			failed = true;
		}
	}
	if (o->nfiles == 0) {
		ms_warn("a store's directory is needed as an operand");
		failed = true;
	}
	return ms_check_end(r, failed);
}

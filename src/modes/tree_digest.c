/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tree_digest.c - --tree-digest=go-h1 DIR|ZIP: Go's h1: value, as
 * golang.org/x/mod/sumdb/dirhash computes it (HashDir with the prefix of
 * --tree-prefix, HashZip).  Hash1: the names, sorted bytewise, each
 * file's SHA-256 hashed by the engine (in parallel for a directory, in
 * the archive's one pass for a zip), then one line "HEX  NAME\n" a file
 * into a SHA-256 whose base64 is the value.  A name holding a newline is
 * refused, as dirhash refuses it.  Only regular files are hashed: the
 * walk follows no symbolic link (dirhash opens them), and a zip's
 * directory entries are left out (a module zip has none).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "modes/tree_digest.h"
#include "base/exit_status.h"
#include "base/quote.h"
#include "base/util.h"
#include "digest/digest_set.h"
#include "engine/engine.h"
#include "io/archive_source.h"
#include "io/walk.h"

#define SHA256_LEN	32

struct tree {
	const char	*dir;		/* the operand, its trailing / removed */
	const char	*prefix;	/* --tree-prefix, "" if none */
	char		**names;	/* as Hash1 sees them */
	char		**paths;	/* to open (a directory's) */
	unsigned char	(*sums)[SHA256_LEN];
	size_t		 n, cap;
	bool		 failed;
};

static void
add_name(struct tree *t, const char *name, const char *path)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->names = ms_xrealloc(t->names, t->cap * sizeof(*t->names));
		t->paths = ms_xrealloc(t->paths, t->cap * sizeof(*t->paths));
	}
	t->names[t->n] = *t->prefix != '\0' ?
	    ms_xasprintf("%s/%s", t->prefix, name) : ms_xstrdup(name);
	t->paths[t->n++] = path != NULL ? ms_xstrdup(path) : NULL;
}

static void
walked(void *arg, const char *path, const struct ms_walked *found)
{
	struct tree *t = arg;
	size_t len;

	(void)found;
	/* "d/x" below d, "/x" below / */
	len = strlen(t->dir);
	add_name(t, path + len + (t->dir[len - 1] != '/'), path);
}

static void
emit(void *arg, struct ms_task *task)
{
	struct tree *t = arg;
	size_t i = (size_t)(uintptr_t)task->user;

	if (task->err != 0) {
		ms_warn("%s: %s", ms_quotef(task->path), strerror(task->err));
		ms_outcome_note(MS_OUTCOME_RETRY);
		t->failed = true;
	} else {
		memcpy(t->sums[i], task->digest, SHA256_LEN);
	}
	ms_task_free(task);
}

/* A zip's members, hashed as they come by. */
static void
read_zip(struct tree *t, struct ms_engine *e, const struct ms_selection *sel)
{
	struct ms_archive *ar = ms_archive_open(t->dir);
	struct ms_source src;
	const char *name;
	int rc;

	if (ar == NULL) {
		ms_outcome_note(MS_OUTCOME_RETRY);
		t->failed = true;
		return;
	}
	while ((rc = ms_archive_next(ar, &name, NULL, &src)) == 1) {
		struct ms_task *task;

		add_name(t, name, NULL);
		t->sums = ms_xrealloc(t->sums, t->cap * sizeof(*t->sums));
		task = ms_task_new(name, sel, (void *)(uintptr_t)(t->n - 1));
		ms_engine_read_source(e, task, &src);
		ms_engine_submit_done(e, task);
	}
	if (rc == -1) {
		ms_outcome_note(MS_OUTCOME_RETRY);
		t->failed = true;
	}
	ms_engine_finish(e);
	ms_archive_close(ar);
}

static int
by_name(const void *a, const void *b)
{
	char *const *x = *(char *const *const *)a;
	char *const *y = *(char *const *const *)b;

	return strcmp(*x, *y);
}

/* Hash1's summary of the sorted names; false if one is refused. */
static bool
summarise(struct tree *t, const struct ms_selection *sel, char *out)
{
	char ***order = ms_xcalloc(t->n ? t->n : 1, sizeof(*order));
	struct ms_digest_set set;
	unsigned char sum[SHA256_LEN];
	char hex[2 * SHA256_LEN + 1];
	bool ok = true;

	for (size_t i = 0; i < t->n; i++)
		order[i] = &t->names[i];
	qsort(order, t->n, sizeof(*order), by_name);
	ms_digest_set_create(&set, sel);
	ms_digest_set_init(&set);
	for (size_t i = 0; i < t->n && ok; i++) {
		size_t k = (size_t)(order[i] - t->names);

		if (strchr(t->names[k], '\n') != NULL) {
			ms_warn("%s: a name with a newline, which Go's dirhash "
			    "refuses", ms_quotef(t->names[k]));
			ok = false;
			break;
		}
		ms_hex(hex, t->sums[k], SHA256_LEN);
		ms_digest_set_update(&set, hex, 2 * SHA256_LEN);
		ms_digest_set_update(&set, "  ", 2);
		ms_digest_set_update(&set, t->names[k], strlen(t->names[k]));
		ms_digest_set_update(&set, "\n", 1);
	}
	ms_digest_set_final(&set, sum);
	ms_digest_set_destroy(&set);
	free(order);
	memcpy(out, "h1:", 3);
	ms_base64(out + 3, sum, SHA256_LEN);
	return ok;
}

static void
tree_free(struct tree *t)
{
	ms_free_strings(t->names, t->n);
	ms_free_strings(t->paths, t->n);
	free(t->sums);
}

int
ms_tree_digest_main(const struct ms_options *o)
{
	struct tree t = { .prefix = o->tree_prefix ? o->tree_prefix : "" };
	struct ms_engine_config cfg = o->engine;
	struct ms_selection sel = { 0 };
	struct ms_digest_spec spec;
	struct ms_engine *e;
	const char *why;
	char *dir = ms_xstrdup(o->files[0]);
	char value[3 + 4 * ((SHA256_LEN + 2) / 3) + 1];
	struct stat st;
	size_t len = strlen(dir);

	while (len > 1 && dir[len - 1] == '/')
		dir[--len] = '\0';
	t.dir = dir;
	if (ms_algo_resolve("sha256", 0, &spec, &why) == -1 ||
	    ms_selection_add(&sel, &spec) == -1 || ms_selection_load(&sel) == -1)
		return MS_EXIT_FAIL;
	if (cfg.memory == 0)
		cfg.memory = ms_memory_default();
	e = ms_engine_start(&cfg, emit, &t);
	if (stat(dir, &st) == -1) {
		ms_warn("%s: %s", ms_quotef(dir), strerror(errno));
		ms_outcome_note(MS_OUTCOME_RETRY);
		t.failed = true;
		ms_engine_finish(e);
	} else if (S_ISDIR(st.st_mode)) {
		struct ms_walk_opts w = { .recursive = true };

		if (ms_walk(&w, dir, walked, &t) != 0) {
			ms_outcome_note(MS_OUTCOME_RETRY);
			t.failed = true;
		}
		t.sums = ms_xcalloc(t.n ? t.n : 1, sizeof(*t.sums));
		for (size_t i = 0; i < t.n; i++) {
			struct ms_task *task = ms_task_new(t.paths[i], &sel,
			    (void *)(uintptr_t)i);

			task->walked = true;
			ms_engine_submit(e, task);
		}
		ms_engine_finish(e);
	} else {
		read_zip(&t, e, &sel);
	}
	if (!t.failed) {
		if (summarise(&t, &sel, value))
			printf("%s\n", value);
		else {
			ms_outcome_note(MS_OUTCOME_FAIL);
			t.failed = true;
		}
	}
	tree_free(&t);
	free(dir);
	return t.failed ? MS_EXIT_FAIL : MS_EXIT_OK;
}

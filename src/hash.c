/*
 * hash.c - hash mode: operands through the engine to result lines, for
 * multisum and the coreutils personalities alike.
 *
 * Owns the choice of line format for a run, the order of operands
 * (command line, --files-from lists, directory walks) and the reporting
 * of inputs that could not be read.  Digesting is the engine's, the
 * lines are format.c's.
 */
#include "hash.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archive_source.h"
#include "output.h"
#include "quote.h"
#include "util.h"

struct run {
	const struct ms_options *o;
	const struct ms_hash_style *style;
	struct ms_engine_config cfg;	/* o->engine, with the progress line */
	struct ms_output out;
	struct ms_engine *engine;
	size_t		 failed;
	bool		 debug_said;	/* style->crc_debug was written */
};

static void
emit(void *arg, struct ms_task *t)
{
	struct run *r = arg;
	bool crc = t->sel->spec[0].algo->legacy == MS_LEGACY_CKSUM;

	if (crc && t->err == EISDIR && r->style->crc_dir_empty) {
		t->err = 0;
		t->size = 0;
		memcpy(t->digest, "\xff\xff\xff\xff", 4);
	}
	if (t->err != 0) {
		/* after what standard output holds, as check mode does */
		fflush(r->out.fp);
		ms_warn("%s: %s", ms_quotef(t->path), strerror(t->err));
		r->failed++;
	} else {
		if (crc && r->style->crc_debug != NULL && !r->debug_said) {
			r->debug_said = true;
			ms_warn("%s", r->style->crc_debug);
		}
		ms_format_result(r->out.fp, &r->o->fmt, t->path, t->sel,
		    t->digest, t->size);
	}
	ms_task_free(t);
}

static void
submit(void *arg, const char *path)
{
	struct run *r = arg;
	struct stat st;

	/* Sizes in advance only for the progress line's time left. */
	if (r->cfg.progress != NULL && stat(path, &st) == 0 &&
	    S_ISREG(st.st_mode))
		ms_progress_expect(r->cfg.progress, (uint64_t)st.st_size);
	ms_engine_submit(r->engine, ms_task_new(path, &r->o->sel, NULL));
}

static void
operand(struct run *r, const char *path)
{
	r->failed += ms_walk(&r->o->walk, path, submit, r);
}

static void
list_operand(void *arg, const char *path)
{
	operand(arg, path);
}

/* What hash_archive keeps of a member for the hard links to it. */
struct member {
	uint64_t	 size;
	unsigned char	 digest[];
};

/* --archive: members in archive order, all or those named by operands. */
static void
hash_archive(struct run *r)
{
	const struct ms_options *o = r->o;
	struct ms_archive *ar = ms_archive_open(o->archive);
	struct ms_digest_set set;
	struct ms_source src;
	struct member *m = NULL;
	bool *found = ms_xcalloc(o->nfiles ? o->nfiles : 1, sizeof(*found));
	unsigned char *buf = ms_xaligned(4096, r->cfg.buffer_size);
	const char *name, *link;
	int rc;

	if (ar == NULL) {
		r->failed++;
		goto out;
	}
	ms_digest_set_create(&set, &o->sel);
	m = ms_xmalloc(sizeof(*m) + o->sel.out_len);
	while ((rc = ms_archive_next(ar, &name, &link, &src)) == 1) {
		bool wanted = o->nfiles == 0;
		struct ms_task *t;

		for (size_t i = 0; i < o->nfiles; i++)
			if (strcmp(o->files[i], name) == 0)
				wanted = found[i] = true;
		if (!wanted)
			continue;
		t = ms_task_new(name, &o->sel, NULL);
		if (link != NULL) {
			/* A hard link is its target's content, hashed before. */
			const struct member *target = ms_archive_recall(ar, link);

			if (target == NULL) {
				ms_warn("%s: hard link to %s, which was not hashed "
				    "(name it too)", name, link);
				r->failed++;
				ms_task_free(t);
				continue;
			}
			memcpy(t->digest, target->digest, o->sel.out_len);
			t->size = target->size;
		} else if (ms_hash_source(&src, &set, buf, r->cfg.buffer_size,
		    r->cfg.progress, t->digest, &t->size) == -1) {
			t->err = errno;
		} else {
			m->size = t->size;
			memcpy(m->digest, t->digest, o->sel.out_len);
			ms_archive_remember(ar, name, m, sizeof(*m) + o->sel.out_len);
		}
		emit(r, t);
	}
	if (rc == -1)
		r->failed++;
	for (size_t i = 0; i < o->nfiles; i++)
		if (!found[i]) {
			ms_warn("%s: not found in %s", o->files[i], o->archive);
			r->failed++;
		}
	ms_digest_set_destroy(&set);
	ms_archive_close(ar);
out:
	free(m);
	free(found);
	free(buf);
}

int
ms_hash_run(const struct ms_options *o, const struct ms_hash_style *style)
{
	struct run r = { .o = o, .style = style, .cfg = o->engine };
	int status = MS_EXIT_OK;

	if (ms_output_open(&r.out, o->output) == -1)
		return MS_EXIT_FAIL;
	r.cfg.progress = ms_progress_start(o->progress);
	if (o->archive != NULL) {
		hash_archive(&r);
	} else {
		r.engine = ms_engine_start(&r.cfg, emit, &r);
		if (o->files_from != NULL &&
		    ms_walk_list(o->files_from, o->files_from_nul, list_operand, &r) == -1)
			r.failed++;
		for (size_t i = 0; i < o->nfiles; i++)
			operand(&r, o->files[i]);
		if (o->nfiles == 0 && o->files_from == NULL)
			operand(&r, "-");
		ms_engine_finish(r.engine);
	}
	ms_progress_stop(r.cfg.progress);
	if (r.failed > 0)
		status = MS_EXIT_FAIL;
	if (r.failed > 0 && o->output != NULL)
		ms_warn("%s: not written: %zu input%s could not be read",
		    o->output, r.failed, r.failed == 1 ? "" : "s");
	if (ms_output_close(&r.out, r.failed == 0) == -1 && status == MS_EXIT_OK)
		status = MS_EXIT_FAIL;
	return status;
}

int
ms_hash_main(const struct ms_options *o)
{
	static const struct ms_hash_style native = { 0 };

	if (ms_selection_load(&o->sel) == -1)
		return MS_EXIT_USAGE;
	return ms_hash_run(o, &native);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * per_dir.c - --per-dir=NAME: one manifest in each folder, as cfv and
 * chkbit keep them, so that a folder copied anywhere checks itself.
 *
 * Owns the folder rules and both directions:
 *   - A folder's manifest lists its own regular files only, by their
 *     names in it (no '/'), in byte order, never itself; each subfolder
 *     has its own.  Every folder the walk reaches gets one, also a folder
 *     without files of its own, because the manifest also names the
 *     folder's subfolders ("#/ NAME" lines after "#multisum-folder v1",
 *     comments to every checker): a whole folder that disappears is
 *     found missing by its parent's manifest (chkbit's issue 16).
 *   - -r --per-dir=NAME writes them: each folder's lines are gathered as
 *     its files are hashed and written when the folder is done, through
 *     output.c (atomically, one temporary at a time); a folder with a
 *     file that could not be read keeps its old manifest.
 *   - -c -r --per-dir=NAME finds and verifies them all (check.c, the
 *     names joined to their folder) and says, in walk order, of each
 *     file no manifest lists "not listed", of each folder without one
 *     "no NAME", and of each folder its parent lists but that is gone
 *     "missing folder", and of each folder its parent lists that has
 *     lost its own manifest "missing NAME" (every folder was written
 *     with one: its digests are gone).  Missing folders and lost
 *     manifests fail the run (as missing files do, and --ignore-missing
 *     lets them be); the others only with --strict.
 */
#include "modes/per_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/source.h"

#include "modes/check.h"
#include "io/output.h"
#include "manifest/format.h"
#include "base/exit_status.h"
#include "base/portable.h"
#include "base/quote.h"
#include "base/util.h"

#define FOLDER_MAGIC	"#multisum-folder v1"
#define FOLDER_LINE	"#/ "

/* A folder between its entering and the end of its last file. */
struct folder {
	struct folder	*up;
	char		*path;		/* as the walk names it */
	char		*prefix;	/* path + "/", what names are below */
	char		**subs;		/* subfolders: met (write), listed (check) */
	size_t		 nsubs;
	bool		*seen;		/* check: listed subfolder i was entered */
	/* write: the manifest's lines, until the folder is done */
	char		*mem;
	size_t		 memlen;
	FILE		*fp;
	size_t		 failed;
	/* check: the names its manifest lists, sorted */
	char		**names;
	size_t		 nnames;
	bool		 has_manifest, knows_subs;
};

struct per_dir {
	const struct ms_options *o;
	struct ms_walk_opts walk;	/* o->walk, told of folders */
	struct ms_engine_config cfg;
	struct ms_engine *engine;	/* write */
	struct run	*check;		/* check */
	struct folder	*cur;
	size_t		 failed;
	size_t		 unlisted, unmanifested, missing;
	size_t		 lost;		/* listed folders without a manifest */
	size_t		 escaped;	/* listed names that leave the folder */
	struct ms_sign_key *key;	/* --sign: signs each folder's manifest */
};

/* What a task of the write stands for: a file, or a folder's end. */
struct item {
	struct folder	*f;
	bool		 end;
};

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

static int
by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
push(char ***v, size_t *n, const char *s)
{
	*v = ms_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = ms_xstrdup(s);
}

static void
folder_free(struct folder *f)
{
	ms_free_strings(f->subs, f->nsubs);
	ms_free_strings(f->names, f->nnames);
	free(f->seen);
	free(f->mem);
	free(f->path);
	free(f->prefix);
	free(f);
}

/* The folder's manifest: path/NAME. */
static char *
manifest_of(const struct per_dir *p, const struct folder *f)
{
	return ms_xasprintf("%s%s", f->prefix, p->o->per_dir);
}

/*
 * A folder's manifest by a name open(2) takes (what *alias holds, to be
 * freed with deep_done): its path, or, when that (or its temporary's) is
 * longer than PATH_MAX
 * (a folder deep in a tree, which -r's walk reaches from descriptor to
 * descriptor), the folder opened by pieces as the walk opens it and
 * named through its descriptor (Linux's /proc/self/fd).  Where there is
 * no such name, NULL after a line that says so.  *dfd: that descriptor,
 * or -1.
 */
static const char *
deep_name(const struct per_dir *p, const struct folder *f, const char *path,
    char **alias, int *dfd)
{
	*alias = NULL;
	*dfd = -1;
	/* (its temporary's name is the longer, by ".", ".multisum-XXXXXX") */
	if (strlen(path) + 32 < PATH_MAX)
		return path;
	if (!ms_have_fd_paths()) {
		ms_warn("%s: a folder deeper than PATH_MAX: its manifest "
		    "cannot be named on this system (no /proc/self/fd)",
		    ms_quotef(path));
		ms_outcome_note(MS_OUTCOME_RETRY);	/* not written, not read */
		return NULL;
	}
	*dfd = ms_source_open_deep(f->path, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC | O_NOCTTY);
	if (*dfd != -1) {
		*alias = ms_fd_path(*dfd, p->o->per_dir);
		return *alias;
	}
	return path;
}

static void
deep_done(char *alias, int dfd)
{
	free(alias);
	if (dfd != -1)
		close(dfd);
}

static struct folder *
folder_new(struct per_dir *p, const char *path)
{
	struct folder *f = ms_xcalloc(1, sizeof(*f));
	size_t n = strlen(path);

	f->path = ms_xstrdup(path);
	f->prefix = ms_xasprintf("%s%s", path, n > 0 && path[n - 1] == '/' ?
	    "" : "/");
	f->up = p->cur;
	if (f->up != NULL)
		push(&f->up->subs, &f->up->nsubs, base_name(path));
	p->cur = f;
	return f;
}

/* ------------------------------------------------------------ writing */

/* The folder is done: its manifest written, atomically. */
static void
write_folder(struct per_dir *p, struct folder *f)
{
	char *path = manifest_of(p, f), *alias = NULL;
	const char *name;
	struct ms_output out;
	int dfd = -1;

	if (fclose(f->fp) != 0)
		f->failed++;
	if (f->failed > 0) {
		ms_warn("%s: not written: %zu file%s could not be read",
		    ms_quotef(path), f->failed, f->failed == 1 ? "" : "s");
	} else if ((name = deep_name(p, f, path, &alias, &dfd)) == NULL ||
	    ms_output_open(&out, name) == -1) {
		p->failed++;
	} else if (p->key != NULL && ms_sign_attach(p->key, &out) == -1) {
		ms_output_close(&out, false);
		p->failed++;
	} else {
		fputs(FOLDER_MAGIC "\n", out.fp);
		/* (qsort must not see the NULL of no subfolder, C17 7.22.5) */
		if (f->nsubs > 1)
			qsort(f->subs, f->nsubs, sizeof(*f->subs), by_string);
		for (size_t i = 0; i < f->nsubs; i++) {
			fputs(FOLDER_LINE, out.fp);
			ms_write_escaped(out.fp, f->subs[i]);
			putc('\n', out.fp);
		}
		fwrite(f->mem, 1, f->memlen, out.fp);
		if (ms_output_close(&out, true) == -1)
			p->failed++;
	}
	deep_done(alias, dfd);
	free(path);
	folder_free(f);
}

static void
emit(void *arg, struct ms_task *t)
{
	struct per_dir *p = arg;
	struct item *it = t->user;
	struct folder *f = it->f;

	if (it->end) {
		write_folder(p, f);
	} else if (t->err != 0) {
		fflush(stdout);
		ms_warn("%s: %s", ms_quotef(t->path), strerror(t->err));
		ms_outcome_note(MS_OUTCOME_RETRY);
		f->failed++;
		p->failed++;
	} else {
		ms_format_result(f->fp, &p->o->fmt, t->path + strlen(f->prefix),
		    t->sel, t->digest, t->size);
	}
	free(it);
	ms_task_free(t);
}

static void
submit(struct per_dir *p, const char *path, bool end,
    const struct ms_walked *found)
{
	struct item *it = ms_xmalloc(sizeof(*it));
	struct ms_task *t = ms_task_new(path, &p->o->sel, it);

	it->f = p->cur;
	it->end = end;
	ms_task_found(t, found);
	if (end)
		ms_engine_submit_done(p->engine, t);
	else
		ms_engine_submit(p->engine, t);
}

static void
write_folder_event(void *arg, const char *path, bool enter)
{
	struct per_dir *p = arg;

	if (enter) {
		struct folder *f = folder_new(p, path);

		f->fp = open_memstream(&f->mem, &f->memlen);
		if (f->fp == NULL)
			ms_die("%s", strerror(errno));
	} else {
		struct folder *up = p->cur->up;

		/* done once every file before it is, in the engine's order
		 * (which may be now: the folder is then freed) */
		submit(p, path, true, NULL);
		p->cur = up;
	}
}

static bool
is_manifest_name(const struct per_dir *p, const char *base)
{
	return strcmp(base, p->o->per_dir) == 0;
}

/*
 * Is base NAME's signature (--sign's NAME.minisig or NAME.sig, which
 * -c NAME --pubkey=KEY reads) or a temporary of it?  It is never hashed
 * into NAME, nor "not listed".
 */
static bool
is_signature_of(const struct per_dir *p, const char *base)
{
	static const char *const suffix[] = { ".minisig", ".sig" };

	for (size_t i = 0; i < MS_ARRAY_LEN(suffix); i++) {
		char *sig = ms_xasprintf("%s%s", p->o->per_dir, suffix[i]);
		bool is = strcmp(base, sig) == 0 || ms_output_is_temp_of(base, sig);

		free(sig);
		if (is)
			return true;
	}
	return false;
}

/* An operand that is not a folder: said, and counted as failed; what
 * --per-dir does, for the message. */
static void
not_a_folder(struct per_dir *p, const char *path, const char *what)
{
	ms_warn("%s: not a directory: --per-dir %s", ms_quotef(path), what);
	ms_outcome_note(MS_OUTCOME_FAIL);
	p->failed++;
}

/* Is path the manifest of the folder it lies in, or a temporary of it
 * (a run's, or one a killed run left, which the next write removes)? */
static bool
is_manifest(const struct per_dir *p, const char *path)
{
	const char *base = base_name(path);

	return p->cur != NULL && (is_manifest_name(p, base) ||
	    ms_output_is_temp_of(base, p->o->per_dir) ||
	    is_signature_of(p, base)) &&
	    strncmp(path, p->cur->prefix, strlen(p->cur->prefix)) == 0 &&
	    strchr(path + strlen(p->cur->prefix), '/') == NULL;
}

static void
write_file(void *arg, const char *path, const struct ms_walked *found)
{
	struct per_dir *p = arg;

	if (p->cur == NULL) {
		/* an operand that is no folder has no folder to list it */
		not_a_folder(p, path, "writes one manifest per folder");
		return;
	}
	if (!is_manifest(p, path))
		submit(p, path, false, found);
}

/* ----------------------------------------------------------- checking */

/*
 * An entry of the manifest being read (of p->cur): a name that leaves
 * the folder (absolute, or with a ".." component) is no file of it, and
 * is refused, one failure, never opened.
 */
static bool
listed(void *arg, const char *name)
{
	struct per_dir *p = arg;
	struct folder *f = p->cur;
	char *path, *manifest, *why;

	if (!ms_path_leaves(name)) {
		push(&f->names, &f->nnames, name);
		return true;
	}
	path = ms_xasprintf("%s%s", f->prefix, name);
	manifest = manifest_of(p, f);
	why = ms_xasprintf("FAILED (refused: a name in %s that leaves its "
	    "folder; not opened)", manifest);
	ms_check_note(p->check, path, why);
	p->escaped++;
	free(why);
	free(manifest);
	free(path);
	return false;
}

static void
folder_line(void *arg, const char *line, size_t len)
{
	struct per_dir *p = arg;
	struct folder *f = p->cur;
	char *name;
	size_t n;

	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (len == strlen(FOLDER_MAGIC) && memcmp(line, FOLDER_MAGIC, len) == 0) {
		f->knows_subs = true;
		return;
	}
	if (len <= strlen(FOLDER_LINE) ||
	    memcmp(line, FOLDER_LINE, strlen(FOLDER_LINE)) != 0)
		return;
	n = len - strlen(FOLDER_LINE);
	name = ms_xmalloc(n + 1);
	memcpy(name, line + strlen(FOLDER_LINE), n);
	name[n] = '\0';
	/* escaped as GNU lines are: \\, \n, \r */
	for (char *s = name, *d = name; ; s++, d++) {
		if (*s == '\\' && (s[1] == '\\' || s[1] == 'n' || s[1] == 'r')) {
			s++;
			*d = *s == 'n' ? '\n' : *s == 'r' ? '\r' : '\\';
		} else {
			*d = *s;
		}
		if (*s == '\0')
			break;
	}
	f->subs = ms_xrealloc(f->subs, (f->nsubs + 1) * sizeof(*f->subs));
	f->subs[f->nsubs++] = name;
}

static void
note(struct per_dir *p, const char *name, const char *fmt, size_t *count)
{
	char *why = ms_xasprintf(fmt, p->o->per_dir);

	ms_check_note(p->check, name, why);
	free(why);
	(*count)++;
}

static void
check_folder_event(void *arg, const char *path, bool enter)
{
	struct per_dir *p = arg;
	struct folder *f;

	if (!enter) {
		f = p->cur;
		for (size_t i = 0; i < f->nsubs; i++)
			if (!f->seen[i] && !p->o->ignore_missing) {
				char *sub = ms_xasprintf("%s%s/", f->prefix, f->subs[i]);

				note(p, sub, "missing folder (listed in its parent's %s)",
				    &p->missing);
				free(sub);
			}
		p->cur = f->up;
		folder_free(f);
		return;
	}
	/* entered: a subfolder the parent's manifest names is not missing */
	bool known = false;

	if (p->cur != NULL)
		for (size_t i = 0; i < p->cur->nsubs; i++)
			if (strcmp(p->cur->subs[i], base_name(path)) == 0)
				known = p->cur->seen[i] = true;
	{
		struct ms_check_hooks hooks;
		char *manifest, *alias;
		const char *name;
		struct stat st;
		struct folder *up = p->cur;
		int dfd;

		p->cur = NULL;	/* the parent's subs are its listing, kept */
		f = folder_new(p, path);
		f->up = up;
		hooks = (struct ms_check_hooks){ listed, folder_line, p };
		manifest = manifest_of(p, f);
		name = deep_name(p, f, manifest, &alias, &dfd);
		if (name == NULL) {
			p->failed++;	/* said why */
		} else if (stat(name, &st) == 0) {
			f->has_manifest = true;
			ms_check_read(p->check, name, f->prefix, &hooks);
			if (f->nnames > 1)
				qsort(f->names, f->nnames, sizeof(*f->names),
				    by_string);
		} else if (known && !p->o->ignore_missing) {
			/* every folder was written with one: its digests are
			 * lost, as a missing file's are */
			note(p, f->prefix, "missing %s (its parent's lists the "
			    "folder)", &p->lost);
		} else {
			note(p, f->prefix, "no %s", &p->unmanifested);
		}
		f->seen = ms_xcalloc(f->nsubs + 1, sizeof(*f->seen));
		deep_done(alias, dfd);
		free(manifest);
	}
}

/* Does a manifest of f or above list path? */
static bool
is_listed(const struct folder *f, const char *path)
{
	for (; f != NULL; f = f->up) {
		const char *rel = path + strlen(f->prefix);

		if (strncmp(path, f->prefix, strlen(f->prefix)) == 0 &&
		    f->nnames > 0 && bsearch(&rel, f->names, f->nnames,
		    sizeof(*f->names), by_string) != NULL)
			return true;
	}
	return false;
}

static void
check_file(void *arg, const char *path, const struct ms_walked *found)
{
	struct per_dir *p = arg;

	(void)found;
	if (p->cur == NULL) {
		not_a_folder(p, path, "checks the manifests of folders");
		return;
	}
	if (!is_manifest(p, path) && !is_listed(p->cur, path))
		note(p, path, "not listed in any %s", &p->unlisted);
}

/* -------------------------------------------------------------- run */

static void
operand(struct per_dir *p, const char *path, ms_walk_fn *fn)
{
	p->cur = NULL;
	p->failed += ms_walk(&p->walk, path, fn, p);
}

static void
each_operand(struct per_dir *p, ms_walk_fn *fn)
{
	for (size_t i = 0; i < p->o->nfiles; i++)
		operand(p, p->o->files[i], fn);
	if (p->o->nfiles == 0)
		operand(p, ".", fn);
}

static const char *
plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

int
ms_per_dir_main(const struct ms_options *o)
{
	struct per_dir p = { .o = o, .walk = o->walk, .cfg = o->engine };
	int status;

	if (o->mode != MS_MODE_CHECK) {
		if (ms_selection_load(&o->sel) == -1)
			return MS_EXIT_USAGE;
		/* --sign: the key unlocked once, before anything is hashed */
		if (o->signing.sign != NULL &&
		    (p.key = ms_sign_key_open(&o->signing)) == NULL)
			return MS_EXIT_FAIL;
		p.walk.folder = write_folder_event;
		p.cfg.progress = ms_progress_start(o->progress);
		p.engine = ms_engine_start(&p.cfg, emit, &p);
		each_operand(&p, write_file);
		ms_engine_finish(p.engine);
		ms_progress_stop(p.cfg.progress);
		ms_sign_key_close(p.key);
		return p.failed > 0 ? MS_EXIT_FAIL : MS_EXIT_OK;
	}
	p.walk.folder = check_folder_event;
	p.check = ms_check_begin(o);
	each_operand(&p, check_file);
	if (p.missing > 0 || p.lost > 0 ||
	    (o->strict && (p.unlisted > 0 || p.unmanifested > 0)))
		ms_outcome_note(MS_OUTCOME_FAIL);	/* folders, lists missing */
	status = ms_check_end(p.check, p.failed > 0 || p.missing > 0 ||
	    p.lost > 0 || p.escaped > 0 ||
	    (o->strict && (p.unlisted > 0 || p.unmanifested > 0)));
	if (!o->status) {
		if (p.unlisted > 0)
			ms_warn("WARNING: %zu %s not listed in any %s", p.unlisted,
			    plural(p.unlisted, "file is", "files are"), o->per_dir);
		if (p.unmanifested > 0)
			ms_warn("WARNING: %zu %s no %s", p.unmanifested,
			    plural(p.unmanifested, "folder has", "folders have"),
			    o->per_dir);
		if (p.missing > 0)
			ms_warn("WARNING: %zu listed %s missing", p.missing,
			    plural(p.missing, "folder is", "folders are"));
		if (p.escaped > 0)
			ms_warn("WARNING: %zu listed %s the folder of %s %s",
			    p.escaped, plural(p.escaped, "name leaves",
			    "names leave"), plural(p.escaped, "its", "their"),
			    o->per_dir);
		if (p.lost > 0)
			ms_warn("WARNING: %zu listed %s no %s", p.lost,
			    plural(p.lost, "folder has", "folders have"),
			    o->per_dir);
	}
	return status;
}

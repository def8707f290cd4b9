/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * output.c - the destination of result lines.
 *
 * Standard output is output_stdout.c's (whole lines, written as soon as
 * they are ready).  This file owns the atomic replacement of an -o
 * manifest: lines go to a temporary file in the
 * same directory, which is synced and renamed over the target only when
 * everything was written.  On any failure, and on a fatal signal, the
 * temporary is removed and the target is left untouched (one a run
 * killed outright left is removed by the next: output_temp.c).  -o
 * replaces only what reads as a manifest, keeps its mode and writes
 * through symbolic links.  A companion file (the signature of --sign) is
 * made from the manifest's bytes and replaced with it, both or neither.
 */
#include "io/output_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "manifest/manifest.h"
#include "base/exit_status.h"
#include "base/quote.h"
#include "base/util.h"

/* The temporaries a fatal signal must remove: the output's, a
 * checkpoint's while it is written, a companion's (NULL: none). */
static char *volatile doomed[3];

/* Every signal whose default action ends the run, save SIGKILL and
 * SIGSTOP's kin: a file size limit (SIGXFSZ), a CPU limit (SIGXCPU),
 * timeout -s, kill -USR1 end it as surely as SIGTERM. */
static const int fatal_signals[] = {
	SIGHUP, SIGINT, SIGPIPE, SIGQUIT, SIGTERM, SIGALRM, SIGUSR1,
	SIGUSR2, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
};

static void
on_fatal(int sig)
{
	/* unlink, signal and raise are async-signal-safe. */
	for (size_t i = 0; i < MS_ARRAY_LEN(doomed); i++) {
		char *tmp = doomed[i];

		if (tmp != NULL)
			unlink(tmp);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
guard_signals(char *tmp)
{
	doomed[0] = tmp;
	if (tmp != NULL)
		ms_signals_catch(fatal_signals, MS_ARRAY_LEN(fatal_signals),
		    on_fatal, NULL);
}

/* -o: the lines formatted into out->lines join the temporary file. */
static void
file_lines(struct ms_output *out)
{
	if (out->lines.len > 0)
		fwrite(out->lines.p, 1, out->lines.len, out->fp);
	out->lines.len = 0;
}

/* The lines formatted into out->lines, if any, handed on: to standard
 * output's writer, or (-o) to the temporary file. */
static void
hand_lines(struct ms_output *out)
{
	if (out->so == NULL)
		file_lines(out);
	else if (out->lines.len > 0)
		ms_stdout_lines(out->so, &out->lines);
}

void
ms_output_lines(struct ms_output *out)
{
	if (out->so != NULL)
		ms_stdout_lines(out->so, &out->lines);
	else
		file_lines(out);
}

void
ms_output_stdio_lines(void)
{
	struct stat st;

	if (fstat(STDOUT_FILENO, &st) == 0 && S_ISFIFO(st.st_mode))
		setvbuf(stdout, NULL, _IOLBF, 0);
}

void
ms_output_flush(struct ms_output *out)
{
	hand_lines(out);
	if (out->so != NULL)
		ms_stdout_flush(out->so);
	else
		fflush(out->fp);
}

/*
 * The file a write to path lands in: path with its symbolic links
 * followed (also a dangling one, whose target is then created).
 */
static char *
resolve(const char *path)
{
	char *cur = ms_xstrdup(path);

	for (int hops = 0; hops < 40; hops++) {
		struct stat st;
		char link[PATH_MAX];
		ssize_t n;

		if (lstat(cur, &st) == -1 || !S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, link, sizeof(link) - 1);
		if (n == -1)
			return cur;
		link[n] = '\0';
		if (link[0] != '/' && strchr(cur, '/') != NULL) {
			/* relative to the link's directory */
			char *slash = strrchr(cur, '/');
			char *next = ms_xasprintf("%.*s/%s", (int)(slash - cur),
			    cur, link);
			free(cur);
			cur = next;
		} else {
			free(cur);
			cur = ms_xstrdup(link);
		}
	}
	return cur;	/* a loop: open will say ELOOP */
}

/*
 * Does the open file read as a checksum manifest?  Its first lines (up
 * to 8 KiB, at most 8 of them) must each be a manifest line, a comment or
 * blank, as multisum -c reads them; an empty file is one too.  whole: a
 * last line without its newline is not judged.
 */
static bool
looks_like_manifest(int fd, const char *path, bool whole)
{
	static const struct ms_manifest_rules rules = { .dialect = MS_DIALECT_NATIVE };
	struct ms_manifest_state st;
	char buf[8192 + 1];
	ssize_t n;
	size_t lines = 0;
	bool ok = true;
	char *p, *end;

	memset(&st, 0, sizeof(st));
	do
		n = pread(fd, buf, sizeof(buf) - 1, 0);
	while (n == -1 && errno == EINTR);
	if (n <= 0)
		return n == 0;
	buf[n] = '\0';
	ms_manifest_begin(&rules, &st, path);
	for (p = buf, end = buf + n; p < end && lines < 8 && ok; lines++) {
		struct ms_manifest_entry e;
		char *eol = p;
		size_t len;

		while (eol < end && *eol != '\n' && *eol != '\0')
			eol++;
		if (eol == end && (whole || n == (ssize_t)sizeof(buf) - 1))
			break;		/* cut by the buffer (or a killed writer) */
		len = (size_t)(eol - p);
		if (len > 0 && p[len - 1] == '\r')
			len--;
		p[len] = '\0';
		/* --format=ndjson writes one object per line. */
		if (strncmp(p, "{\"path\":", 8) != 0 &&
		    ms_manifest_parse(&rules, &st, p, len, &e) == MS_LINE_BAD)
			ok = false;
		p = eol + 1;
	}
	ms_manifest_end(&st);
	return ok && lines > 0;
}

/* The existing target: its identity, and the mode its successor keeps. */
static void
remember_target(struct ms_output *out, const struct stat *st)
{
	out->exists = true;
	out->dev = st->st_dev;
	out->ino = st->st_ino;
	out->mode = st->st_mode & 07777;
	out->uid = st->st_uid;
	out->gid = st->st_gid;
}

/* -1 after a message if the existing target must not be replaced. */
static int
check_target(struct ms_output *out)
{
	struct stat st;
	int fd = open(out->target, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd == -1) {
		if (errno == ENOENT)
			return 0;
		ms_warn("%s: %s", ms_quotef(out->path), strerror(errno));
		ms_outcome_note(MS_OUTCOME_RETRY);
		return -1;
	}
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    !looks_like_manifest(fd, out->target, false)) {
		ms_warn("%s: exists and is not a checksum manifest: not replaced "
		    "(remove it first)", ms_quotef(out->path));
		close(fd);
		return -1;
	}
	close(fd);
	remember_target(out, &st);
	return 0;
}

/* mkstemp makes 0600; a new manifest (or signature) is as public as a new file. */
static mode_t
new_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/* The mode (and owner, if we may) a new manifest file gets. */
static void
set_mode(const struct ms_output *out, int fd)
{
	if (out->exists) {
		if (fchown(fd, out->uid, out->gid) == -1) {
			/* not ours to give away: the mode is kept all the same */
		}
		fchmod(fd, out->mode);
	} else {
		fchmod(fd, new_mode());
	}
}

static int open_file(struct ms_output *out, const char *path, bool judge);

int
ms_output_open(struct ms_output *out, const char *path)
{
	return open_file(out, path, true);
}

int
ms_output_replace(struct ms_output *out, const char *path)
{
	return open_file(out, path, false);
}

/* judge: an existing target must read as a manifest (check_target). */
static int
open_file(struct ms_output *out, const char *path, bool judge)
{
	memset(out, 0, sizeof(*out));
	out->path = path;
	if (path == NULL)
		return ms_stdout_open(out);
	out->target = resolve(path);
	if (!judge) {
		struct stat st;

		if (stat(out->target, &st) == 0)
			remember_target(out, &st);
	} else if (check_target(out) == -1) {
		free(out->target);
		out->target = NULL;
		return -1;
	}

	const char *slash = strrchr(out->target, '/');
	int dirlen = slash ? (int)(slash - out->target + 1) : 0;
	struct stat st;
	int fd;

	ms_output_temp_sweep(out->target, looks_like_manifest);
	out->tmp = ms_output_temp_name(out->target);
	guard_signals(out->tmp);
	fd = ms_output_temp_create(out->tmp);
	if (fd == -1) {
		ms_warn("%s: %s", ms_quotef(path), strerror(errno));
		goto fail;
	}
	/* The manifest keeps its mode (and owner, if we may). */
	set_mode(out, fd);
	if (fstat(fd, &st) == 0) {
		out->tmp_dev = st.st_dev;
		out->tmp_ino = st.st_ino;
	}
	{
		char *dir = ms_xasprintf("%.*s", dirlen ? dirlen : 1,
		    dirlen ? out->target : ".");

		if (stat(dir, &st) == 0) {
			out->dir_dev = st.st_dev;
			out->dir_ino = st.st_ino;
		}
		free(dir);
	}
	out->fp = fdopen(fd, "w");
	if (out->fp == NULL) {
		ms_warn("%s: %s", ms_quotef(path), strerror(errno));
		close(fd);
		unlink(out->tmp);
		goto fail;
	}
	return 0;
fail:
	ms_outcome_note(MS_OUTCOME_RETRY);	/* an output not written */
	guard_signals(NULL);
	free(out->tmp);
	out->tmp = NULL;
	free(out->target);
	out->target = NULL;
	return -1;
}

int
ms_output_companion(struct ms_output *out, const struct ms_output_companion *c)
{
	char *path = ms_xasprintf("%s%s", out->path, c->suffix);
	char *target = resolve(path);
	int fd = open(target, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	char head[64];
	struct stat st;
	ssize_t n;

	if (fd == -1 && errno != ENOENT) {
		ms_warn("%s: %s", ms_quotef(path), strerror(errno));
		goto fail;
	}
	if (fd != -1) {
		n = pread(fd, head, sizeof(head), 0);
		if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) || n < 0 ||
		    (n > 0 && !c->replaceable(head, (size_t)n))) {
			ms_warn("%s: exists and is not a %s: not replaced "
			    "(remove it first)", ms_quotef(path), c->what);
			close(fd);
			goto fail;
		}
		close(fd);
		out->comp_exists = true;
		out->comp_dev = st.st_dev;
		out->comp_ino = st.st_ino;
		out->comp_mode = st.st_mode & 07777;
	}
	out->comp = c;
	out->comp_target = target;
	free(path);
	return 0;
fail:
	free(target);
	free(path);
	return -1;
}

bool
ms_output_is_self(const struct ms_output *out, const struct stat *st)
{
	if (out == NULL || out->path == NULL)
		return false;
	return (out->exists && st->st_dev == out->dev && st->st_ino == out->ino) ||
	    (st->st_dev == out->tmp_dev && st->st_ino == out->tmp_ino) ||
	    (out->comp_exists && st->st_dev == out->comp_dev &&
	    st->st_ino == out->comp_ino);
}

/*
 * The companion's temporary, made from the manifest's synced temporary
 * lfd (read back through our own descriptor, so it is what was written);
 * *tmp names it, *st is its identity.  -1 after a message.
 */
static int
write_companion(struct ms_output *out, int lfd, char **tmp, struct stat *st)
{
	const struct ms_output_companion *c = out->comp;
	int fd;
	off_t size = lseek(lfd, 0, SEEK_END);
	char *list, *bytes;
	size_t len, outlen;
	ssize_t got;
	int rc = -1;

	*tmp = NULL;
	if (size < 0) {
		ms_warn("%s: %s", ms_quotef(out->path), strerror(errno));
		return -1;
	}
	list = ms_xmalloc((size_t)size + 1);
	got = ms_read_full(lfd, list, (size_t)size, 0);
	if (got != (ssize_t)size) {
		ms_warn("%s: %s", ms_quotef(out->path),
		    got >= 0 ? "shorter than written" : strerror(errno));
		free(list);
		return -1;
	}
	len = (size_t)size;
	bytes = c->make(c->arg, list, len, &outlen);
	free(list);
	if (bytes == NULL)
		return -1;
	*tmp = ms_output_temp_name(out->comp_target);
	doomed[2] = *tmp;
	fd = ms_output_temp_create(*tmp);
	if (fd != -1) {
		fchmod(fd, out->comp_exists ? out->comp_mode : new_mode());
		if (ms_write_full(fd, bytes, outlen) == 0 && fsync(fd) == 0 &&
		    fstat(fd, st) == 0)
			rc = 0;
		if (close(fd) == -1)
			rc = -1;
	}
	if (rc == -1) {
		ms_warn("%s%s: write error: %s", ms_quotef(out->path), c->suffix,
		    strerror(errno));
		if (fd != -1)
			unlink(*tmp);
		doomed[2] = NULL;
		free(*tmp);
		*tmp = NULL;
	}
	free(bytes);
	return rc;
}

static void sync_dir(const char *path);

int
ms_output_close(struct ms_output *out, bool commit)
{
	char *comp_tmp = NULL;
	struct stat cst;
	int rc = 0;

	hand_lines(out);
	ms_bytes_free(&out->lines);
	if (out->path == NULL) {
		rc = ms_stdout_close(out->so);
		out->so = NULL;
		out->fp = NULL;
		return rc;
	}
	if (commit && (fflush(out->fp) == EOF || ferror(out->fp) ||
	    fsync(fileno(out->fp)) == -1)) {
		ms_warn("%s: write error: %s", ms_quotef(out->path), strerror(errno));
		commit = false;
		rc = -1;
	}
	if (commit && out->comp != NULL &&
	    write_companion(out, fileno(out->fp), &comp_tmp, &cst) == -1) {
		commit = false;
		rc = -1;
	}
	if (fclose(out->fp) == EOF && commit) {
		ms_warn("%s: write error: %s", ms_quotef(out->path), strerror(errno));
		commit = false;
		rc = -1;
	}
	/* The companion first: mid-way its new signature fails the old list. */
	if (commit && comp_tmp != NULL) {
		if (rename(comp_tmp, out->comp_target) == -1) {
			ms_warn("%s%s: %s", ms_quotef(out->path), out->comp->suffix,
			    strerror(errno));
			commit = false;
			rc = -1;
		} else {
			free(comp_tmp);
			comp_tmp = NULL;
			sync_dir(out->comp_target);
		}
	}
	if (commit && rename(out->tmp, out->target) == -1) {
		ms_warn("%s: %s%s", ms_quotef(out->path), strerror(errno),
		    out->comp != NULL ? " (its new signature is in place and "
		    "fails the old list: run again)" : "");
		commit = false;
		rc = -1;
	}
	if (commit && out->comp != NULL)
		sync_dir(out->target);
	if (!commit)
		unlink(out->tmp);
	if (comp_tmp != NULL)
		unlink(comp_tmp);
	free(comp_tmp);
	doomed[2] = NULL;
	if (out->comp != NULL && out->comp->release != NULL)
		out->comp->release(out->comp->arg);
	out->comp = NULL;
	free(out->comp_target);
	out->comp_target = NULL;
	guard_signals(NULL);
	free(out->tmp);
	out->tmp = NULL;
	free(out->target);
	out->target = NULL;
	if (rc == -1)
		ms_outcome_note(MS_OUTCOME_RETRY);	/* an output not written */
	return rc;
}

/* Copy the first len bytes of the file open as from to the one open as to. */
static int
copy_prefix(int from, int to, off_t len)
{
	static char buf[1 << 16];
	off_t in = 0;

	while (in < len) {
		size_t want = (size_t)(len - in) < sizeof(buf) ?
		    (size_t)(len - in) : sizeof(buf);

		if (ms_read_full(from, buf, want, in) != (ssize_t)want ||
		    ms_write_full(to, buf, want) == -1)
			return -1;
		in += (off_t)want;
	}
	return 0;
}

/* Make a rename in path's directory last through a power cut. */
static void
sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? ms_xasprintf("%.*s", (int)(slash - path + 1),
	    path) : ms_xstrdup(".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd != -1) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

/*
 * A checkpoint's companion (the signature of what fd holds), put in place
 * before the checkpoint is: a crash between leaves the old list beside a
 * new signature, which fails it, never a list beside a signature of
 * another.  -1 after a message.
 */
static int
checkpoint_companion(struct ms_output *out, int fd)
{
	char *ctmp;
	struct stat cst;

	if (write_companion(out, fd, &ctmp, &cst) == -1)
		return -1;
	if (rename(ctmp, out->comp_target) == -1) {
		ms_warn("%s%s: checkpoint not written: %s", ms_quotef(out->path),
		    out->comp->suffix, strerror(errno));
		unlink(ctmp);
		doomed[2] = NULL;
		free(ctmp);
		return -1;
	}
	doomed[2] = NULL;
	free(ctmp);
	sync_dir(out->comp_target);
	/* the walk skips the new signature too */
	out->comp_exists = true;
	out->comp_dev = cst.st_dev;
	out->comp_ino = cst.st_ino;
	return 0;
}

int
ms_output_checkpoint(struct ms_output *out, int (*more)(FILE *fp, void *arg),
    void *arg)
{
	char *tmp;
	FILE *fp = NULL;
	off_t len;
	struct stat st;
	int fd, err = 0;
	bool said = false;

	if (out->path != NULL)
		file_lines(out);
	if (out->path == NULL || fflush(out->fp) == EOF ||
	    (len = ftello(out->fp)) == -1) {
		ms_warn("%s: checkpoint: %s", ms_quotef(out->path ? out->path : "-"),
		    strerror(errno));
		return -1;
	}
	tmp = ms_output_temp_name(out->target);
	doomed[1] = tmp;
	fd = ms_output_temp_create(tmp);
	if (fd == -1 || (set_mode(out, fd), copy_prefix(fileno(out->fp), fd,
	    len)) == -1 || (fp = fdopen(fd, "w")) == NULL ||
	    more(fp, arg) == -1 || fflush(fp) == EOF || ferror(fp) ||
	    fsync(fd) == -1 || fstat(fd, &st) == -1)
		err = errno ? errno : EIO;
	/* --sign: the checkpoint is signed as the final list is */
	if (err == 0 && out->comp != NULL && checkpoint_companion(out, fd) == -1) {
		err = EIO;
		said = true;
	}
	if (fp != NULL) {
		if (fclose(fp) == EOF && err == 0)
			err = errno;
	} else if (fd != -1) {
		close(fd);
	}
	if (err == 0 && rename(tmp, out->target) == -1)
		err = errno;
	if (err != 0) {
		if (fd != -1)
			unlink(tmp);
		if (!said)
			ms_warn("%s: checkpoint not written: %s",
			    ms_quotef(out->path), strerror(err));
	} else {
		/* the target is now the checkpoint, which the walk skips,
		 * and the next one keeps its mode (a new ledger had none) */
		sync_dir(out->target);
		remember_target(out, &st);
	}
	doomed[1] = NULL;
	free(tmp);
	return err != 0 ? -1 : 0;
}

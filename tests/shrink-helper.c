/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * shrink-helper.c - make a mapped file shrink under the hashing code, at
 * a chosen moment, so that errors.sh can test the SIGBUS guard without
 * racing anything.
 *
 *   shrink-helper FILE WHEN ALGORITHM[,ALGORITHM...]
 *
 * writes FILE (two mmap windows and a bit), opens it for mmap reading as
 * the engine does, truncates it, and hashes it through
 * ms_sequential_hash_source:
 *   WHEN = start   truncated to one page before the first window is read;
 *   WHEN = middle  truncated to a window and a half after the first
 *                  window was read, before the second is mapped;
 *   WHEN = thread  as start, but hashed on a second thread (the guard is
 *                  per thread, and the engine's workers are threads).
 * A guarded read of a page past the new end faults (EIO), and the file,
 * no longer the size it was opened at, is then reported as changed
 * (MS_ECHANGED).  Prints one line and exits 0 if it was, 1 if the hash
 * succeeded or failed otherwise; a crash is the bug the test is for.
 *   WHEN = grow    the file grows instead, after the open: the windows
 *                  cover the size seen at open and reads the rest, which
 *                  is a change too (MS_ECHANGED), never a digest.
 *   WHEN = fifo    FILE is made a FIFO and opened as a file a walk found
 *                  regular: it must be refused at once ("refused: ..."),
 *                  not block waiting for a writer.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "digest/digest_set.h"
#include "engine/engine.h"
#include "io/source.h"
#include "base/util.h"

struct job {
	struct ms_source src;
	struct ms_digest_set set;
	unsigned char	*buf;
	size_t		 cap;
	unsigned char	 out[MS_SET_MAX * MS_DIGEST_MAX];
	uint64_t	 size;
	int		 rc, err;
};

static void *
hash(void *arg)
{
	struct job *j = arg;

	j->rc = ms_sequential_hash_source(&j->src, &j->set, j->buf, j->cap,
	    NULL, j->out, &j->size);
	j->err = errno;
	return NULL;
}

static void
write_file(const char *path, size_t len)
{
	unsigned char block[65536];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd == -1)
		ms_die("%s: %s", path, strerror(errno));
	for (size_t i = 0; i < sizeof(block); i++)
		block[i] = (unsigned char)(i * 7 + 1);
	for (size_t done = 0; done < len; ) {
		size_t n = len - done < sizeof(block) ? len - done : sizeof(block);
		if (write(fd, block, n) != (ssize_t)n)
			ms_die("%s: %s", path, strerror(errno));
		done += n;
	}
	close(fd);
}

int
main(int argc, char **argv)
{
	static struct ms_selection sel;
	static struct job j;
	char *names, *save = NULL;
	const char *path, *when;

	if (argc != 4) {
		fprintf(stderr, "usage: shrink-helper FILE start|middle|thread|grow|fifo ALGORITHMS\n");
		return 2;
	}
	path = argv[1];
	when = argv[2];
	if (strcmp(when, "fifo") == 0) {
		/* A file the walk saw regular, now a FIFO: refused, no hang. */
		if (mkfifo(path, 0600) == -1)
			ms_die("%s: %s", path, strerror(errno));
		/* the open refuses it, or (watched late, on a local file
		 * system) the first read does, before a byte is taken */
		if (ms_source_open_regular(&j.src, path, MS_IO_READ) == 0) {
			static unsigned char buf[4096];
			struct ms_chunk c;

			if (ms_source_next(&j.src, &c, buf, sizeof(buf)) != -1) {
				printf("opened a FIFO as a regular file\n");
				return 1;
			}
		}
		printf("refused: %s\n", ms_strerror(errno));
		return 0;
	}
	names = ms_xstrdup(argv[3]);
	for (char *n = strtok_r(names, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
		struct ms_digest_spec s;
		const char *why;

		if (ms_algo_resolve(n, 0, &s, &why) == -1)
			ms_die("%s: %s", n, why);
		ms_selection_add(&sel, &s);
	}
	if (ms_selection_load(&sel) == -1)
		return 2;
	ms_digest_set_create(&j.set, &sel);
	j.cap = 1 << 16;
	j.buf = ms_xaligned(4096, j.cap);

	write_file(path, 2 * (size_t)MS_MMAP_WINDOW + 12345);
	if (ms_source_open(&j.src, path, MS_IO_MMAP) == -1)
		ms_die("%s: %s", path, strerror(errno));
	if (!j.src.map)
		ms_die("%s: the source is not mapped", path);

	if (strcmp(when, "grow") == 0) {
		int fd = open(path, O_WRONLY | O_APPEND);

		if (fd == -1 || write(fd, "grown", 5) != 5 || close(fd) == -1)
			ms_die("%s: cannot append: %s", path, strerror(errno));
		hash(&j);
	} else if (strcmp(when, "middle") == 0) {
		/* hash the first window by hand, then shrink, then the rest */
		struct ms_chunk c;

		ms_digest_set_init(&j.set);
		if (ms_source_next(&j.src, &c, j.buf, j.cap) != 1 || c.map == NULL)
			ms_die("the first chunk is not a mapped window");
		ms_chunk_release(&c);
		if (truncate(path, MS_MMAP_WINDOW + MS_MMAP_WINDOW / 2) == -1)
			ms_die("truncate: %s", strerror(errno));
		hash(&j);
	} else {
		if (truncate(path, 4096) == -1)
			ms_die("truncate: %s", strerror(errno));
		if (strcmp(when, "thread") == 0) {
			pthread_t t;

			if (pthread_create(&t, NULL, hash, &j) != 0)
				ms_die("pthread_create failed");
			pthread_join(t, NULL);
		} else {
			hash(&j);
		}
	}
	ms_source_close(&j.src);
	ms_digest_set_destroy(&j.set);
	free(j.buf);
	free(names);
	if (j.rc == -1 && j.err == MS_ECHANGED) {
		printf("read error: %s\n", ms_strerror(j.err));
		return 0;
	}
	if (j.rc == -1)
		printf("wrong error: %s\n", ms_strerror(j.err));
	else
		printf("no error: the %s file was hashed\n",
		    strcmp(when, "grow") == 0 ? "grown" : "shrunk");
	return 1;
}

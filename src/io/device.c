/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * device.c - the device plan for cold reads (device.h): the disk under a
 * file by sysfs, the run's cache of devices, the settings of the
 * environment, the probe that says whether a device seeks where its flag
 * cannot be trusted, where a file begins on its device, and (Linux) the
 * kind of file system under an open file.
 *
 * The rotational flag is trusted only when it says 0: many virtual disks
 * (this project's cloud VM's among them) say 1 whatever is behind them,
 * and a file system with no block device (FUSE, NFS, tmpfs, overlay)
 * says nothing.  There the probe times the first pages of a few of the
 * files to be read: neighbours in the order they would be read, then
 * files far apart.  A disk with a head pays for the distance.
 */
#include "io/device.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef MAJOR_IN_SYSMACROS
#include <sys/sysmacros.h>
#endif
#include <unistd.h>
#if defined(HAVE_SYS_VFS_H) && defined(HAVE_FSTATFS)
#include <sys/vfs.h>	/* Linux's statfs: f_type */
#endif

#include "base/portable.h"
#include "base/util.h"

/* Links followed from a device to its disk, at most (loop in dm in ...). */
#define DEPTH		8
/* Files the probe reads the first page of, and its page. */
#define PROBE_FILES	8
#define PROBE_PAGE	4096
/* Seeking: far reads take this many times the near ones, and this long
 * more, at least. */
#define SEEK_RATIO	3
#define SEEK_NS		100000u

/* Read a short sysfs value into buf (its first line); -1 if there is none. */
static int
read_line(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd == -1)
		return -1;
	n = read(fd, buf, cap - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static long
read_number(const char *dir, const char *name)
{
	char path[PATH_MAX], buf[32], *end;
	long v;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path) || read_line(path, buf, sizeof(buf)) == -1)
		return -1;
	v = strtol(buf, &end, 10);
	return end == buf ? -1 : v;
}

static bool
exists(const char *dir, const char *name)
{
	char path[PATH_MAX];

	return (size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) <
	    sizeof(path) && access(path, F_OK) == 0;
}

static void
via_add(struct ms_disk *d, const char *dir)
{
	const char *base = strrchr(dir, '/');
	size_t used = strlen(d->via);

	base = base != NULL ? base + 1 : dir;
	snprintf(d->via + used, sizeof(d->via) - used, "%s%s",
	    used > 0 ? " > " : "", base);
}

/* dir's first slave (a mapped or md device's), resolved, into out. */
static bool
first_slave(const char *dir, char *out)
{
	char path[PATH_MAX], best[NAME_MAX + 1] = "";
	struct dirent *de;
	DIR *dp;

	if ((size_t)snprintf(path, sizeof(path), "%s/slaves", dir) >=
	    sizeof(path) || (dp = opendir(path)) == NULL)
		return false;
	while ((de = readdir(dp)) != NULL)	/* the first by name: stable */
		if (de->d_name[0] != '.' && (best[0] == '\0' ||
		    strcmp(de->d_name, best) < 0))
			snprintf(best, sizeof(best), "%s", de->d_name);
	closedir(dp);
	if (best[0] == '\0')
		return false;
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/%s", best);
	return realpath(path, out) != NULL;
}

/* The sysfs folder of block device dev under root, resolved, into out. */
static bool
dev_dir(const char *root, dev_t dev, char *out)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/dev/block/%u:%u", root,
	    major(dev), minor(dev)) >= sizeof(path))
		return false;
	return realpath(path, out) != NULL;
}

bool
ms_disk_find(const char *root, dev_t dev, struct ms_disk *d)
{
	char dir[PATH_MAX], next[PATH_MAX];

	memset(d, 0, sizeof(*d));
	d->rotational = -1;
	if (!dev_dir(root, dev, dir))
		return false;
	for (int depth = 0; depth < DEPTH; depth++) {
		char backing[PATH_MAX], path[PATH_MAX];
		struct stat st;

		via_add(d, dir);
		if (exists(dir, "partition")) {
			char *slash = strrchr(dir, '/');

			if (slash == NULL)
				break;
			*slash = '\0';
			continue;
		}
		if ((size_t)snprintf(path, sizeof(path), "%s/loop/backing_file",
		    dir) < sizeof(path) &&
		    read_line(path, backing, sizeof(backing)) == 0) {
			/* the file's own device: another disk, perhaps none */
			if (stat(backing, &st) == -1 ||
			    !dev_dir(root, st.st_dev, dir))
				return false;
			continue;
		}
		if (first_slave(dir, next)) {
			memcpy(dir, next, sizeof(dir));
			continue;
		}
		const char *base = strrchr(dir, '/');

		snprintf(d->name, sizeof(d->name), "%s",
		    base != NULL ? base + 1 : dir);
		long v = read_number(dir, "queue/rotational");

		d->rotational = v == 0 || v == 1 ? (int)v : -1;
		v = read_number(dir, "queue/nr_requests");
		d->nr_requests = v > 0 ? (unsigned)v : 0;
		v = read_number(dir, "queue/read_ahead_kb");
		d->read_ahead_kb = v > 0 ? (unsigned)v : 0;
		return true;
	}
	return false;
}

static int
parse_order(const char *s, enum ms_read_order *order)
{
	static const char *const names[] = {
		"auto", "physical", "inode", "walk"
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i]) == 0) {
			*order = (enum ms_read_order)i;
			return 0;
		}
	return -1;
}

static int
parse_class(const char *s, enum ms_dev_class *cls)
{
	if (strcmp(s, "auto") == 0)
		*cls = MS_DEV_UNDECIDED;
	else if (strcmp(s, "seeking") == 0)
		*cls = MS_DEV_SEEKING;
	else if (strcmp(s, "solid") == 0)
		*cls = MS_DEV_SOLID;
	else
		return -1;
	return 0;
}

int
ms_device_settings(enum ms_read_order *order, enum ms_dev_class *cls)
{
	const char *o = getenv("MULTISUM_READ_ORDER");
	const char *c = getenv("MULTISUM_DEVICE");

	*order = MS_ORDER_AUTO;
	*cls = MS_DEV_UNDECIDED;
	if (o != NULL && *o != '\0' && parse_order(o, order) == -1) {
		ms_warn("MULTISUM_READ_ORDER: '%s' is not auto, physical, "
		    "inode or walk", o);
		return -1;
	}
	if (c != NULL && *c != '\0' && parse_class(c, cls) == -1) {
		ms_warn("MULTISUM_DEVICE: '%s' is not auto, seeking or solid", c);
		return -1;
	}
	return 0;
}

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ms_device **cache;
static size_t ncache;

/* The order a device of class cls is read in, unless forced. */
static void
decide_order(struct ms_device *d, enum ms_read_order forced)
{
	if (forced != MS_ORDER_AUTO)
		d->order = forced;
	else
		d->order = d->cls == MS_DEV_SEEKING ? MS_ORDER_PHYSICAL :
		    MS_ORDER_WALK;
}

static void
classify(struct ms_device *d)
{
	enum ms_read_order order;
	enum ms_dev_class cls;

	if (ms_device_settings(&order, &cls) == -1)	/* cli refused it */
		order = MS_ORDER_AUTO, cls = MS_DEV_UNDECIDED;
	if (cls != MS_DEV_UNDECIDED) {
		d->cls = cls;
		snprintf(d->why, sizeof(d->why), "MULTISUM_DEVICE=%s",
		    cls == MS_DEV_SEEKING ? "seeking" : "solid");
	} else if (d->disk.rotational == 0) {
		d->cls = MS_DEV_SOLID;
		snprintf(d->why, sizeof(d->why), "rotational 0");
	} else {
		d->cls = MS_DEV_UNDECIDED;	/* the probe's */
		snprintf(d->why, sizeof(d->why), "%s",
		    d->disk.rotational == 1 ? "rotational 1, not trusted" :
		    d->disk.name[0] != '\0' ? "no rotational flag" :
		    "no block device");
	}
	decide_order(d, order);
	if (d->cls == MS_DEV_UNDECIDED && order == MS_ORDER_WALK)
		d->cls = MS_DEV_SOLID;	/* nothing to decide: not probed */
}

struct ms_device *
ms_device_of(dev_t dev)
{
	/* A tree's files are mostly on one device: the last one found by
	 * this thread, with no lock (devices are never freed). */
	static _Thread_local struct ms_device *last;
	struct ms_device *d = NULL;

	if (last != NULL && last->dev == dev)
		return last;
	pthread_mutex_lock(&cache_lock);
	for (size_t i = 0; i < ncache && d == NULL; i++)
		if (cache[i]->dev == dev)
			d = cache[i];
	if (d == NULL) {
		d = ms_xcalloc(1, sizeof(*d));
		d->dev = dev;
		ms_disk_find("/sys", dev, &d->disk);
		classify(d);
		cache = ms_xrealloc(cache, (ncache + 1) * sizeof(*cache));
		cache[ncache++] = d;
	}
	pthread_mutex_unlock(&cache_lock);
	last = d;
	return d;
}

/* One probe read: ns the page at off of path took, 0 if it was cached
 * (or unreadable: not a measure). */
static uint64_t
probe_read(const char *path, off_t off)
{
	unsigned char buf[PROBE_PAGE];
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	uint64_t t0, ns = 0;

	if (fd == -1)
		return 0;
	if (ms_page_cached(fd, off) != 1) {
		ms_advise_random(fd);	/* the page alone, no read-ahead */
		t0 = ms_now_ns();
		if (pread(fd, buf, sizeof(buf), off) > 0)
			ns = ms_now_ns() - t0;
	}
	close(fd);
	return ns;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The largest of paths[0..n) and its size, if one spans PROBE_SPAN. */
#define PROBE_SPAN	((off_t)1 << 20)
static const char *
largest(const char *const *paths, size_t n, off_t *size)
{
	const char *best = NULL;
	struct stat st;

	*size = 0;
	for (size_t i = 0; i < n; i++)
		if (stat(paths[i], &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_size > *size) {
			*size = st.st_size;
			best = paths[i];
		}
	return *size >= PROBE_SPAN ? best : NULL;
}

/* Rounds of two near and two far reads the probe adds, at most, while
 * its figures leave the verdict in doubt. */
#define PROBE_MORE	4
#define NEAR_MAX	(3 + 2 * PROBE_MORE)
#define FAR_MAX		(4 + 2 * PROBE_MORE)

/*
 * The probe's pages, 0..m in the order they lie on the device: the first
 * pages of paths (file set) or the pages of one large file, and the
 * times of its reads so far.
 */
struct probe {
	const char *const *paths;
	const char	*file;
	size_t		 m;
	uint64_t	 near[NEAR_MAX], far[FAR_MAX];
	size_t		 nnear, nfar;
};

static uint64_t
probe_page(const struct probe *p, size_t i)
{
	return p->file != NULL ? probe_read(p->file, (off_t)i * PROBE_PAGE) :
	    probe_read(p->paths[i], 0);
}

/*
 * The probe's first reads: pages 0-3 (three near steps), then far ones:
 * last, 4, the middle (or last-1 for files), 5; false if there are too
 * few small files to probe.
 */
static bool
probe_first(struct probe *p, const char *const *paths, size_t n)
{
	off_t size;

	p->paths = paths;
	p->file = NULL;
	p->m = n;
	if (n < PROBE_FILES) {
		if ((p->file = largest(paths, n, &size)) == NULL)
			return false;
		p->m = (size_t)(size / PROBE_PAGE);
	}
	probe_page(p, 0);
	for (size_t i = 1; i <= 3; i++)
		p->near[p->nnear++] = probe_page(p, i);
	p->far[p->nfar++] = probe_page(p, p->m - 1);
	p->far[p->nfar++] = probe_page(p, 4);
	p->far[p->nfar++] = probe_page(p, p->file != NULL ? p->m / 2 :
	    p->m - 2);
	p->far[p->nfar++] = probe_page(p, 5);
	return true;
}

/* The median of the n measured (nonzero) of v; 0 if fewer than 2. */
static uint64_t
median(const uint64_t *v, size_t n)
{
	uint64_t w[FAR_MAX];
	size_t k = 0;

	for (size_t i = 0; i < n && k < FAR_MAX; i++)
		if (v[i] != 0)
			w[k++] = v[i];
	if (k < 2)
		return 0;
	qsort(w, k, sizeof(*w), cmp_u64);
	return w[k / 2];
}

/*
 * Whether far reads of mf ns against near ones of mn say the device
 * seeks; and, in *doubt, whether a busy machine may have made them say
 * so: clear are only far reads at twice the rule's ratio, or far reads
 * so short (under twice SEEK_NS) that no head moved.  Near reads
 * stretched past the far ones by a busy CPU stay in doubt.
 */
static bool
seeks(uint64_t mn, uint64_t mf, bool *doubt)
{
	bool apart = mf >= mn + SEEK_NS;

	*doubt = apart ? mf < 2 * SEEK_RATIO * mn : mf >= 2 * SEEK_NS;
	return apart && mf >= SEEK_RATIO * mn;
}

/*
 * The probe: its first reads, then, while their medians leave the verdict
 * in doubt (a busy machine can stretch a near read past a far one), a
 * round more each time: far to the back, its neighbour, far to the front,
 * its neighbour, on pages not read yet.  Fills *mn and *mf with the
 * medians; false if there was nothing to probe.
 */
static bool
probe_reads(const char *const *paths, size_t n, uint64_t *mn,
    uint64_t *mf)
{
	struct probe p = { .nnear = 0 };
	size_t front = 6, back;
	bool doubt = true;

	if (!probe_first(&p, paths, n))
		return false;
	back = p.file != NULL ? p.m - 2 : p.m - 3;
	for (int r = 0;; r++) {
		*mn = median(p.near, p.nnear);
		*mf = median(p.far, p.nfar);
		if (*mn != 0 && *mf != 0)
			(void)seeks(*mn, *mf, &doubt);
		if (!doubt || *mn == 0 || *mf == 0 || r == PROBE_MORE ||
		    back < front + 4)
			return true;
		p.far[p.nfar++] = probe_page(&p, back);
		p.near[p.nnear++] = probe_page(&p, back - 1);
		p.far[p.nfar++] = probe_page(&p, front);
		p.near[p.nnear++] = probe_page(&p, front + 1);
		front += 2, back -= 2;
	}
}

void
ms_device_probe(struct ms_device *d, const char *const *paths, size_t n)
{
	uint64_t mn, mf;
	size_t used = strlen(d->why);
	bool doubt;

	if (d->cls != MS_DEV_UNDECIDED)
		return;
	if (!probe_reads(paths, n, &mn, &mf)) {
		/* a few small files: their order costs little */
		d->cls = MS_DEV_SOLID;
		snprintf(d->why + used, sizeof(d->why) - used, "; %zu small "
		    "file%s, too few to probe", n, n == 1 ? "" : "s");
	} else if (mn == 0 || mf == 0) {
		d->cls = MS_DEV_SOLID;
		snprintf(d->why + used, sizeof(d->why) - used,
		    "; files in the page cache: not probed");
	} else {
		d->cls = seeks(mn, mf, &doubt) ? MS_DEV_SEEKING : MS_DEV_SOLID;
		snprintf(d->why + used, sizeof(d->why) - used,
		    "; probe: far reads %.3f ms, near %.3f ms",
		    (double)mf / 1e6, (double)mn / 1e6);
	}
	enum ms_read_order order;
	enum ms_dev_class cls;

	if (ms_device_settings(&order, &cls) == -1)
		order = MS_ORDER_AUTO;
	decide_order(d, order);
}

/* Files the probe gathers around a path at most, and entries it reads. */
#define GATHER_MAX	64
#define SCAN_MAX	512

struct gather {
	char		*path[GATHER_MAX];
	ino_t		 ino[GATHER_MAX];
	size_t		 n;
	size_t		 scanned;
};

/* The regular files of folder dir into g. */
static void
gather_dir(struct gather *g, const char *dir)
{
	struct dirent *de;
	struct stat st;
	DIR *dp = opendir(dir);

	if (dp == NULL)
		return;
	while (g->n < GATHER_MAX && g->scanned < SCAN_MAX &&
	    (de = readdir(dp)) != NULL) {
		char *p;

		g->scanned++;
		if (de->d_name[0] == '.')
			continue;
		p = ms_xasprintf("%s/%s", dir, de->d_name);
		if (lstat(p, &st) == -1) {
			free(p);	/* gone since: not one to probe */
			continue;
		}
		if (S_ISREG(st.st_mode)) {
			g->ino[g->n] = st.st_ino;
			g->path[g->n++] = p;
			continue;
		}
		free(p);
	}
	closedir(dp);
}

void
ms_device_probe_at(struct ms_device *d, const char *path, bool walked)
{
	struct gather g = { .n = 0 };
	const char *slash = strrchr(path, '/');
	char *dir;

	if (d->cls != MS_DEV_UNDECIDED)
		return;
	dir = slash == NULL ? ms_xstrdup(".") : slash == path ?
	    ms_xstrdup("/") : ms_xstrndup(path, (size_t)(slash - path));
	if (walked)
		gather_dir(&g, dir);
	/* neighbours by inode number: a stand-in for their places */
	for (size_t i = 1; i < g.n; i++)
		for (size_t j = i; j > 0 && g.ino[j - 1] > g.ino[j]; j--) {
			ino_t ti = g.ino[j];
			char *tp = g.path[j];

			g.ino[j] = g.ino[j - 1], g.path[j] = g.path[j - 1];
			g.ino[j - 1] = ti, g.path[j - 1] = tp;
		}
	if (g.n == 0) {
		g.path[0] = ms_xstrdup(path);	/* the file alone */
		g.n = 1;
	}
	ms_device_probe(d, (const char *const *)g.path, g.n);
	for (size_t i = 0; i < g.n; i++)
		free(g.path[i]);
	free(dir);
}

uint64_t
ms_device_key(struct ms_device *d, const char *path, ino_t ino)
{
	uint64_t phys;
	int fd;

	if (d->order != MS_ORDER_PHYSICAL || d->no_fiemap)
		return (uint64_t)ino;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd == -1)
		return (uint64_t)ino;
	if (ms_first_extent(fd, &phys) == -1) {
		/* not there (FUSE, tmpfs): inodes; an empty or inline file,
		 * or one not written yet (in the cache): first */
		d->no_fiemap = errno != ENOENT;
		phys = d->no_fiemap ? (uint64_t)ino : 0;
	}
	close(fd);
	return phys;
}

void
ms_device_say(struct ms_device *d)
{
	static const char *const orders[] = {
		"auto", "physical", "inode", "walk"
	};
	char queue[64] = "";
	size_t n = 0;

	if (d->said)
		return;
	d->said = true;
	if (d->disk.nr_requests > 0)
		n += (size_t)snprintf(queue, sizeof(queue), ", queue %u",
		    d->disk.nr_requests);
	if (d->disk.read_ahead_kb > 0)
		snprintf(queue + n, sizeof(queue) - n, ", read-ahead %u KiB",
		    d->disk.read_ahead_kb);
	ms_warn("debug: device %u:%u (%s%s): %s: %s; read in %s order%s%s",
	    major(d->dev), minor(d->dev), d->disk.via[0] != '\0' ?
	    d->disk.via : "no block device", queue, d->why,
	    d->cls == MS_DEV_SEEKING ? "seeking" : "solid", orders[d->order],
	    d->order == MS_ORDER_PHYSICAL ? (d->no_fiemap ?
	    " (inodes: no FIEMAP)" : " (FIEMAP, else inodes)") : "",
	    d->cls == MS_DEV_SEEKING ? ", one reader" : ", parallel reads");
}

#if defined(HAVE_SYS_VFS_H) && defined(HAVE_FSTATFS)
int
ms_fs_magic_in(int fd, const unsigned long *magic, size_t n)
{
	struct statfs sf;

	if (fstatfs(fd, &sf) == -1)
		return -1;
	for (size_t i = 0; i < n; i++)
		if ((unsigned long)sf.f_type == magic[i])
			return 1;
	return 0;
}
#endif

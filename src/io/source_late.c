/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * source_late.c - when one fstat after a small file's read may stand for
 * the one before it: a local file system, a clock that did not step
 * back, a file that did not change lately.  source.c asks; this file
 * never reads.
 */
#include "io/source_late.h"

#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>
#if defined(HAVE_SYS_VFS_H) && defined(HAVE_FSTATFS)
/* Linux: statfs magics, matched by ms_fs_magic_in (device.c) */
#define LINUX_STATFS	1
#elif defined(HAVE_FSTATFS) && HAVE_DECL_MNT_LOCAL
#include <sys/param.h>
#include <sys/mount.h>	/* the BSDs' and macOS's statfs: f_flags */
#define BSD_STATFS	1
#endif

#include "base/portable.h"
#include "base/util.h"
#include "io/device.h"

/*
 * A file a walk found regular is read first and fstat'ed once after
 * (source.c's late watch), where an fstat before the read and one after
 * it cost two: 20,000 files of 1 KiB made 40,000 of them at 245 ns each,
 * the largest kernel cost of the run beyond the read floor's open, read
 * and close.
 *
 * The one fstat must still tell a change while the file was read.  Any
 * change of a file (a write, a truncate, a chmod) sets its status change
 * time to the kernel's clock, which no call can set back (utimensat
 * sets ctime to now), and a write sets it before it copies a byte.  So
 * if the ctime fstat gives is older than the moment before the open
 * (CLOCK_REALTIME_COARSE, the clock the kernel stamps with) by more than
 * LATE_MARGIN_NS (twice the coarsest granularity of the file systems
 * below, a second), nothing changed the file from the open to that
 * fstat, and the bytes read are its bytes.  That holds where this
 * kernel's clock stamps the file: local file systems (NFS and FUSE take
 * their servers' clocks), and a clock that did not step back meanwhile
 * (checked: the coarse clock after the fstat is not behind the one
 * before the open).  Otherwise, or if the file changed lately, what was
 * read is read again from the start, with this fstat as the one before
 * and another after, as for every other file.
 */
#if defined(LINUX_STATFS) || defined(BSD_STATFS)

#define LATE_MARGIN_NS	2000000000LL

/* Local file systems, by statfs magic (linux/magic.h; zfs and bcachefs
 * are out of tree): their times come from this kernel's clock. */
#ifdef LINUX_STATFS
static bool
local_clock(int fd)
{
	static const unsigned long types[] = {
		0xEF53,		/* ext2, ext3, ext4 */
		0x58465342,	/* xfs */
		0x9123683E,	/* btrfs */
		0x01021994,	/* tmpfs */
		0x858458F6,	/* ramfs */
		0xF2F52010,	/* f2fs */
		0x2FC12FC1,	/* zfs */
		0xCA451A4E,	/* bcachefs */
		0x794C7630,	/* overlayfs: its upper layer's times */
	};

	return ms_fs_magic_in(fd, types, MS_ARRAY_LEN(types)) == 1;
}
#else
/* Elsewhere: a local mount (MNT_LOCAL), whatever its kind. */
static bool
local_clock(int fd)
{
	struct statfs sf;

	return fstatfs(fd, &sf) == 0 && (sf.f_flags & MNT_LOCAL) != 0;
}
#endif

/*
 * The file system of the last file this thread watched late: 1 local,
 * 0 not (its files are watched before the read), -1 not seen yet; and
 * how many files are still watched before their read because one read
 * late had changed lately (a tree just written: read twice, each of its
 * files would cost a read more than the order of the open's fstat).
 */
#define LATE_PAUSE	64

static _Thread_local struct {
	dev_t	 dev;
	int	 local;
	unsigned pause;
} late_fs = { 0, -1, 0 };

static bool
late_fs_local(int fd, dev_t dev)
{
	if (late_fs.local == -1 || late_fs.dev != dev) {
		late_fs.dev = dev;
		late_fs.local = local_clock(fd);
	}
	return late_fs.local == 1;
}

static int64_t
ns_of(struct timespec t)
{
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

bool
ms_late_possible(enum ms_io io)
{
	(void)io;		/* a mapping run's is decided after the read */
	if (late_fs.local == 0)
		return false;
	if (late_fs.pause > 0) {
		late_fs.pause--;
		return false;
	}
	return true;
}

void
ms_late_begin(struct ms_source *s)
{
	int64_t t = ms_realtime_coarse_ns();

	s->opened_at.tv_sec = (time_t)(t / 1000000000);
	s->opened_at.tv_nsec = (long)(t % 1000000000);
	s->late = true;
}

/* After the late watch's fstat: may the bytes read before it stand? */
bool
ms_late_trusted(const struct ms_source *s, int fd, const struct stat *st)
{
	if (!late_fs_local(fd, st->st_dev))
		return false;
	if (ns_of(MS_ST_CTIM(st)) >= ns_of(s->opened_at) - LATE_MARGIN_NS) {
		late_fs.pause = LATE_PAUSE;
		return false;
	}
	return ms_realtime_coarse_ns() >= ns_of(s->opened_at);
}
#else
bool
ms_late_possible(enum ms_io io)
{
	(void)io;
	return false;
}

void
ms_late_begin(struct ms_source *s)
{
	(void)s;
}

bool
ms_late_trusted(const struct ms_source *s, int fd, const struct stat *st)
{
	(void)s;
	(void)fd;
	(void)st;
	return false;
}
#endif

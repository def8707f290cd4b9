/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * device.h - the device plan for cold reads: which disk a file lies on
 * (through partitions, device-mapper and loop devices, by sysfs), what
 * that disk says of itself (rotational, queue depth), whether it seeks
 * (its flag where it can be trusted, else a short probe of the files to
 * be read), and where in it a file begins (FIEMAP, else its inode);
 * and, on Linux, which kind of file system holds an open file.
 *
 * The engine asks; a device is looked up once per run (the cache is per
 * st_dev), and --debug tells, once per device, what was chosen and why.
 * MULTISUM_READ_ORDER (auto, physical, inode, walk) and MULTISUM_DEVICE
 * (auto, seeking, solid) force the choice.
 */
#ifndef MS_DEVICE_H
#define MS_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum ms_dev_class { MS_DEV_UNDECIDED, MS_DEV_SOLID, MS_DEV_SEEKING };
enum ms_read_order { MS_ORDER_AUTO, MS_ORDER_PHYSICAL, MS_ORDER_INODE,
	MS_ORDER_WALK };

/* What sysfs says of the disk under a device. */
struct ms_disk {
	char		 name[64];	/* "vda", "sda"; "" if none was found */
	int		 rotational;	/* 1, 0; -1 unknown */
	unsigned	 nr_requests;	/* queue depth; 0 unknown */
	unsigned	 read_ahead_kb;	/* 0 unknown */
	char		 via[128];	/* "sda1 > sda", "dm-0 > vda" */
};

/*
 * The disk under dev, found from root ("/sys", or a fake tree for the
 * tests): root/dev/block/MAJ:MIN, a partition's parent, a loop device's
 * backing file's device, a mapped device's first slave.  false if dev
 * has no block device (FUSE, NFS, tmpfs, overlay): *d says unknown.
 */
bool	 ms_disk_find(const char *root, dev_t dev, struct ms_disk *d);

struct ms_device {
	dev_t		 dev;
	struct ms_disk	 disk;
	enum ms_dev_class cls;
	enum ms_read_order order;	/* physical, inode or walk, decided */
	char		 why[160];	/* for --debug */
	bool		 no_fiemap;	/* FIEMAP failed there once */
	bool		 said;		/* --debug line written */
};

/* The settings of the environment, checked: 0, or -1 after a message. */
int	 ms_device_settings(enum ms_read_order *order, enum ms_dev_class *cls);

/*
 * The device of dev, from the run's cache (looked up in /sys and the
 * settings the first time).  Its class may be MS_DEV_UNDECIDED: the flag
 * cannot be trusted, and ms_device_probe decides.  Only the submitting
 * thread calls these.
 */
struct ms_device *ms_device_of(dev_t dev);

/*
 * Decide d's class by timing reads of a few KiB of the files paths[0..n)
 * (on d, in the order they would be read): first pages of neighbours
 * against first pages far apart; with fewer than eight files, pages of
 * the largest, if it spans a MiB (else solid: a few small files).  Pages
 * in the cache are not measured; none measured, and d is solid.
 */
void	 ms_device_probe(struct ms_device *d, const char *const *paths,
	    size_t n);

/*
 * ms_device_probe when the device's first file, path, comes, so that it
 * is decided before any file is held.  Only files the run reads are
 * probed: with walked (path was found by a walk, which reads its
 * folder) the regular files of path's own folder, else path alone.  A
 * file the user did not name is never opened (a parent's folders were
 * once, and an offline file's first page can mean a recall from tape).
 */
void	 ms_device_probe_at(struct ms_device *d, const char *path,
	    bool walked);

/* Where path's first byte lies on d (FIEMAP), else ino. */
uint64_t ms_device_key(struct ms_device *d, const char *path, ino_t ino);

/* --debug: d's line, once. */
void	 ms_device_say(struct ms_device *d);

#if defined(HAVE_SYS_VFS_H) && defined(HAVE_FSTATFS)
/* Linux: 1 if the file system of fd is one of the n statfs magics
 * (f_type, linux/magic.h), 0 if not, -1 if fstatfs fails. */
int	 ms_fs_magic_in(int fd, const unsigned long *magic, size_t n);
#endif

#endif

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * unit-device.c - the disk under a device, found in a made-up sysfs
 * (io/device.c's ms_disk_find with its root pointed at a temporary
 * tree): a partition's parent, a mapped device's slave, a loop device's
 * backing file (on the real device of this test's folder, given a made-up
 * entry of its own), chains of them, and a device with no block device
 * at all (FUSE, NFS, tmpfs); then the settings of the environment.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef MAJOR_IN_SYSMACROS
#include <sys/sysmacros.h>
#endif
#include <unistd.h>

#include "io/device.h"

#include "tap.h"

static char root[4096];

/* mkdir -p root/rel */
static void
dir(const char *rel)
{
	char path[8192], *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

/* root/rel holds text and a newline, as sysfs's files do */
static void
put(const char *rel, const char *text)
{
	char path[8192];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if ((f = fopen(path, "w")) == NULL || fprintf(f, "%s\n", text) < 0 ||
	    fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

/* root/rel, a link to root/to */
static void
link_to(const char *rel, const char *to)
{
	char path[8192], target[8192];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(target, sizeof(target), "%s/%s", root, to);
	if (symlink(target, path) == -1) {
		perror(path);
		exit(1);
	}
}

/* A disk at devices/REL with its queue; dev/block/MAJ:MIN links to it. */
static void
disk(const char *rel, const char *majmin, const char *rot, const char *nr)
{
	char q[512], l[512];

	dir(rel);
	snprintf(q, sizeof(q), "%s/queue", rel);
	dir(q);
	snprintf(q, sizeof(q), "%s/queue/rotational", rel);
	put(q, rot);
	snprintf(q, sizeof(q), "%s/queue/nr_requests", rel);
	put(q, nr);
	snprintf(l, sizeof(l), "dev/block/%s", majmin);
	link_to(l, rel);
}

/* A partition at REL (inside its disk's folder). */
static void
part(const char *rel, const char *majmin)
{
	char p[512], l[512];

	dir(rel);
	snprintf(p, sizeof(p), "%s/partition", rel);
	put(p, "1");
	snprintf(l, sizeof(l), "dev/block/%s", majmin);
	link_to(l, rel);
}

static void
expect(unsigned maj, unsigned min, bool found, const char *name, int rot,
    unsigned nr, const char *via)
{
	struct ms_disk d;
	bool r = ms_disk_find(root, makedev(maj, min), &d);

	tap_ok(r == found && strcmp(d.name, name) == 0 && d.rotational == rot &&
	    d.nr_requests == nr && (via == NULL || strcmp(d.via, via) == 0),
	    "%u:%u: %s (via %s)", maj, min, found ? name : "none",
	    via != NULL ? via : "-");
	if (r != found || strcmp(d.name, name) != 0 || d.rotational != rot ||
	    d.nr_requests != nr || (via != NULL && strcmp(d.via, via) != 0))
		tap_diag("got %s, %s, rotational %d, queue %u, via '%s'",
		    r ? "found" : "none", d.name, d.rotational, d.nr_requests,
		    d.via);
}

static void
sysfs_chains(void)
{
	char backing[8192];
	struct stat st;

	dir("dev/block");
	/* a partition of a spinning disk */
	disk("devices/pci0/block/sda", "8:0", "1", "64");
	part("devices/pci0/block/sda/sda1", "8:1");
	/* a mapped device (LUKS, LVM) on a partition of an NVMe drive */
	disk("devices/pci1/block/nvme0n1", "259:0", "0", "1023");
	part("devices/pci1/block/nvme0n1/nvme0n1p2", "259:2");
	dir("devices/virtual/block/dm-0/slaves");
	link_to("dev/block/253:0", "devices/virtual/block/dm-0");
	link_to("devices/virtual/block/dm-0/slaves/nvme0n1p2",
	    "devices/pci1/block/nvme0n1/nvme0n1p2");
	/* LVM on two disks: the first slave by name stands for them */
	dir("devices/virtual/block/dm-1/slaves");
	link_to("dev/block/253:1", "devices/virtual/block/dm-1");
	link_to("devices/virtual/block/dm-1/slaves/sda1",
	    "devices/pci0/block/sda/sda1");
	link_to("devices/virtual/block/dm-1/slaves/sdb",
	    "devices/pci1/block/nvme0n1");

	expect(8, 0, true, "sda", 1, 64, "sda");
	expect(8, 1, true, "sda", 1, 64, "sda1 > sda");
	expect(259, 2, true, "nvme0n1", 0, 1023, "nvme0n1p2 > nvme0n1");
	expect(253, 0, true, "nvme0n1", 0, 1023,
	    "dm-0 > nvme0n1p2 > nvme0n1");
	expect(253, 1, true, "sda", 1, 64, "dm-1 > sda1 > sda");
	/* FUSE, NFS, tmpfs, overlay: an anonymous device, no entry */
	expect(0, 42, false, "", -1, 0, NULL);

	/* a loop device whose file lies on this folder's real device, and
	 * a partition of it, and a mapped device on that */
	snprintf(backing, sizeof(backing), "%s/backing.img", root);
	put("backing.img", "x");
	if (stat(backing, &st) == -1) {
		perror(backing);
		exit(1);
	}
	char real[64], rel[8192];

	snprintf(real, sizeof(real), "%u:%u", major(st.st_dev),
	    minor(st.st_dev));
	snprintf(rel, sizeof(rel), "%s/dev/block/%s", root, real);
	if (access(rel, F_OK) == 0) {
		tap_skip("this folder's device is one of the made-up ones",
		    "loop devices");
		return;
	}
	disk("devices/virtual/block/vdz", real, "1", "256");
	dir("devices/virtual/block/loop0/loop");
	link_to("dev/block/7:0", "devices/virtual/block/loop0");
	put("devices/virtual/block/loop0/loop/backing_file", backing);
	part("devices/virtual/block/loop0/loop0p1", "259:9");
	dir("devices/virtual/block/dm-2/slaves");
	link_to("dev/block/253:2", "devices/virtual/block/dm-2");
	link_to("devices/virtual/block/dm-2/slaves/loop0p1",
	    "devices/virtual/block/loop0/loop0p1");
	/* a loop device whose file is gone */
	dir("devices/virtual/block/loop1/loop");
	link_to("dev/block/7:1", "devices/virtual/block/loop1");
	put("devices/virtual/block/loop1/loop/backing_file", "/nonexistent");

	expect(7, 0, true, "vdz", 1, 256, "loop0 > vdz");
	expect(259, 9, true, "vdz", 1, 256, "loop0p1 > loop0 > vdz");
	expect(253, 2, true, "vdz", 1, 256, "dm-2 > loop0p1 > loop0 > vdz");
	expect(7, 1, false, "", -1, 0, NULL);
}

static void
settings(void)
{
	enum ms_read_order order;
	enum ms_dev_class cls;

	unsetenv("MULTISUM_READ_ORDER");
	unsetenv("MULTISUM_DEVICE");
	tap_ok(ms_device_settings(&order, &cls) == 0 &&
	    order == MS_ORDER_AUTO && cls == MS_DEV_UNDECIDED,
	    "unset: auto, decided per device");
	setenv("MULTISUM_READ_ORDER", "inode", 1);
	setenv("MULTISUM_DEVICE", "seeking", 1);
	tap_ok(ms_device_settings(&order, &cls) == 0 &&
	    order == MS_ORDER_INODE && cls == MS_DEV_SEEKING,
	    "inode, seeking");
	setenv("MULTISUM_READ_ORDER", "walk", 1);
	setenv("MULTISUM_DEVICE", "solid", 1);
	tap_ok(ms_device_settings(&order, &cls) == 0 &&
	    order == MS_ORDER_WALK && cls == MS_DEV_SOLID, "walk, solid");
	setenv("MULTISUM_READ_ORDER", "sorted", 1);
	tap_ok(ms_device_settings(&order, &cls) == -1, "an unknown order");
	setenv("MULTISUM_READ_ORDER", "", 1);
	setenv("MULTISUM_DEVICE", "ssd", 1);
	tap_ok(ms_device_settings(&order, &cls) == -1, "an unknown class");
}

int
main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(root, sizeof(root), "%s/unit-device.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	if (mkdtemp(root) == NULL) {
		perror(root);
		return 1;
	}
	sysfs_chains();
	settings();
	{
		char cmd[8300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd) != 0)
			tap_diag("could not remove %s", root);
	}
	return tap_done();
}

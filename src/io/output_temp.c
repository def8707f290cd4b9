/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * output_temp.c - the temporary files beside an -o target: their names
 * (".BASE.multisum-XXXXXX"), the lock each holds while its run lives,
 * and the removal of those a run killed outright (SIGKILL, a power cut)
 * left behind, which would else pile up and be read as files of a tree
 * (a ledger kept inside its tree, a manifest per folder).
 *
 * A temporary is removed only when everything says it is a dead run's:
 * its name is ours, it is a regular file of ours with one link, no one
 * holds its lock, it is empty or reads as a manifest, and the file
 * system is a local one.  On a network file system (NFS, SMB, FUSE...)
 * a lock may not be seen from another machine, whose run may be alive:
 * the file is named on standard error and let be.
 */
#include "io/output_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(HAVE_SYS_VFS_H) && defined(HAVE_FSTATFS)
/* Linux: statfs magics, matched by ms_fs_magic_in (device.c) */
#define LINUX_STATFS	1
#elif defined(HAVE_FSTATFS) && HAVE_DECL_MNT_LOCAL
#include <sys/param.h>
#include <sys/mount.h>	/* the BSDs' and macOS's statfs: f_flags */
#define BSD_STATFS	1
#endif

#include "base/quote.h"
#include "base/util.h"
#include "io/device.h"

/* What a temporary's name holds after ".BASE.": ours, then mkstemp's. */
#define MARK		"multisum-"
#define RANDOM		"XXXXXX"

char *
ms_output_temp_name(const char *target)
{
	const char *slash = strrchr(target, '/');
	int dirlen = slash ? (int)(slash - target + 1) : 0;

	return ms_xasprintf("%.*s.%s." MARK RANDOM, dirlen, target,
	    slash ? slash + 1 : target);
}

bool
ms_output_is_temp_of(const char *name, const char *base)
{
	size_t n = strlen(base), m = strlen(MARK);
	const char *p = name + n + 2 + m;

	if (name[0] != '.' || strncmp(name + 1, base, n) != 0 ||
	    name[n + 1] != '.' || strncmp(name + n + 2, MARK, m) != 0 ||
	    strlen(p) != strlen(RANDOM))
		return false;
	for (; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9')))
			return false;
	return true;
}

/* Take fd's lock, waiting for a sweeping run that holds it a moment. */
static void
lock(int fd)
{
	while (flock(fd, LOCK_EX) == -1 && errno == EINTR)
		continue;
	/* no locks on this file system: its temporaries are never swept */
}

int
ms_output_temp_create(char *tmpl)
{
	size_t len = strlen(tmpl), r = strlen(RANDOM);

	/* A run sweeping this folder may have taken the new file for a
	 * dead one's, empty, before our lock: then it is gone, make another. */
	for (int tries = 0; tries < 16; tries++) {
		struct stat st;
		int fd;

		memcpy(tmpl + len - r, RANDOM, r);
		fd = mkstemp(tmpl);
		if (fd == -1)
			return -1;
		lock(fd);
		if (fstat(fd, &st) == 0 && st.st_nlink == 0) {
			close(fd);
			continue;
		}
		return fd;
	}
	errno = EEXIST;
	return -1;
}

/* May a lock on fd be unseen by a run on another machine?  Why, or NULL
 * where it may not. */
static const char *
shared_fs(int fd)
{
	static const char *const remote = "a network file system";
#ifdef LINUX_STATFS
	/* NFS, SMB/CIFS, SMB2, FUSE (sshfs...), Ceph, AFS, Coda, 9P,
	 * GFS2, OCFS2, Lustre, OrangeFS */
	static const unsigned long types[] = {
		0x6969, 0x517b, 0xff534d42, 0xfe534d42, 0x65735546, 0x00c36400,
		0x5346414f, 0x73757245, 0x01021997, 0x01161970, 0x7461636f,
		0x0bd00bd0, 0x20030528,
	};

	/* unknown (fstatfs failed): taken for shared */
	return ms_fs_magic_in(fd, types, MS_ARRAY_LEN(types)) != 0 ?
	    remote : NULL;
#elif defined(BSD_STATFS)
	struct statfs sf;

	return fstatfs(fd, &sf) == -1 || !(sf.f_flags & MNT_LOCAL) ?
	    remote : NULL;
#else
	(void)fd;
	(void)remote;
	return "this system cannot tell a local file system";	/* never swept */
#endif
}

/* Remove path (open as fd, locked) if it still names fd's file. */
static bool
unlink_same(int dfd, const char *name, const struct stat *st)
{
	struct stat now;

	return fstatat(dfd, name, &now, AT_SYMLINK_NOFOLLOW) == 0 &&
	    now.st_dev == st->st_dev && now.st_ino == st->st_ino &&
	    unlinkat(dfd, name, 0) == 0;
}

/* One entry of the target's folder: removed if a dead run's temporary. */
static void
sweep_one(int dfd, const char *dir, const char *name,
    bool (*manifest)(int fd, const char *path, bool whole))
{
	struct stat st;
	char *path = ms_xasprintf("%s%s", dir, name);
	const char *why;
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC | O_NOCTTY);

	if (fd == -1 || fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_nlink != 1 || st.st_uid != geteuid())
		goto out;
	if ((why = shared_fs(fd)) != NULL) {
		ms_warn("%s: left by a run that was killed or runs on another "
		    "machine: not removed (%s)", ms_quotef(path), why);
		goto out;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == -1)
		goto out;	/* a live run's, or no locks here */
	if ((st.st_size == 0 || manifest(fd, path, true)) &&
	    unlink_same(dfd, name, &st))
		ms_warn("%s: removed: the temporary file of a run that was "
		    "killed", ms_quotef(path));
out:
	if (fd != -1)
		close(fd);
	free(path);
}

void
ms_output_temp_sweep(const char *target,
    bool (*manifest)(int fd, const char *path, bool whole))
{
	const char *slash = strrchr(target, '/');
	const char *base = slash != NULL ? slash + 1 : target;
	char *dir = ms_xasprintf("%.*s", slash != NULL ? (int)(slash - target +
	    1) : 0, target);
	int dfd = open(*dir != '\0' ? dir : ".", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC);
	DIR *d = dfd == -1 ? NULL : fdopendir(dup(dfd));
	struct dirent *de;

	while (d != NULL && (de = readdir(d)) != NULL)
		if (ms_output_is_temp_of(de->d_name, base))
			sweep_one(dfd, dir, de->d_name, manifest);
	if (d != NULL)
		closedir(d);
	if (dfd != -1)
		close(dfd);
	free(dir);
}

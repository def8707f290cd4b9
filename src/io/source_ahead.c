/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * source_ahead.c - read-ahead for one large file that is not in the page
 * cache: several reads of it in flight, sized to its device.
 *
 * The kernel's own read-ahead keeps about read_ahead_kb (twice that after
 * FADV_SEQUENTIAL) in flight, and starts the next batch only when the
 * reader reaches a marker in the last one: measured on this project's VM
 * (virtio disk, read_ahead_kb 8192, max_sectors_kb 4096) a cold 4 GiB
 * file read that way kept the disk busy 54-65% of the time, at 2-3
 * requests in flight.  Here a file of AHEAD_MIN bytes or more whose page
 * STEP_MAX bytes past its first chunk is not cached (mincore; a warm file
 * has it, and is left as it was) is asked for with POSIX_FADV_WILLNEED,
 * STEPS steps ahead of where the reading stands, a step being what the
 * kernel would read ahead for it (twice read_ahead_kb, within STEP_MIN and
 * STEP_MAX).  The hint starts the reads and returns; the read(2) or the
 * mapped window that comes to those pages later finds them read, or
 * waits for them.  The first hints go with the second chunk, so that a
 * file the engine hands to a ring (engine_big.c: one worker reads while
 * the others hash) can still be read past the page cache instead: with
 * O_DIRECT, the reads cost no page-cache work (a cold 4 GiB file read
 * through the cache cost 2.2 s of system time here, which a digest that
 * needs a whole core, sha256, shares its CPUs with) and the disk sees
 * the ring's reads as they are.  A read the file system refuses
 * (EINVAL) turns it back to the page cache (source.c).  Owns nothing
 * else: source.c calls ms_ahead_next after every chunk it hands out.
 */
#include "io/source_ahead.h"

#include <fcntl.h>
#include <unistd.h>

#include "base/portable.h"
#include "base/util.h"
#include "io/device.h"

#define AHEAD_MIN	((off_t)64 << 20)	/* files from this size */
#define STEP_MIN	((off_t)4 << 20)
#define STEP_MAX	((off_t)32 << 20)
#define STEP_UNKNOWN	((off_t)16 << 20)	/* no read_ahead_kb */
#define STEPS		4

/* Where reading stops: a range's end, else the file's. */
static off_t
end_of(const struct ms_source *s)
{
	return s->limit >= 0 && s->limit < s->size ? s->limit : s->size;
}

/* The first time: is s worth reading ahead, and how far? */
static void
plan(struct ms_source *s)
{
	off_t page = (off_t)sysconf(_SC_PAGESIZE);
	off_t probe = s->pos + STEP_MAX;
	struct ms_device *d;
	off_t step;

	s->ahead_checked = true;
	s->ahead_cached = -2;	/* not asked: small, or not a file */
	if (s->fd == -1 || !s->watched || s->size < 0 ||
	    end_of(s) - s->pos < AHEAD_MIN)
		return;
	s->ahead_cached = ms_page_cached(s->fd, probe - probe % page);
	if (s->ahead_cached != 0)
		return;		/* in the cache, or it cannot be told */
	d = ms_device_of(s->id.dev);
	s->ahead_dev = d->disk.name[0] != '\0' ? d->disk.name : NULL;
	s->ahead_ra_kb = d->disk.read_ahead_kb;
	step = s->ahead_ra_kb > 0 ? (off_t)s->ahead_ra_kb << 11 : STEP_UNKNOWN;
	if (step < STEP_MIN)
		step = STEP_MIN;
	if (step > STEP_MAX)
		step = STEP_MAX;
	s->ahead_step = step;
	s->ahead = STEPS * step;
	s->hinted = s->pos;
	if (!s->advised) {
		ms_advise_sequential(s->fd);
		s->advised = true;
	}
}

void
ms_ahead_next(struct ms_source *s)
{
	off_t end;

	if (!s->ahead_checked) {
		plan(s);
		return;		/* hints from the next chunk: see above */
	}
	if (s->ahead == 0)
		return;
	end = end_of(s);
	/* a step at a time, once a whole one is free: few calls */
	while (s->hinted < end && s->hinted + s->ahead_step <= s->pos + s->ahead) {
		off_t len = end - s->hinted < s->ahead_step ?
		    end - s->hinted : s->ahead_step;

		ms_advise_willneed(s->fd, s->hinted, len);
		s->hinted += len;
	}
}

bool
ms_ahead_planned(const struct ms_source *s)
{
	return s->ahead > 0 && s->hinted == s->pos;
}

bool
ms_ahead_direct(struct ms_source *s)
{
#ifdef O_DIRECT
	int fl;

	/* planned, not yet hinted, whole from an aligned place: O_DIRECT's
	 * reads are of whole blocks */
	if (!ms_ahead_planned(s) || s->limit >= 0 ||
	    s->pos % (off_t)sysconf(_SC_PAGESIZE) != 0)
		return false;
	fl = fcntl(s->fd, F_GETFL);
	if (fl == -1 || fcntl(s->fd, F_SETFL, fl | O_DIRECT) == -1)
		return false;	/* EINVAL: the file system reads cached */
	s->direct = true;
	s->ahead = 0;
	if (s->map)
		s->unmapped = true;	/* the rest read (pread), not mapped */
	return true;
#else
	(void)s;
	return false;
#endif
}

int
ms_ahead_direct_off(struct ms_source *s)
{
#ifdef O_DIRECT
	int fl = fcntl(s->fd, F_GETFL);

	if (fl == -1 || fcntl(s->fd, F_SETFL, fl & ~O_DIRECT) == -1)
		return -1;
#endif
	s->direct = false;
	return 0;
}

void
ms_ahead_say(const struct ms_source *s)
{
	if (!s->ahead_checked || s->ahead_cached == -2)
		return;
	if (s->direct) {
		ms_warn("debug: %s: not in the page cache: read past it "
		    "(O_DIRECT) by one worker while the others hash (%s%s)",
		    s->name, s->ahead_dev != NULL ? "device " : "",
		    s->ahead_dev != NULL ? s->ahead_dev : "no block device");
		return;
	}
	if (s->ahead == 0) {
		ms_warn("debug: %s: %s: the kernel's read-ahead", s->name,
		    s->ahead_cached == 1 ? "in the page cache" :
		    "the page cache cannot be asked");
		return;
	}
	ms_warn("debug: %s: not in the page cache: %lld MiB read ahead, "
	    "%d reads of %lld MiB in flight (%s%s, read_ahead_kb %u)", s->name,
	    (long long)(s->ahead >> 20), STEPS, (long long)(s->ahead_step >> 20),
	    s->ahead_dev != NULL ? "device " : "",
	    s->ahead_dev != NULL ? s->ahead_dev : "no block device",
	    s->ahead_ra_kb);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * torrent.h - a .torrent file as a checksum list (torrent.c): its files,
 * their places in the v1 piece stream, and the hashes v1 (BEP 3, BEP 47)
 * and v2 (BEP 52) give for them.
 */
#ifndef MS_TORRENT_H
#define MS_TORRENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "manifest/bencode.h"

#define MS_TORRENT_V1_HASH	20	/* SHA-1 */
#define MS_TORRENT_V2_HASH	32	/* SHA-256 */

struct ms_torrent_file {
	char		*path;		/* under the root: "name/dir/file" */
	uint64_t	 length;
	bool		 pad;		/* BEP 47 padding: zeros, not on disk */
	uint64_t	 offset;	/* v1: where it starts in the stream */
	/* v2: its pieces root, and its piece layer (count hashes) when it
	 * is longer than a piece; NULL when it has none (empty, or v1) */
	const unsigned char *root;
	const unsigned char *layer;
	size_t		 layer_count;
};

struct ms_torrent {
	struct ms_bnode	*tree;		/* the parsed file: the hashes point
					 * into its bytes */
	uint64_t	 piece_length;
	/* v1: the pieces' SHA-1s, end to end (count of them) */
	const unsigned char *pieces;
	size_t		 piece_count;
	bool		 v1, v2;	/* a hybrid is both */
	/* the files of v2's tree when v2 (no padding), else v1's list */
	struct ms_torrent_file *file;
	size_t		 nfiles;
	/* v1's list when a hybrid's files are v2's; else NULL */
	struct ms_torrent_file *v1file;
	size_t		 nv1files;
	/* the info dictionary's bytes, for its info hash */
	const unsigned char *info;
	size_t		 info_len;
};

/*
 * Read a torrent from buf[0..n) (which must outlive it).  Every name in
 * it is checked: no empty, "." or ".." component, no "/" or NUL inside
 * one, so that no path leaves the root.  Returns 0, or -1 with *why a
 * message fragment (what makes it no valid torrent).
 */
int	 ms_torrent_read(struct ms_torrent *t, const unsigned char *buf,
	    size_t n, const char **why);
void	 ms_torrent_free(struct ms_torrent *t);

#endif

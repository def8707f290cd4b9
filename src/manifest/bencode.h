/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bencode.h - BitTorrent's bencoding read strictly from bytes in memory
 * (bencode.c), for torrent.c.
 */
#ifndef MS_BENCODE_H
#define MS_BENCODE_H

#include <stddef.h>
#include <stdint.h>

/* Deeper nesting than this is refused: no torrent needs it. */
#define MS_BENCODE_DEPTH	64

enum ms_btype { MS_BINT, MS_BSTR, MS_BLIST, MS_BDICT };

/* One value; its bytes [raw, raw + raw_len) lie inside the input. */
struct ms_bnode {
	enum ms_btype	 type;
	const unsigned char *raw;
	size_t		 raw_len;
	int64_t		 i;		/* MS_BINT */
	const unsigned char *s;		/* MS_BSTR: s[0..len) */
	size_t		 len;		/* MS_BSTR: bytes; list, dict: items */
	struct ms_bnode	*item;		/* list: values; dict: key, value... */
};

/*
 * Parse buf[0..n) as one bencoded value and nothing after it.  Strict:
 * integers in canonical form within int64_t (no "-0", no leading zero),
 * string lengths within the input, dictionary keys strings in strictly
 * ascending byte order, at most MS_BENCODE_DEPTH levels.  Returns the
 * root (free it with ms_bencode_free), or NULL with *why set.  The
 * nodes point into buf, which must outlive them.
 */
struct ms_bnode *ms_bencode_parse(const unsigned char *buf, size_t n,
	    const char **why);
void	 ms_bencode_free(struct ms_bnode *root);

/* The value under key in dictionary d, or NULL (d not a dict too). */
const struct ms_bnode *ms_bencode_get(const struct ms_bnode *d,
	    const char *key);
/* Is v a string equal to s? */
int	 ms_bencode_is(const struct ms_bnode *v, const char *s);

#endif

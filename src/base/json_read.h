/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * json_read.h - a small, strict JSON reader (RFC 8259): one value, its
 * strings UTF-8 with their escapes undone, no duplicate keys, no
 * trailing commas, comments or bytes after the value, at most
 * MS_JREAD_DEPTH levels.  The document becomes a tree of nodes in one
 * array, read by the helpers below.  Pure: it reads only the bytes it
 * is given (fuzz/fuzz-json.c).
 */
#ifndef MS_JSON_READ_H
#define MS_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MS_JREAD_DEPTH	64

enum ms_jtype {
	MS_J_NULL, MS_J_FALSE, MS_J_TRUE, MS_J_NUMBER, MS_J_STRING,
	MS_J_ARRAY, MS_J_OBJECT,
};

struct ms_jnode {
	enum ms_jtype	 type;
	char		*key;		/* an object member's key (NUL-ended) */
	size_t		 key_len;
	char		*str;		/* a string's bytes, a number's text
					 * (NUL-ended; a string may hold NULs) */
	size_t		 len;
	size_t		 kid;		/* first element or member, or 0 */
	size_t		 next;		/* next sibling, or 0 (the root is 0) */
};

struct ms_jdoc {
	struct ms_jnode	*n;		/* n[0] is the value */
	size_t		 cnt, cap;
};

/* Parse text[0..len); -1 with *why (a static string) if it is not JSON. */
int	 ms_jread(const char *text, size_t len, struct ms_jdoc *doc,
	    const char **why);
void	 ms_jread_free(struct ms_jdoc *doc);

/* The member key of object o, or NULL (also when o is no object). */
const struct ms_jnode *ms_jread_member(const struct ms_jdoc *doc,
	    const struct ms_jnode *o, const char *key);
/* The first element or member of o, the one after k; NULL at the end. */
const struct ms_jnode *ms_jread_first(const struct ms_jdoc *doc,
	    const struct ms_jnode *o);
const struct ms_jnode *ms_jread_next(const struct ms_jdoc *doc,
	    const struct ms_jnode *k);
/* The string member key of o (NUL-free), or NULL. */
const char *ms_jread_string(const struct ms_jdoc *doc,
	    const struct ms_jnode *o, const char *key);

/*
 * The pieces of a JSON string's escapes, for a reader with rules of its
 * own (manifest_digest.c's): four hex digits' value, or -1; the byte
 * the one-letter escape \c stands for, or -1 (\u is no one-letter
 * escape); code point c as UTF-8 at o, returning the byte after it.
 */
int	 ms_json_hex4(const char *p);
int	 ms_json_escape(char c);
char	*ms_utf8_put(char *o, uint32_t c);

#endif

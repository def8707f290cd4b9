/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * manifest_apt.c - Debian's lists of checksums: a Release or InRelease
 * file (its SHA256 field of "HASH SIZE PATH" lines, the paths under the
 * Release file's folder, absent ones a partial mirror's), a Packages
 * index (stanzas pairing Filename with SHA256 and Size, the paths under
 * the repository's root) and a source package's .dsc or an upload's
 * .changes (Checksums-Sha256, the files beside it).  As apt does, the
 * strongest hash given is checked: SHA512 where it is given, else
 * SHA256 (a paragraph's SHA256 lines are held until its end tells
 * there is no SHA512 field); MD5Sum and SHA1, which apt no longer
 * trusts, never.
 *
 * Owns telling these lists from other ones, by their first line (a
 * deb822 field only they begin with), and the names they give: joined
 * to their folder or root, refused when absolute or holding a ".."
 * component, so that no name leads out of its tree.  It reads nothing:
 * lines come as for every list, a PGP message's armour already taken off
 * (manifest.c).
 */
#include "manifest/manifest_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct ms_mf_apt {
	enum { APT_UNKNOWN, APT_NO, APT_YES } is;
	char		*dir;		/* the list's folder, "" or ending in '/' */
	char		*root;		/* a Packages index's root, likewise */
	char		 field[32];	/* the field the next lines continue */
	unsigned	 taken;		/* 512: the paragraph's SHA512 field met */
	/* its SHA256 lines, held until its end ('o' or 'i' before each:
	 * outside or inside a PGP message's signed part), and the next of
	 * them to hand out */
	char		**held;
	size_t		 nheld, cap, next;
	bool		 held_dsc;	/* they are Checksums-Sha256's */
	bool		 said;		/* which field is read: said once */
	/* the stanza of a Packages index being read */
	char		*filename;
	char		 hex[129];
	unsigned	 bits;		/* of hex: 256, 512, 0 none */
	uint64_t	 size;
	bool		 has_size;
	char		*name;		/* the name last handed out */
};

/* The fields a Debian list may begin with (deb822: Release, Packages,
 * .dsc, .changes). */
static const char *const first_fields[] = {
	"Origin", "Label", "Suite", "Codename", "Version", "Date",
	"Valid-Until", "Architectures", "Components", "Description",
	"Acquire-By-Hash", "NotAutomatic", "ButAutomaticUpgrades",
	"Changelogs", "Snapshots", "No-Support-for-Architecture-all",
	"MD5Sum", "SHA1", "SHA256", "SHA512", "Package", "Format", "Source",
};

/* "folder/" of path ("" for none, or standard input). */
static char *
folder(const char *path)
{
	const char *slash = path != NULL ? strrchr(path, '/') : NULL;

	return slash == NULL ? ms_xstrdup("") :
	    ms_xstrndup(path, (size_t)(slash - path) + 1);
}

/* A Packages index's root: --root, else the folder above its dists/,
 * else its own folder. */
static char *
root_of(const char *given, const char *path)
{
	const char *at = NULL;

	if (given != NULL)
		return given[0] == '\0' ? ms_xstrdup("") :
		    given[strlen(given) - 1] == '/' ? ms_xstrdup(given) :
		    ms_xasprintf("%s/", given);
	if (path == NULL)
		return ms_xstrdup("");
	if (strncmp(path, "dists/", 6) == 0)
		return ms_xstrdup("");
	for (const char *p = path; (p = strstr(p, "/dists/")) != NULL; p++)
		at = p;
	return at != NULL ? ms_xstrndup(path, (size_t)(at - path) + 1) :
	    folder(path);
}

void
ms_mf_apt_begin(const struct ms_manifest_rules *r,
    struct ms_manifest_state *st, const char *path)
{
	const char *p = st->from_stdin ? NULL : path;

	ms_mf_apt_end(st);
	st->apt = ms_xcalloc(1, sizeof(*st->apt));
	st->apt->dir = folder(p);
	st->apt->root = root_of(r->root != NULL ? r->root : st->top, p);
}

static void
held_clear(struct ms_mf_apt *a)
{
	for (size_t i = 0; i < a->nheld; i++)
		free(a->held[i]);
	a->nheld = a->next = 0;
}

static void
stanza_clear(struct ms_mf_apt *a)
{
	free(a->filename);
	a->filename = NULL;
	a->bits = 0;
	a->has_size = false;
}

void
ms_mf_apt_end(struct ms_manifest_state *st)
{
	if (st->apt == NULL)
		return;
	stanza_clear(st->apt);
	held_clear(st->apt);
	free(st->apt->held);
	free(st->apt->dir);
	free(st->apt->root);
	free(st->apt->name);
	free(st->apt);
	st->apt = NULL;
}

/* Is the field at s (up to its colon, n bytes) one a Debian list may
 * begin with, and its value no gpg --print-md digest? */
static bool
begins_list(const char *s, size_t len)
{
	const char *colon = memchr(s, ':', len);
	size_t n, v;

	if (colon == NULL)
		return false;
	n = (size_t)(colon - s);
	for (v = n + 1; v < len && ISWHITE(s[v]); v++)
		;
	if (v < len && ms_mf_hex_groups(s + v, len - v, 4))
		return false;
	for (size_t i = 0; i < sizeof(first_fields) / sizeof(*first_fields); i++)
		if (strlen(first_fields[i]) == n &&
		    strncmp(first_fields[i], s, n) == 0)
			return true;
	return false;
}

/* The bits of a hash field's name: SHA256 256, SHA512 512, else 0;
 * *multi: a .dsc's "Checksums-" form. */
static unsigned
hash_field(const char *f, bool *dsc)
{
	*dsc = strncmp(f, "Checksums-", 10) == 0;
	if (*dsc)
		f += 10;
	return ms_strcaseeq(f, "SHA256") ? 256 :
	    ms_strcaseeq(f, "SHA512") ? 512 : 0;
}

/* The entry of name under base, a digest of bits in hex; a name that
 * would leave the tree is refused. */
static enum ms_line
entry(struct ms_manifest_state *st, const char *base, const char *name,
    const char *hex, size_t hexlen, unsigned bits, struct ms_manifest_entry *e)
{
	struct ms_manifest_digest *d = &e->d[0];
	size_t len = bits / 8;

	if (name[0] == '\0' || name[0] == '/' || ms_path_leaves(name)) {
		snprintf(st->why, sizeof(st->why), "%.40s: a name that leaves "
		    "its folder (/, ..): refused", name);
		e->why = st->why;
		return MS_LINE_BAD;
	}
	if (hexlen != 2 * len || !ms_mf_all_hex(hex, hexlen) ||
	    !ms_mf_fit(ms_mf_algo_named(bits == 256 ? "sha256" : "sha512"),
	    len, &d->spec))
		return MS_LINE_BAD;
	ms_unhex(d->digest, hex, len);
	d->len = len;
	e->n = 1;
	e->how = MS_BY_TAG;
	free(st->apt->name);
	st->apt->name = ms_xasprintf("%s%s", base, name);
	e->name = st->apt->name;
	if (!st->apt->said)
		e->note = bits == 512 ? "a Debian list: its SHA512 hashes are "
		    "checked, the strongest it gives" : "a Debian list: its "
		    "SHA256 hashes are checked, the strongest it gives";
	st->apt->said = true;
	return MS_LINE_ENTRY;
}

static bool
decimal(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;

	if (n == 0 || n > 19)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return true;
}

/* A line " HASH SIZE NAME" of a hash field of bits. */
static enum ms_line
hash_entry(struct ms_manifest_state *st, char *s, size_t len, unsigned bits,
    bool dsc, struct ms_manifest_entry *e)
{
	size_t h, hn, z, zn, name;

	for (h = 0; h < len && ISWHITE(s[h]); h++)
		;
	for (hn = 0; h + hn < len && !ISWHITE(s[h + hn]); hn++)
		;
	for (z = h + hn; z < len && ISWHITE(s[z]); z++)
		;
	for (zn = 0; z + zn < len && !ISWHITE(s[z + zn]); zn++)
		;
	for (name = z + zn; name < len && ISWHITE(s[name]); name++)
		;
	while (len > name && ISWHITE(s[len - 1]))
		len--;
	s[len] = '\0';
	if (!decimal(s + z, zn, &e->size))
		return MS_LINE_BAD;
	e->has_size = true;
	/* a Release file's: a partial mirror holds some of them */
	e->optional = !dsc;
	return entry(st, st->apt->dir, s + name, s + h, hn, bits, e);
}

/* A line of the hash field being read: a SHA512 one checked at once, a
 * SHA256 one held until the paragraph's end says no SHA512 came. */
static enum ms_line
hash_line(struct ms_manifest_state *st, char *s, size_t len,
    struct ms_manifest_entry *e)
{
	struct ms_mf_apt *a = st->apt;
	bool dsc;
	unsigned bits = hash_field(a->field, &dsc);

	if (bits == 512) {
		if (a->taken != 512)
			held_clear(a);	/* a stronger field: SHA256 is not read */
		a->taken = 512;
		return hash_entry(st, s, len, bits, dsc, e);
	}
	if (bits != 256 || a->taken == 512)
		return MS_LINE_SKIP;
	if (a->nheld == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 64;
		a->held = ms_xrealloc(a->held, a->cap * sizeof(*a->held));
	}
	a->held[a->nheld++] = ms_xasprintf("%c%.*s", e->outside ? 'o' : 'i',
	    (int)len, s);
	a->held_dsc = dsc;
	return MS_LINE_SKIP;
}

/* The paragraph's end: the next SHA256 line held (there is one). */
static enum ms_line
held_next(struct ms_manifest_state *st, struct ms_manifest_entry *e)
{
	struct ms_mf_apt *a = st->apt;
	char *s;

	s = a->held[a->next++];
	e->outside = s[0] == 'o';
	return hash_entry(st, s + 1, strlen(s + 1), 256, a->held_dsc, e);
}

/* The end of a Packages stanza: its file, if it named one. */
static enum ms_line
stanza_end(struct ms_manifest_state *st, struct ms_manifest_entry *e)
{
	struct ms_mf_apt *a = st->apt;
	enum ms_line rc = MS_LINE_SKIP;

	if (a->next < a->nheld) {
		/* once per line held, the caller coming back with the
		 * same line (st->again), and a last time for the stanza */
		st->again = true;
		return held_next(st, e);
	}
	held_clear(a);
	if (a->filename != NULL && a->bits != 0) {
		rc = entry(st, a->root, a->filename, a->hex, strlen(a->hex),
		    a->bits, e);
		e->has_size = a->has_size;
		e->size = a->size;
	} else if (a->filename != NULL) {
		snprintf(st->why, sizeof(st->why), "%.40s: no SHA256 or "
		    "SHA512 field", a->filename);
		e->why = st->why;
		rc = MS_LINE_BAD;
	}
	stanza_clear(a);
	a->taken = 0;
	a->field[0] = '\0';
	return rc;
}

/* "Field: value": a Packages stanza's Filename, SHA256, SHA512, Size. */
static enum ms_line
field_line(struct ms_manifest_state *st, char *s, size_t len)
{
	struct ms_mf_apt *a = st->apt;
	const char *colon = memchr(s, ':', len);
	size_t n, v;
	bool dsc;
	unsigned bits;

	if (colon == NULL || colon == s)
		return MS_LINE_BAD;
	n = (size_t)(colon - s);
	snprintf(a->field, sizeof(a->field), "%.*s", (int)n, s);
	for (v = n + 1; v < len && ISWHITE(s[v]); v++)
		;
	while (len > v && ISWHITE(s[len - 1]))
		len--;
	if (v == len)
		return MS_LINE_SKIP;	/* a field of the lines below */
	bits = hash_field(a->field, &dsc);
	if (ms_strcaseeq(a->field, "Filename")) {
		free(a->filename);
		a->filename = ms_xstrndup(s + v, len - v);
	} else if (ms_strcaseeq(a->field, "Size")) {
		a->has_size = decimal(s + v, len - v, &a->size);
	} else if (bits != 0 && !dsc && bits > a->bits &&
	    len - v < sizeof(a->hex)) {
		/* the strongest, as apt takes it */
		snprintf(a->hex, sizeof(a->hex), "%.*s", (int)(len - v), s + v);
		a->bits = bits;
	}
	return MS_LINE_SKIP;
}

int
ms_mf_apt_parse(struct ms_manifest_state *st, char *s, size_t len,
    struct ms_manifest_entry *e)
{
	struct ms_mf_apt *a = st->apt;

	if (a == NULL || a->is == APT_NO)
		return -2;
	if (a->is == APT_UNKNOWN) {
		if (len == 0)
			return -2;
		a->is = begins_list(s, len) ? APT_YES : APT_NO;
		if (a->is == APT_NO)
			return -2;
	}
	if (len == 0)
		return stanza_end(st, e);
	if (ISWHITE(s[0]))
		return hash_line(st, s, len, e);
	return field_line(st, s, len);
}

bool
ms_mf_apt_open(const struct ms_manifest_state *st)
{
	return st->apt != NULL && st->apt->is == APT_YES;
}

enum ms_line
ms_mf_apt_finish(struct ms_manifest_state *st, struct ms_manifest_entry *e)
{
	struct ms_mf_apt *a = st->apt;

	if (!ms_mf_apt_open(st))
		return MS_LINE_SKIP;
	if (a->next < a->nheld) {
		/* one entry a call, the caller calling again (st->again) */
		st->again = true;
		return held_next(st, e);
	}
	return stanza_end(st, e);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * manifest_int.h - what the parts of the manifest parser share
 * (manifest.c, manifest_b3sum.c, manifest_coreutils.c, manifest_digest.c,
 * manifest_apt.c, manifest_hashdeep.c, manifest_native.c,
 * manifest_pyrecord.c, manifest_storage.c,
 * manifest_windows.c) and the other readers of manifest/
 * (part_record.c); nothing outside this folder includes it.
 */
#ifndef MS_MANIFEST_INT_H
#define MS_MANIFEST_INT_H

#include "manifest/manifest.h"

#define ISWHITE(c)	((c) == ' ' || (c) == '\t')

/* manifest_digest.c: shared helpers */
bool	 ms_mf_is_xdigit(int c);
bool	 ms_mf_is_tag_char(int c);	/* "SHA2-512/256", "XXH3_64" */
const struct ms_algo *ms_mf_algo_named(const char *name);
bool	 ms_mf_unescape(char *s, size_t n);	/* \\, \n, \r in place */

/* manifest_coreutils.c: one line by coreutils 9.1's split_3 */
enum ms_line ms_mf_cu_parse(const struct ms_manifest_rules *r,
	    struct ms_manifest_state *st, char *s, size_t len,
	    struct ms_manifest_entry *e);

/* manifest_b3sum.c: one line as b3sum 1.2 reads it (newline included) */
enum ms_line ms_mf_b3sum_parse(const struct ms_manifest_rules *r,
	    struct ms_manifest_state *st, char *line, size_t len,
	    struct ms_manifest_entry *e);

/* manifest_digest.c */
/*
 * Hex digits, contiguous or a pair at a time one space apart, as
 * CertUtil writes them ("a9 99 3e ..."), into out (cap bytes, NUL
 * ended), *n of them; *spaced tells which.
 */
bool	 ms_mf_spaced_hex(const char *s, size_t len, char *out, size_t cap,
	    size_t *n, bool *spaced);
bool	 ms_mf_usable(const struct ms_algo *a);	/* not a legacy sum */
bool	 ms_mf_is_variable(const struct ms_algo *a);
bool	 ms_mf_fit(const struct ms_algo *a, size_t n, struct ms_digest_spec *spec);
bool	 ms_mf_all_hex(const char *s, size_t n);
bool	 ms_mf_decode_as(const char *tok, size_t n, size_t len,
	    struct ms_manifest_digest *d);
bool	 ms_mf_decode_any(const char *tok, size_t n, struct ms_manifest_digest *d);
/* The one algorithm of an untagged digest, into e->d[e->n]. */
enum ms_line ms_mf_untagged(const struct ms_manifest_rules *r,
	    const struct ms_manifest_state *st, const char *tok, size_t n,
	    struct ms_manifest_entry *e);
/*
 * Digest pos (from the left, from 0) of the same digests of one length in
 * an RHash name-first line: the algorithms of -a that take it, in the
 * order RHash writes them, must be exactly same, else the line is
 * unsupported (e->why says so).
 */
enum ms_line ms_mf_positional(const struct ms_manifest_rules *r,
	    const char *tok, size_t n, size_t pos, size_t same,
	    struct ms_manifest_entry *e);
/* A JSON string at *p (after its quote) unescaped in place; *p past it. */
char	*ms_mf_json_string(char **p, char *end);
/* The digest after a tag word, by the tag's length or its own (SHAKE). */
bool	 ms_mf_tag_digest(const char *word, char *s, size_t len,
	    struct ms_manifest_digest *d);

/* manifest_hashdeep.c: the "%%%%" lines, then the lines they describe */
enum ms_line ms_mf_hashdeep_header(struct ms_manifest_state *st,
	    const char *s, size_t len, struct ms_manifest_entry *e);
enum ms_line ms_mf_hashdeep_parse(struct ms_manifest_state *st, char *s,
	    size_t len, struct ms_manifest_entry *e);

/* manifest_pyrecord.c: Python's RECORD.  like: the line has its shape
 * (a digest column of an algorithm it allows before a size); parse: one
 * line, chomped. */
bool	 ms_mf_pyrecord_like(const char *s, size_t len);
enum ms_line ms_mf_pyrecord_parse(struct ms_manifest_state *st, char *s,
	    size_t len, struct ms_manifest_entry *e);

/* manifest_storage.c: the storage systems' tools (gsutil, gcloud, aws,
 * hadoop, rclone).  storage_parse: a line that opens a record of several
 * lines (MS_LINE_SKIP), is one of theirs, or -2; record_line: the next
 * line of an open record (st->again: it closed the record, parse the line
 * again); record_close: the record as an entry; record_free: its memory. */
int	 ms_mf_storage_parse(struct ms_manifest_state *st, char *s, size_t len,
	    struct ms_manifest_entry *e);
enum ms_line ms_mf_record_line(struct ms_manifest_state *st, const char *s,
	    size_t len, struct ms_manifest_entry *e);
enum ms_line ms_mf_record_close(struct ms_manifest_state *st,
	    struct ms_manifest_entry *e);
void	 ms_mf_record_free(struct ms_manifest_state *st);
bool	 ms_mf_record_open(const struct ms_manifest_state *st);

/* manifest_apt.c: Debian's lists.  apt_parse: a line of one (the
 * first line tells), or -2; apt_open: one is being read; apt_finish:
 * its last stanza, as an entry. */
void	 ms_mf_apt_begin(const struct ms_manifest_rules *r,
	    struct ms_manifest_state *st, const char *path);
void	 ms_mf_apt_end(struct ms_manifest_state *st);
int	 ms_mf_apt_parse(struct ms_manifest_state *st, char *s, size_t len,
	    struct ms_manifest_entry *e);
bool	 ms_mf_apt_open(const struct ms_manifest_state *st);
enum ms_line ms_mf_apt_finish(struct ms_manifest_state *st,
	    struct ms_manifest_entry *e);

/* manifest_native.c */
enum ms_line ms_mf_native_parse(const struct ms_manifest_rules *r,
	    struct ms_manifest_state *st, char *s, size_t len,
	    struct ms_manifest_entry *e);
bool	 ms_mf_hex_groups(const char *s, size_t len, size_t min);
void	 ms_mf_gpg_append(struct ms_manifest_state *st, const char *s, size_t len);
enum ms_line ms_mf_gpg_close(const struct ms_manifest_rules *r,
	    struct ms_manifest_state *st, struct ms_manifest_entry *e);

/* manifest_windows.c: CertUtil and Get-FileHash records */
void	 ms_mf_win_begin(struct ms_manifest_state *st, const char *path);
void	 ms_mf_win_end(struct ms_manifest_state *st);
/* A line of such a record (chomped, NUL-terminated), or -2 if it is none. */
int	 ms_mf_win_parse(const struct ms_manifest_rules *r,
	    struct ms_manifest_state *st, char *s, size_t len,
	    struct ms_manifest_entry *e);
/* After the last line: a list record still open, as an entry. */
enum ms_line ms_mf_win_finish(struct ms_manifest_state *st,
	    struct ms_manifest_entry *e);

#endif

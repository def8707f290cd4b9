/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * manifest_storage.c - what storage systems and their tools print, read
 * as manifest entries: `hadoop fs -checksum` lines ("NAME\tALGORITHM\tHEX",
 * with -v "\tBlockSize=N"), `gsutil hash` records ("Hashes [base64] for
 * NAME:" and "\tHash (crc32c):\t\tVALUE" lines), `gcloud storage hash`
 * records (YAML: crc32c_hash, digest_format, md5_hash, url, "---"
 * between records), `aws s3api head-object` and `get-object-attributes`
 * answers (one JSON object over several lines: ETag and the Checksum*
 * fields, for the file its manifest is named after: "x.iso.json" holds
 * x.iso's), and the UNSUPPORTED and ERROR lines of older `rclone
 * hashsum` (its other lines are GNU lines, manifest_native.c's).
 *
 * Owns the records of several lines (open until a line that does not
 * continue them, which is then parsed again, or the end) and the rule
 * for names printed as URLs: "gs://bucket/key" and "hdfs://host/path"
 * are looked up by what follows the authority ("key", "path"), relative
 * to where -c runs, so that a downloaded copy verifies from its top.
 * Pure, as the rest of the parser.
 */
#include "manifest/manifest_int.h"

#include <stdlib.h>
#include <string.h>

#include "digest/backend_hdfs.h"
#include "digest/backend_s3.h"
#include "base/util.h"

enum kind { REC_GSUTIL, REC_GCLOUD, REC_AWS };

/* The fields of an aws JSON answer that say something about digests. */
enum aws_key {
	AWS_ETAG, AWS_CRC32, AWS_CRC32C, AWS_CRC64NVME, AWS_SHA1, AWS_SHA256,
	AWS_SSE, AWS_KMS_KEY, AWS_SSE_C, AWS_KEYS
};

/* Each field's name, and a checksum's rows: of a whole-object value, of
 * a "-N" one. */
static const struct {
	const char	*name;
	const char	*whole, *parts;
} aws_fields[AWS_KEYS] = {
	[AWS_ETAG] = { "ETag", NULL, NULL },
	[AWS_CRC32] = { "ChecksumCRC32", "crc32", "s3-crc32" },
	[AWS_CRC32C] = { "ChecksumCRC32C", "crc32c", "s3-crc32c" },
	[AWS_CRC64NVME] = { "ChecksumCRC64NVME", "crc64nvme", NULL },
	[AWS_SHA1] = { "ChecksumSHA1", "sha1", "s3-sha1" },
	[AWS_SHA256] = { "ChecksumSHA256", "sha256", "s3-sha256" },
	[AWS_SSE] = { "ServerSideEncryption", NULL, NULL },
	[AWS_KMS_KEY] = { "SSEKMSKeyId", NULL, NULL },
	[AWS_SSE_C] = { "SSECustomerAlgorithm", NULL, NULL },
};

struct ms_mf_record {
	bool		 open;
	enum kind	 kind;
	bool		 outside;	/* began outside a PGP body */
	bool		 hex;		/* gsutil -h, gcloud --hex */
	char		*name;		/* as printed */
	char		*crc32c, *md5;	/* gsutil's and gcloud's values */
	char		*text;		/* aws: the JSON so far */
	size_t		 len, cap;
	int		 depth;		/* of its braces, outside strings */
	char		*aws[AWS_KEYS];
};

static void
record_reset(struct ms_mf_record *rec)
{
	free(rec->name);
	free(rec->crc32c);
	free(rec->md5);
	free(rec->text);
	for (size_t i = 0; i < AWS_KEYS; i++)
		free(rec->aws[i]);
	memset(rec, 0, sizeof(*rec));
}

void
ms_mf_record_free(struct ms_manifest_state *st)
{
	free(st->rec_given);
	st->rec_given = NULL;
	if (st->rec == NULL)
		return;
	record_reset(st->rec);
	free(st->rec);
	st->rec = NULL;
}

static struct ms_mf_record *
record_open(struct ms_manifest_state *st, enum kind kind, bool outside)
{
	if (st->rec == NULL)
		st->rec = ms_xcalloc(1, sizeof(*st->rec));
	record_reset(st->rec);
	st->rec->open = true;
	st->rec->kind = kind;
	st->rec->outside = outside;
	return st->rec;
}

static void
set(char **field, const char *s, size_t n)
{
	free(*field);
	*field = ms_xstrndup(s, n);
}

/* ------------------------------------------------------------- names */

/* "scheme://authority/rest": rest; another name as it is; NULL for a
 * URL without a path below its authority. */
static const char *
url_path(const char *name)
{
	const char *p = name, *slash;

	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		return name;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
	    (*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '.')
		p++;
	if (strncmp(p, "://", 3) != 0)
		return name;
	slash = strchr(p + 3, '/');
	if (slash == NULL || slash[1] == '\0')
		return NULL;
	return slash + 1;
}

/* Hand out a record's name (the URL rule applied); false if none. */
static bool
give_name(struct ms_manifest_state *st, const char *name,
    struct ms_manifest_entry *e)
{
	const char *n = name != NULL ? url_path(name) : NULL;

	if (n == NULL || *n == '\0')
		return false;
	free(st->rec_given);
	st->rec_given = ms_xstrdup(n);
	e->name = st->rec_given;
	return true;
}

/* ----------------------------------------------------------- digests */

/* Append a digest of row algo in text (hex when hex, else base64). */
static bool
add_digest(struct ms_manifest_entry *e, const char *algo, const char *text,
    bool hex)
{
	struct ms_manifest_digest *d = &e->d[e->n];
	const struct ms_algo *a = ms_mf_algo_named(algo);
	size_t n = strlen(text), len;

	if (a == NULL || e->n == MS_MANIFEST_DIGESTS)
		return false;
	d->spec = (struct ms_digest_spec){ .algo = a, .bits = a->bits };
	len = ms_spec_len(&d->spec);
	if (hex ? n != 2 * len || ms_unhex(d->digest, text, len) == -1 :
	    ms_unbase64(d->digest, sizeof(d->digest), text, n) != (long)len)
		return false;
	d->len = len;
	e->n++;
	return true;
}

/* gsutil's and gcloud's crc32c and md5 into e. */
static enum ms_line
gcs_entry(struct ms_manifest_state *st, struct ms_mf_record *rec,
    struct ms_manifest_entry *e)
{
	e->how = MS_BY_TAG;
	if (!give_name(st, rec->name, e))
		return MS_LINE_BAD;
	if (rec->crc32c != NULL && !add_digest(e, "crc32c", rec->crc32c,
	    rec->hex))
		return MS_LINE_BAD;
	if (rec->md5 != NULL && !add_digest(e, "md5", rec->md5, rec->hex))
		return MS_LINE_BAD;
	return e->n > 0 ? MS_LINE_ENTRY : MS_LINE_BAD;
}

/* ------------------------------------------------------------ gsutil */

/* "Hashes [base64] for NAME:" opens a record. */
static bool
gsutil_open(struct ms_manifest_state *st, const char *s, size_t len,
    bool outside)
{
	struct ms_mf_record *rec;
	bool hex;
	size_t skip;

	if (ms_begins(s, len, "Hashes [base64] for "))
		hex = false;
	else if (ms_begins(s, len, "Hashes [hex] for "))
		hex = true;
	else
		return false;
	skip = hex ? 17 : 20;
	if (len <= skip + 1 || s[len - 1] != ':')
		return false;
	rec = record_open(st, REC_GSUTIL, outside);
	rec->hex = hex;
	set(&rec->name, s + skip, len - skip - 1);
	return true;
}

/* "\tHash (crc32c):\t\tVALUE": true if it continues the record. */
static bool
gsutil_more(struct ms_mf_record *rec, const char *s, size_t len)
{
	size_t i = 0, v;
	char **field;

	while (i < len && ISWHITE(s[i]))
		i++;
	if (i == 0)
		return false;
	if (ms_begins(s + i, len - i, "Hash (crc32c):")) {
		field = &rec->crc32c;
		i += 14;
	} else if (ms_begins(s + i, len - i, "Hash (md5):")) {
		field = &rec->md5;
		i += 11;
	} else {
		return false;
	}
	while (i < len && ISWHITE(s[i]))
		i++;
	for (v = len; v > i && ISWHITE(s[v - 1]); v--)
		continue;
	set(field, s + i, v - i);
	return true;
}

/* ------------------------------------------------------------ gcloud */

static const char *const gcloud_keys[] = {
	"crc32c_hash: ", "md5_hash: ", "digest_format: ", "url: ",
};

/* Is s a "KEY: VALUE" line of gcloud's record?  Its key's index, or -1. */
static int
gcloud_key(const char *s, size_t len)
{
	for (size_t k = 0; k < MS_ARRAY_LEN(gcloud_keys); k++)
		if (ms_begins(s, len, gcloud_keys[k]))
			return (int)k;
	return -1;
}

/* Such a line into the record, the value unquoted; false if it is none. */
static bool
gcloud_field(struct ms_mf_record *rec, const char *s, size_t len)
{
	int k = gcloud_key(s, len);
	size_t i, n;
	const char *v;

	if (k == -1)
		return false;
	i = strlen(gcloud_keys[k]);
	v = s + i;
	n = len - i;
	if (n >= 2 && (v[0] == '\'' || v[0] == '"') && v[n - 1] == v[0]) {
		v++;
		n -= 2;
	}
	switch (k) {
	case 0: set(&rec->crc32c, v, n); break;
	case 1: set(&rec->md5, v, n); break;
	case 2: rec->hex = n == 3 && memcmp(v, "hex", 3) == 0; break;
	default: set(&rec->name, v, n); break;
	}
	return true;
}

/* --------------------------------------------------------------- aws */

/* Append n bytes of JSON text, tracking the depth of its braces. */
static void
aws_append(struct ms_mf_record *rec, const char *s, size_t n)
{
	bool in_string = false;

	if (rec->len + n + 2 > rec->cap) {
		rec->cap = (rec->len + n + 2) * 2;
		rec->text = ms_xrealloc(rec->text, rec->cap);
	}
	memcpy(rec->text + rec->len, s, n);
	rec->len += n;
	rec->text[rec->len++] = ' ';
	rec->text[rec->len] = '\0';
	/* the depth after the whole text: strings may hold braces */
	rec->depth = 0;
	for (size_t i = 0; i < rec->len; i++) {
		char c = rec->text[i];

		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = false;
		} else if (c == '"') {
			in_string = true;
		} else if (c == '{' || c == '[') {
			rec->depth++;
		} else if (c == '}' || c == ']') {
			rec->depth--;
		}
	}
}

static char *
skip_ws(char *p, char *end)
{
	while (p < end && (ISWHITE(*p) || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/*
 * The JSON value at *p, into the record when key is one of its fields;
 * objects are walked too (get-object-attributes nests its checksums in
 * "Checksum"), arrays skipped.  false if it is no JSON.
 */
static bool
aws_value(struct ms_mf_record *rec, const char *key, char **p, char *end,
    int depth)
{
	char *q = skip_ws(*p, end);

	if (q == end || depth > 8)
		return false;
	if (*q == '"') {
		char *v;

		q++;
		if ((v = ms_mf_json_string(&q, end)) == NULL)
			return false;
		for (size_t k = 0; key != NULL && k < AWS_KEYS; k++)
			if (strcmp(key, aws_fields[k].name) == 0)
				set(&rec->aws[k], v, strlen(v));
	} else if (*q == '{' || *q == '[') {
		char close = *q == '{' ? '}' : ']';

		q = skip_ws(q + 1, end);
		while (q < end && *q != close) {
			char *k = NULL;

			if (close == '}') {
				if (*q++ != '"' || (k = ms_mf_json_string(&q,
				    end)) == NULL)
					return false;
				q = skip_ws(q, end);
				if (q == end || *q++ != ':')
					return false;
			}
			if (!aws_value(rec, close == '}' ? k : NULL, &q, end,
			    depth + 1))
				return false;
			q = skip_ws(q, end);
			if (q < end && *q == ',')
				q = skip_ws(q + 1, end);
			else if (q == end || *q != close)
				return false;
		}
		if (q == end)
			return false;
		q++;
	} else {
		/* a number, true, false or null */
		while (q < end && *q != ',' && *q != '}' && *q != ']' &&
		    !ISWHITE(*q) && *q != '\n')
			q++;
	}
	*p = q;
	return true;
}

/* "BASE64" (a whole object's) or "BASE64-N" (S3's parts) of a row. */
static bool
aws_checksum(struct ms_manifest_entry *e, const char *whole,
    const char *parts, const char *text)
{
	const char *dash = strrchr(text, '-');
	struct ms_manifest_digest *d = &e->d[e->n];
	const struct ms_algo *a;
	unsigned long count = 0;
	size_t len;

	if (dash == NULL || parts == NULL)
		return add_digest(e, whole, text, false);
	for (const char *c = dash + 1; *c; c++) {
		if (*c < '0' || *c > '9' || count > 100000)
			return false;
		count = count * 10 + (unsigned long)(*c - '0');
	}
	if ((a = ms_mf_algo_named(parts)) == NULL || count == 0 ||
	    e->n == MS_MANIFEST_DIGESTS)
		return false;
	/* the inner digest, then the count, as backend_s3.c lays it out */
	d->spec = (struct ms_digest_spec){ .algo = a, .bits = a->bits };
	len = ms_spec_len(&d->spec) - 4;
	if (ms_unbase64(d->digest, sizeof(d->digest), text,
	    (size_t)(dash - text)) != (long)len)
		return false;
	for (int i = 0; i < 4; i++)
		d->digest[len + (size_t)i] = (unsigned char)(count >> 8 * (3 - i));
	d->len = len + 4;
	e->n++;
	return true;
}

static enum ms_line
aws_entry(struct ms_manifest_state *st, struct ms_mf_record *rec,
    struct ms_manifest_entry *e)
{
	char *p = rec->text, *end = rec->text + rec->len;
	const char *sse;
	bool etag_is_md5;

	e->how = MS_BY_TAG;
	if (!aws_value(rec, NULL, &p, end, 0) || skip_ws(p, end) != end)
		return MS_LINE_BAD;
	if (!give_name(st, st->json_name, e)) {
		e->why = "an aws s3api answer names no file: keep it as "
		    "FILE.json beside FILE";
		return MS_LINE_BAD;
	}
	for (size_t k = 0; k < AWS_KEYS; k++)
		if (aws_fields[k].whole != NULL && rec->aws[k] != NULL &&
		    !aws_checksum(e, aws_fields[k].whole, aws_fields[k].parts,
		    rec->aws[k]))
			return MS_LINE_BAD;
	/* An object encrypted with SSE-KMS or SSE-C has an ETag that is no
	 * digest of its content. */
	sse = rec->aws[AWS_SSE];
	etag_is_md5 = rec->aws[AWS_KMS_KEY] == NULL &&
	    rec->aws[AWS_SSE_C] == NULL &&
	    (sse == NULL || strncmp(sse, "aws:kms", 7) != 0);
	if (rec->aws[AWS_ETAG] != NULL && etag_is_md5) {
		const char *t = rec->aws[AWS_ETAG], *implied;
		struct ms_manifest_digest *d = &e->d[e->n];
		char *quoted = t[0] == '"' ? ms_xstrdup(t) :
		    ms_xasprintf("\"%s\"", t);	/* get-object-attributes */
		int rc = e->n < MS_MANIFEST_DIGESTS ? ms_s3_decode(quoted,
		    strlen(quoted), d->digest, sizeof(d->digest), &d->len,
		    &implied) : -1;

		free(quoted);
		if (rc != 1 || implied == NULL ||
		    !ms_mf_fit(ms_mf_algo_named(implied), d->len, &d->spec))
			return MS_LINE_BAD;
		e->n++;
	}
	if (e->n == 0) {
		e->why = etag_is_md5 ? "no checksum in this aws s3api answer" :
		    "the ETag of an object encrypted with SSE-KMS or SSE-C is "
		    "no digest, and there is no checksum";
		return MS_LINE_UNSUPPORTED;
	}
	return MS_LINE_ENTRY;
}

/* ------------------------------------------------------------ hadoop */

/* The start of the tab-separated field that ends at end, and the tab
 * before it (NULL if none). */
static char *
field(char *s, char *end, char **tab)
{
	char *f = end;

	while (f > s && f[-1] != '\t')
		f--;
	*tab = f > s ? f - 1 : NULL;
	return f;
}

/*
 * "NAME\tALGORITHM\tHEX", with -v "...\tBlockSize=N"; "NAME\tNONE" (and
 * "NAME\tNONE\t") when the file system gave no checksum.  -2 if s is no
 * such line.
 */
static int
hadoop_line(char *s, size_t len, struct ms_manifest_entry *e)
{
	struct ms_manifest_digest *d = &e->d[0];
	char *end = s + len, *hex, *alg, *tab, *name_end;
	const char *why;
	bool none;
	int rc;

	hex = field(s, end, &tab);
	if (tab == NULL)
		return -2;
	/* -v's block size: the digest's bytes already say what matters
	 * (CRCs per block of a file of several; any, for one block) */
	if (ms_begins(hex, (size_t)(end - hex), "BlockSize=")) {
		if (hex + 10 == end || strspn(hex + 10, "0123456789") !=
		    (size_t)(end - hex - 10))
			return -2;
		end = tab;
		if ((hex = field(s, end, &tab)) == s || tab == NULL)
			return -2;
	}
	/* the value is hex digits or NONE: anything else is another
	 * format's line with a tab in its name (a BSD tag's "NAME) = HEX") */
	none = end - hex == 4 && memcmp(hex, "NONE", 4) == 0;
	if (!none && !ms_mf_all_hex(hex, (size_t)(end - hex)))
		return -2;
	if (none) {
		alg = hex;		/* "NAME\tNONE" */
		name_end = tab;
	} else {
		alg = field(s, tab, &name_end);
		if (name_end == NULL)
			return -2;
	}
	if (alg == hex || (tab - alg == 4 && memcmp(alg, "NONE", 4) == 0 &&
	    hex == end)) {
		rc = MS_LINE_UNSUPPORTED;
		e->why = "hadoop fs -checksum printed NONE: the file system "
		    "gave no checksum";
	} else {
		rc = ms_hdfs_decode(alg, (size_t)(tab - alg), hex,
		    (size_t)(end - hex), &d->spec, d->digest, &d->len, &why);
		if (rc == 0)
			return -2;
		if (rc == -1 && why == NULL)
			return MS_LINE_BAD;
		if (rc == -1) {
			rc = MS_LINE_UNSUPPORTED;
			e->why = why;
		} else {
			rc = MS_LINE_ENTRY;
			e->own_params = true;
			e->n = 1;
			e->how = MS_BY_TAG;
		}
	}
	*name_end = '\0';
	if (s[0] == '\\' && !ms_mf_unescape(s + 1, (size_t)(name_end - s - 1)))
		return MS_LINE_BAD;
	e->name = url_path(s + (s[0] == '\\'));
	return e->name == NULL || *e->name == '\0' ? MS_LINE_BAD : rc;
}

/* ------------------------------------------------------------ rclone */

/* Older rclone's "UNSUPPORTED  NAME" and "ERROR  NAME" (padded). */
static int
rclone_line(char *s, size_t len, struct ms_manifest_entry *e)
{
	static const char *const words[] = { "UNSUPPORTED  ", "ERROR  " };

	for (size_t k = 0; k < MS_ARRAY_LEN(words); k++)
		if (ms_begins(s, len, words[k]) && len > strlen(words[k])) {
			e->name = s + strlen(words[k]);
			e->why = k == 0 ? "rclone: the remote has no such hash" :
			    "rclone: the hash could not be read";
			return MS_LINE_UNSUPPORTED;
		}
	return -2;
}

/* --------------------------------------------------------- interface */

int
ms_mf_storage_parse(struct ms_manifest_state *st, char *s, size_t len,
    struct ms_manifest_entry *e)
{
	int rc;

	if (len == 3 && memcmp(s, "---", 3) == 0) {
		record_open(st, REC_GCLOUD, e->outside);
		return MS_LINE_SKIP;
	}
	if (gsutil_open(st, s, len, e->outside))
		return MS_LINE_SKIP;
	if (s[0] == '{' && strspn(s + 1, " \t") == len - 1) {
		aws_append(record_open(st, REC_AWS, e->outside), s, len);
		return MS_LINE_SKIP;
	}
	if (gcloud_key(s, len) != -1) {
		gcloud_field(record_open(st, REC_GCLOUD, e->outside), s, len);
		return MS_LINE_SKIP;
	}
	if ((rc = hadoop_line(s, len, e)) != -2)
		return rc;
	return rclone_line(s, len, e);
}

/* Close the open record into e. */
enum ms_line
ms_mf_record_close(struct ms_manifest_state *st, struct ms_manifest_entry *e)
{
	struct ms_mf_record *rec = st->rec;
	enum ms_line rc;

	rec->open = false;
	e->outside = rec->outside;
	switch (rec->kind) {
	case REC_AWS:
		rc = rec->depth == 0 ? aws_entry(st, rec, e) : MS_LINE_BAD;
		break;
	case REC_GCLOUD:
		/* "---" alone, before the first record or at the end */
		if (rec->name == NULL && rec->crc32c == NULL && rec->md5 == NULL)
			return MS_LINE_SKIP;
		/* FALLTHROUGH */
	default:
		rc = gcs_entry(st, rec, e);
		break;
	}
	record_reset(rec);
	return rc;
}

bool
ms_mf_record_open(const struct ms_manifest_state *st)
{
	return st->rec != NULL && st->rec->open;
}

enum ms_line
ms_mf_record_line(struct ms_manifest_state *st, const char *s, size_t len,
    struct ms_manifest_entry *e)
{
	struct ms_mf_record *rec = st->rec;

	switch (rec->kind) {
	case REC_AWS:
		aws_append(rec, s, len);
		if (rec->depth > 0)
			return MS_LINE_SKIP;
		return ms_mf_record_close(st, e);
	case REC_GSUTIL:
		if (gsutil_more(rec, s, len))
			return MS_LINE_SKIP;
		break;
	case REC_GCLOUD:
		if (len == 3 && memcmp(s, "---", 3) == 0) {
			enum ms_line rc = ms_mf_record_close(st, e);

			record_open(st, REC_GCLOUD, e->outside);
			return rc;
		}
		if (gcloud_field(rec, s, len))
			return MS_LINE_SKIP;
		break;
	}
	st->again = true;
	return ms_mf_record_close(st, e);
}

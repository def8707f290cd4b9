/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * backend_s3.h - the digest spellings of the object stores
 * (backend_s3.c), for --expect and manifests.  The part size of s3etag
 * and the s3-* rows is a parameter of their specs (digest_params.h).
 */
#ifndef MS_BACKEND_S3_H
#define MS_BACKEND_S3_H

#include <stddef.h>
#include <stdint.h>

/*
 * --expect's spellings from S3 and Google Cloud Storage: an ETag in
 * double quotes, "ETAG-N" (s3etag), "BASE64-N" (s3-*: the length says
 * which, but for the two CRCs), and "crc32c=BASE64" or "md5=BASE64" as
 * in GCS's x-goog-hash.  Returns 1 with the digest (in the layout of the
 * row it implies) in out[*len] and *algo that row's name, or NULL if
 * only -a can tell; 0 if text is none of these (decode it as usual); -1
 * if it is one of them but malformed.
 */
int	 ms_s3_expect(const char *text, unsigned char *out, size_t cap,
	    size_t *len, const char **algo);

/* The same for the n bytes at text (a manifest line's digest field). */
int	 ms_s3_decode(const char *text, size_t n, unsigned char *out,
	    size_t cap, size_t *len, const char **algo);

/* S3's multipart limits: parts of 5 MiB to 5 GiB (the last may be
 * smaller), at most 10,000 of them (S3's "Multipart upload limits"). */
#define MS_S3_PART_MIN		((uint64_t)5 << 20)
#define MS_S3_PART_MAX		((uint64_t)5 << 30)
#define MS_S3_PARTS_MAX		10000

struct ms_digest_spec;

/* The parts an object of size bytes is uploaded in under spec (an s3etag
 * or s3-* row's, with its part size): 0 for a single PUT. */
uint64_t ms_s3_parts(const struct ms_digest_spec *spec, uint64_t size);

#endif

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * backend_s3.h - the part size of the object-store checksums (backend_s3.c).
 */
#ifndef MS_CLOUD_H
#define MS_CLOUD_H

#include <stddef.h>
#include <stdint.h>

/* Bytes per part for s3etag and the s3-* composite checksums (default
 * 8 MiB, the AWS CLI's); set once, before any hashing. */
void	 ms_cloud_set_part_size(uint64_t size);

/*
 * --expect's spellings from S3 and Google Cloud Storage: an ETag in
 * double quotes, "ETAG-N" (s3etag), "BASE64-N" (s3-*: the length says
 * which, but for the two CRCs), and "crc32c=BASE64" or "md5=BASE64" as
 * in GCS's x-goog-hash.  Returns 1 with the digest (in the layout of the
 * row it implies) in out[*len] and *algo that row's name, or NULL if
 * only -a can tell; 0 if text is none of these (decode it as usual); -1
 * if it is one of them but malformed.
 */
int	 ms_cloud_expect(const char *text, unsigned char *out, size_t cap,
	    size_t *len, const char **algo);

/* The same for the n bytes at text (a manifest line's digest field). */
int	 ms_cloud_decode(const char *text, size_t n, unsigned char *out,
	    size_t cap, size_t *len, const char **algo);

#endif

/*
 * backend.h - the operation tables each backend file exports.
 *
 * algorithm.c points its rows at these; nobody else should need them.
 */
#ifndef MS_BACKEND_H
#define MS_BACKEND_H

#include "algorithm.h"

extern const struct ms_digest_ops ms_ops_openssl;	/* backend_openssl.c */
extern const struct ms_digest_ops ms_ops_blake2;	/* backend_blake2.c */
extern const struct ms_digest_ops ms_ops_xxhash;	/* backend_xxhash.c */
extern const struct ms_digest_ops ms_ops_crc;		/* crc.c */

#endif

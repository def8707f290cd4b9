/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * bytes.h - 64- and 32-bit words loaded from and stored to bytes in a
 * fixed byte order, whatever the machine's: one load or store each
 * (compilers see through memcpy), a byte swap where the orders differ.
 * For the built-in kernels (crc.c, whirlpool.c) and the digests built
 * on them.
 */
#ifndef MS_BYTES_H
#define MS_BYTES_H

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define MS_BIG_ENDIAN	1
#else
#define MS_BIG_ENDIAN	0
#endif

/*
 * The little-endian forms read and write memory; a big-endian one is the
 * little-endian form of the byte-swapped word.
 */
static inline uint64_t
ms_load_le64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return MS_BIG_ENDIAN ? __builtin_bswap64(v) : v;
}

static inline uint32_t
ms_load_le32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return MS_BIG_ENDIAN ? __builtin_bswap32(v) : v;
}

static inline void
ms_store_le64(unsigned char *p, uint64_t v)
{
	if (MS_BIG_ENDIAN)
		v = __builtin_bswap64(v);
	memcpy(p, &v, sizeof(v));
}

static inline void
ms_store_le32(unsigned char *p, uint32_t v)
{
	if (MS_BIG_ENDIAN)
		v = __builtin_bswap32(v);
	memcpy(p, &v, sizeof(v));
}

static inline uint64_t
ms_load_be64(const unsigned char *p)
{
	return __builtin_bswap64(ms_load_le64(p));
}

static inline uint32_t
ms_load_be32(const unsigned char *p)
{
	return __builtin_bswap32(ms_load_le32(p));
}

static inline void
ms_store_be64(unsigned char *p, uint64_t v)
{
	ms_store_le64(p, __builtin_bswap64(v));
}

static inline void
ms_store_be32(unsigned char *p, uint32_t v)
{
	ms_store_le32(p, __builtin_bswap32(v));
}

#endif

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * crc_fold.h - the folding method that crc_clmul.c (128-bit registers),
 * crc_vpclmul.c (512-bit registers) and crc_fold_armv8.c (aarch64's
 * 128-bit registers) share, as a template: the running CRC xor'ed into
 * the first register (WIDEN makes the includer's lane_seed a register),
 * four registers running 4 W bytes a round, each multiplied on by k->K4
 * and xor'ed into the data where it lands, then one register (by k->K1)
 * over the last whole registers, folded to one 128-bit lane by
 * TO_LANE(k, x, &p, &n) (which may go on over the last 16-byte blocks),
 * and that lane out.
 *
 * CRC_FOLD(NAME, TARGET, VEC, W, VXOR, VMUL, VLOAD, WIDEN, K4, K1,
 * TO_LANE) defines NAME with crc.h's ms_crc_fold_pclmul interface
 * (n >= 4 W).  The includer defines lane_seed and lane_store first (x86's
 * in crc_lane.h, aarch64's in crc_fold_armv8.c).
 */
#ifndef MS_CRC_FOLD_H
#define MS_CRC_FOLD_H

#include "kernels/crc.h"

#define CRC_FOLD(NAME, TARGET, VEC, W, VXOR, VMUL, VLOAD, WIDEN, K4, K1,	\
    TO_LANE)								\
TARGET size_t								\
NAME(const struct ms_crc_fold *k, uint64_t crc, const unsigned char *p,	\
    size_t n, unsigned char rem[16])					\
{									\
	const unsigned char *start = p;					\
	VEC x0 = VXOR(VLOAD(k, p), WIDEN(lane_seed(k, crc)));		\
	VEC x1 = VLOAD(k, p + (W)), x2 = VLOAD(k, p + 2 * (W));		\
	VEC x3 = VLOAD(k, p + 3 * (W));					\
									\
	for (p += 4 * (W), n -= 4 * (W); n >= 4 * (W);			\
	    p += 4 * (W), n -= 4 * (W)) {				\
		x0 = VXOR(VMUL(x0, k->K4), VLOAD(k, p));		\
		x1 = VXOR(VMUL(x1, k->K4), VLOAD(k, p + (W)));		\
		x2 = VXOR(VMUL(x2, k->K4), VLOAD(k, p + 2 * (W)));	\
		x3 = VXOR(VMUL(x3, k->K4), VLOAD(k, p + 3 * (W)));	\
	}								\
	x0 = VXOR(VMUL(x0, k->K1), x1);					\
	x0 = VXOR(VMUL(x0, k->K1), x2);					\
	x0 = VXOR(VMUL(x0, k->K1), x3);					\
	for (; n >= (W); p += (W), n -= (W))				\
		x0 = VXOR(VMUL(x0, k->K1), VLOAD(k, p));		\
	lane_store(k, rem, TO_LANE(k, x0, &p, &n));			\
	return (size_t)(p - start);					\
}

/* WIDEN and TO_LANE for a register that is one lane. */
#define CRC_LANE_AS_IS(x)		(x)
#define CRC_LANE_DONE(k, x, pp, np)	((void)(k), (void)(pp), (void)(np), (x))

#endif

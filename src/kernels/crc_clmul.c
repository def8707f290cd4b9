/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * crc_clmul.c - CRC folding by PCLMULQDQ, 128 bits at a time.
 *
 * Owns the instance of crc_fold.h's method with four 128-bit lanes 64
 * bytes apart, each lane multiplied forward (carry-less, modulo the
 * polynomial) and xor'ed into the data that lies where it lands, then
 * the lanes folded into one.  What is left, 16 bytes plus the tail,
 * crc.c finishes with its tables.  The constants come from crc.c (see
 * crc.h); this file is built on x86-64 only and called only on CPUs with
 * PCLMULQDQ.
 */
#include "kernels/crc_lane.h"
#include "kernels/crc_fold.h"

CRC_FOLD(ms_crc_fold_pclmul, __attribute__((target("pclmul,ssse3"))),
    __m128i, 16, _mm_xor_si128, lane_mul, lane_load, CRC_LANE_AS_IS,
    by512, by128, CRC_LANE_DONE)

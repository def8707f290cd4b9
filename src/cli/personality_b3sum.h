/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * personality_b3sum.h - multisum run under the name b3sum.
 */
#ifndef MS_PERSONALITY_B3SUM_H
#define MS_PERSONALITY_B3SUM_H

/* b3sum 1.2's command line and wording; returns its exit status. */
int	 ms_b3sum_main(int argc, char **argv);

#endif

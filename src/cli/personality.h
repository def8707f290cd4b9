/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * personality.h - behaving as GNU coreutils' md5sum, sha*sum, b2sum and
 * cksum when run under those names.
 */
#ifndef MS_PERSONALITY_H
#define MS_PERSONALITY_H

#include <stdbool.h>

/* Is name (a basename of argv[0]) one of the coreutils tools we mimic? */
bool	 ms_personality_known(const char *name);

/* Run as that tool; returns its exit status. */
int	 ms_personality_main(const char *name, int argc, char **argv);

#endif

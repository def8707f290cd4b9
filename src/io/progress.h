/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * progress.h - the progress line on standard error.
 */
#ifndef MS_PROGRESS_H
#define MS_PROGRESS_H

#include <stdint.h>

struct ms_progress;

/*
 * Start reporting: mode -1 shows the line only when standard error is a
 * terminal and the work lasts more than a second, 1 always, 0 never (then
 * NULL is returned, and every function below accepts NULL).
 */
struct ms_progress *ms_progress_start(int mode);

/* Bytes that are going to be hashed (sizes known in advance). */
void	 ms_progress_expect(struct ms_progress *p, uint64_t bytes);

/* Bytes hashed; safe from any thread. */
void	 ms_progress_add(struct ms_progress *p, uint64_t bytes);

/* Stop and erase the line. */
void	 ms_progress_stop(struct ms_progress *p);

#endif

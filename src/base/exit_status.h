/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * exit_status.h - the one place that owns the exit status of a run.
 *
 * Whatever finds a failure notes its class here (any thread); the face's
 * main() turns the mode's status into the run's at the end.  The native
 * face tells a scheduler what to do (SPEC.md, Exit status): 1 a mismatch,
 * corruption, a missing entry (do not retry); 4 a signature that does not
 * verify or could not be checked; 3 an input that could not be read or
 * changed while read, an output that could not be written, memory that
 * ran out (retry).  Several classes: 1 wins, then 4, then 3.  The
 * coreutils and b3sum faces keep their tools' status (1 for all of them).
 */
#ifndef MS_EXIT_STATUS_H
#define MS_EXIT_STATUS_H

/* A failure's class; its value is the native exit status. */
enum ms_outcome {
	MS_OUTCOME_FAIL = 1,		/* mismatch, corrupt, missing, no line */
	MS_OUTCOME_RETRY = 3,		/* read, vanished, changed, write, memory */
	MS_OUTCOME_SIGNATURE = 4,	/* does not verify, could not be checked */
};

/* The run is the native face's: statuses 3 and 4 apply (cli/ only). */
void	ms_outcome_native(void);
/* Note one failure of class c; the run keeps every class noted. */
void	ms_outcome_note(enum ms_outcome c);
/*
 * The run's exit status from the mode's: 0 and 2 stay; 1 (failure)
 * becomes the winning class noted, or 1 if none was (and for the faces).
 */
int	ms_outcome_status(int mode_status);
/* A failure of class c that ends the run: note it, exit with the status. */
_Noreturn void ms_outcome_exit(enum ms_outcome c);

#endif

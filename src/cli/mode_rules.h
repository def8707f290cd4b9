/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mode_rules.h - each mode's own option rules (mode_rules.c).
 */
#ifndef MS_MODE_RULES_H
#define MS_MODE_RULES_H

#include "modes/options.h"

/* Check o for its mode and settle what the mode needs; exits on refusal. */
void	 ms_cli_mode_rules(struct ms_options *o);

#endif

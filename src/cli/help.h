/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * help.h - multisum's --help, --version and --list-algorithms (help.c).
 */
#ifndef MS_CLI_HELP_H
#define MS_CLI_HELP_H

_Noreturn void	 ms_cli_help(void);
_Noreturn void	 ms_cli_version(void);
_Noreturn void	 ms_cli_list_algorithms(void);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * help.h - multisum's --help, --version, --list-algorithms and usage errors
 * (help.c).
 */
#ifndef MS_HELP_H
#define MS_HELP_H

_Noreturn void	 ms_cli_help(void);
_Noreturn void	 ms_cli_version(void);
_Noreturn void	 ms_cli_list_algorithms(void);

/* A usage error: one line, the hint, exit status 2. */
_Noreturn void	 ms_cli_refuse(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How numactl2 ends when it runs a command: the exec's failure as 127 or
 * 126, or a watcher that could not be started. */
#ifndef NUMACTL2_EXEC_H
#define NUMACTL2_EXEC_H

#include "libnumactl2.h"

/* The exec failed: exit 127 when the command was not found, else 126.
 * BARE_OPT: the option with an optional argument given bare right before
 * the command (cli_parse()), whose value NAME may have been meant; or NULL. */
void exec_failed(const char *name, int errnum, const char *bare_opt) __attribute__((noreturn));

/* The command as execvp would find it with the environment ENVP, looked up
 * before any weight is written, lease taken or notice said: exit as
 * exec_failed() when it cannot be run. */
void exec_check(char **command, char *const envp[], const char *bare_opt);

/* supervise_start() failed: exit 1, nothing run. */
void supervise_failed(const struct nc2_error *e) __attribute__((noreturn));

#endif

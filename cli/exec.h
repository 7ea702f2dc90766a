/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How numactl2 ends when it runs a command: the exec's failure as 127 or
 * 126, or the way the supervised job ended. */
#ifndef NUMACTL2_EXEC_H
#define NUMACTL2_EXEC_H

#include "libnumactl2.h"

/* The exec failed: exit 127 when the command was not found, else 126.
 * BARE_OPT: the option with an optional argument given bare right before
 * the command (cli_parse()), whose value NAME may have been meant; or NULL. */
void exec_failed(const char *name, int errnum, const char *bare_opt) __attribute__((noreturn));

/* For supervise_run()'s -1: "failed to run" with 127 (not found) or 126, or
 * exit 1 when numactl2 itself failed. */
void supervise_failed(const struct job *job, const char *bare_opt) __attribute__((noreturn));

/* Ends numactl2 the way the job ended: its exit status, or its signal. */
void supervise_exit(const struct job *job, int status) __attribute__((noreturn));

#endif

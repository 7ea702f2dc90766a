/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The checked command line as a request to the library (lib/request),
 * resolved into its plan before anything changes, and the request's errors
 * worded for the CLI. */
#ifndef NUMACTL2_CLI_PREPARE_H
#define NUMACTL2_CLI_PREPARE_H

#include "cli/ctl.h"

void cli_prepare(struct ctl *ctl);

/* --set-, --reset- or --auto-global-weights (ctl->global_op, not
 * GLOBAL_NONE), as the library names it. */
enum admin_op cli_admin_op(const struct ctl *ctl);

/* E in one line, exit 1 (a usage error where it is about the input). */
void cli_request_failed(const struct nc2_error *e) __attribute__((noreturn));

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --pid=PID: set or show the policy of a running process. */
#ifndef NUMACTL2_PID_H
#define NUMACTL2_PID_H

#include "cli/ctl.h"

/* --pid's argument, into ctl->pid. */
void pid_option(struct ctl *ctl, const char *arg);
/* What --pid cannot come with, once the whole command line is read. */
void pid_check(const struct ctl *ctl);
/* The policy set on the process, or with --show printed; the exit status. */
int pid_run(const struct ctl *ctl);

#endif

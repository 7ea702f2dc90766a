/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --pid=PID --migrate: the pages the process has, moved after its policy
 * is set (job/migrate.c), with numactl2's messages. */
#ifndef NUMACTL2_CLI_PIDMIGRATE_H
#define NUMACTL2_CLI_PIDMIGRATE_H

#include "cli/ctl.h"
#include "libnumactl2.h"

/* --migrate comes only with --pid and a policy with nodes. */
void migrate_check(const struct ctl *ctl);
/* --migrate's ranges or plan could not be read (nothing changed), or the
 * pages could not all be moved (the policy is set): says which, exits 1. */
void migrate_failed(const struct ctl *ctl, const struct pid_result *res)
	__attribute__((noreturn));

#endif

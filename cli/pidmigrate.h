/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --pid=PID --migrate: the pages the process has, moved after its policy
 * is set (job/migrate.c): its checks. */
#ifndef NUMACTL2_CLI_PIDMIGRATE_H
#define NUMACTL2_CLI_PIDMIGRATE_H

#include "cli/ctl.h"
#include "libnumactl2.h"

/* --migrate comes only with --pid and a policy with nodes. */
void migrate_check(const struct ctl *ctl);

#endif

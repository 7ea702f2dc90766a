/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --pid=PID --migrate: the pages the process has, moved after its policy
 * is set (job/migrate.c), with numactl2's messages. */
#ifndef NUMACTL2_CLI_PIDMIGRATE_H
#define NUMACTL2_CLI_PIDMIGRATE_H

#include "cli/ctl.h"
#include "libnumactl2.h"

/* --migrate comes only with --pid and a policy with nodes. */
void migrate_check(const struct ctl *ctl);
/* With --migrate, before the policy changes: the ranges of the process
 * that follow its policy TASK, read now, and the plan of ctl->policy; exits
 * 1 ("nothing changed") when they cannot be read. NULL without --migrate. */
struct migrate_job *migrate_choose(const struct ctl *ctl, const struct mpol2_state *task);
/* With --migrate (J not NULL), once the policy is set: J's pages moved;
 * exits 1, saying how many moved, when they could not all be. J is let go. */
void migrate_move(const struct ctl *ctl, struct migrate_job *j);

#endif

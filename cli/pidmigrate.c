// SPDX-License-Identifier: GPL-2.0-or-later
/* numactl2 --pid=PID policy --migrate: once the policy is set, the pages
 * the process already has move to where it would place them (lib/request/
 * pidpolicy.c). What is moved is read before the policy changes, so that a
 * failure to read it changes nothing; a failure while moving says the
 * policy is set and how many pages moved (msg/ words both). */
#include "cli/pidmigrate.h"
#include "cli/usage.h"

void migrate_check(const struct ctl *ctl)
{
	if (!ctl->migrate)
		return;
	if (!ctl->pid || ctl->policy.mode == POLICY_NONE)
		usage_error("--migrate needs --pid=PID and a policy");
	if (!ctl->policy.nodes)
		usage_error("--migrate needs a policy with nodes to move pages to (not %s)",
			    ctl->policy.option);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* numactl2 --pid=PID policy --migrate: once the policy is set, the pages
 * the process already has move to where it would place them. What is
 * moved is read before the policy changes, so that a failure to read it
 * changes nothing; a failure while moving says the policy is set and how
 * many pages moved. */
#include <err.h>
#include <errno.h>
#include <string.h>

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

struct migrate_job *migrate_choose(const struct ctl *ctl, const struct mpol2_state *task)
{
	struct migrate_job *j;
	int pid = (int)ctl->pid, rc;
	unsigned node = 0;

	if (!ctl->migrate)
		return NULL;
	rc = migrate_job_new(ctl->pid, &j);
	if (rc == 0)
		rc = migrate_plan(j, &ctl->policy, &node);
	if (rc == -ENOMEM) {
		errno = ENOMEM;
		err(1, "--pid=%d: --migrate", pid);
	}
	if (rc < 0)
		errx(1, "--pid=%d: --migrate cannot read the global weight of node %u: %s; "
		     "nothing changed", pid, node, strerror(-rc));
	rc = migrate_read_ranges(j, task);
	if (rc == -ENOENT || rc == -ESRCH)
		errx(1, "--pid=%d: the process has exited; nothing changed", pid);
	if (rc < 0)
		errx(1, "--pid=%d: cannot read /proc/%d/maps and numa_maps: %s; nothing changed",
		     pid, pid, strerror(-rc));
	return j;
}

static void __attribute__((noreturn)) move_failed(int pid, int rc, const struct migrate_result *r)
{
	if (rc == -EIO)
		errx(1, "--pid=%d: policy set; %lu pages could not be moved (the first at "
		     "0x%lx: %s); %lu pages moved", pid, r->failed, r->fail_addr,
		     strerror(-r->fail_err), r->moved);
	if (rc == -ESRCH)
		errx(1, "--pid=%d: policy set; the process exited while its pages were moved; "
		     "%lu pages moved", pid, r->moved);
	if (rc == -EPERM)
		errx(1, "--pid=%d: policy set; not permitted to move the pages of that process "
		     "(move_pages needs ptrace read access to it); %lu pages moved", pid, r->moved);
	errx(1, "--pid=%d: policy set; cannot move its pages: %s; %lu pages moved",
	     pid, strerror(-rc), r->moved);
}

void migrate_move(const struct ctl *ctl, struct migrate_job *j)
{
	struct migrate_result r;
	int rc;

	if (!j)
		return;
	rc = migrate_run(j, &r);
	migrate_job_free(j);
	if (rc < 0)
		move_failed((int)ctl->pid, rc, &r);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* numactl2 --pid=PID policy --migrate: once the policy is set, the pages
 * the process already has move to where it would place them (lib/request/
 * pidpolicy.c). What is moved is read before the policy changes, so that a
 * failure to read it changes nothing; a failure while moving says the
 * policy is set and how many pages moved. */
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

/* --migrate's ranges or plan could not be read: nothing changed. */
static void __attribute__((noreturn)) not_read(int pid, const struct pid_result *res)
{
	if (res->failed == PID_MIGRATE_PLAN && res->err == -ENOMEM) {
		errno = ENOMEM;
		err(1, "--pid=%d: --migrate", pid);
	}
	if (res->failed == PID_MIGRATE_PLAN)
		errx(1, "--pid=%d: --migrate cannot read the global weight of node %u: %s; "
		     "nothing changed", pid, res->node, strerror(-res->err));
	if (res->err == -ENOENT || res->err == -ESRCH)
		errx(1, "--pid=%d: the process has exited; nothing changed", pid);
	errx(1, "--pid=%d: cannot read /proc/%d/maps and numa_maps: %s; nothing changed",
	     pid, pid, strerror(-res->err));
}

/* The pages could not all be moved: the policy is set. */
static void __attribute__((noreturn)) not_moved(int pid, const struct pid_result *res)
{
	const struct migrate_result *r = &res->moved;
	int rc = res->err;

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

void migrate_failed(const struct ctl *ctl, const struct pid_result *res)
{
	if (res->failed == PID_MOVE)
		not_moved((int)ctl->pid, res);
	not_read((int)ctl->pid, res);
}

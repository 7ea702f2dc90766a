// SPDX-License-Identifier: GPL-2.0-or-later
/* Where a run's weights go, and applying them to the global table for a
 * job (task-local weights go with the policy, lib/policy). */
#include "libnumactl2.h"
#include "policy/mpol2.h"
#include "weights/target.h"

#ifdef NUMACTL2_TEST_BUILD
#include <stdlib.h>
#include <string.h>

/* Test build only: NUMACTL2_TEST_TASK_LOCAL=1 makes the choice below take
 * the kernel for one that lists set_mempolicy2, so that host tests reach
 * the task-local path's checks (the program's libnuma, cli/check.c). Only
 * with --dry-run, or where those checks move the weights to the global
 * table: the host has no call to set them with. */
static bool task_local_possible(void)
{
	const char *s = getenv("NUMACTL2_TEST_TASK_LOCAL");

	return (s && strcmp(s, "1") == 0) || mpol2_present();
}
#else
static bool task_local_possible(void)
{
	return mpol2_present();
}
#endif

/* Task-local wherever the kernel lists set_mempolicy2 (kernel/), unless
 * --global-weights asks for the table; no released kernel has the call. */
enum weights_target weights_target(bool global_forced)
{
	return !global_forced && task_local_possible() ? WEIGHTS_TASK_LOCAL : WEIGHTS_GLOBAL;
}

/* Does the global table already hold P's weights on every node of its set?
 * Then a job that may not change them (--no-global-weights) still runs. */
bool weights_hold(const struct policy *p)
{
	for (int n = nodes_first(p->nodes); n >= 0; n = nodes_next(p->nodes, (unsigned)n + 1)) {
		unsigned cur;

		if (gw_read((unsigned)n, &cur) < 0 || cur != policy_weight(p, (unsigned)n))
			return false;
	}
	return true;
}

const char *weights_target_name(enum weights_target t)
{
	return t == WEIGHTS_TASK_LOCAL ? "task-local (set_mempolicy2)" : "global (sysfs)";
}

/* The global backend (task-local weights travel with the policy instead,
 * policy.c). Every node of the interleave set gets its weight, 1 where
 * --weights did not name it, or keeps the one it has under -w alone; the run
 * takes a lease on each (lease.c), and only weights that differ are written
 * (txn.c). Without a command to run, nothing needs the weights afterwards:
 * the leases only decide whether the change may be made, and are dropped.
 * The directory lock is held until weights_release(), weights_undo() or the
 * exec, so a failed exec can still put the old ones back. */
static int ask_weights(const struct policy *p, struct weights_change *c)
{
	int rc;

	c->active = false;
	rc = gw_txn_alloc(&c->txn);
	if (rc < 0)
		return rc;
	for (int n = nodes_first(p->nodes); n >= 0; n = nodes_next(p->nodes, (unsigned)n + 1)) {
		if (p->has_weights)
			gw_txn_ask(&c->txn, (unsigned)n, LEASE_WEIGHT, policy_weight(p, (unsigned)n));
		else
			gw_txn_ask(&c->txn, (unsigned)n, LEASE_AS_IS, 0);
	}
	return 0;
}

int weights_check(const struct policy *p, struct weights_change *c,
		  struct lease_conflict *conflict, unsigned *failed_node)
{
	int rc = ask_weights(p, c);

	return rc < 0 ? rc : gw_txn_check(&c->txn, conflict, failed_node);
}

int weights_apply(const struct policy *p, struct weights_change *c,
		  struct lease_conflict *conflict, unsigned *failed_node)
{
	int rc = ask_weights(p, c);

	if (rc < 0)
		return rc;
	rc = gw_txn_change(&c->txn, conflict, failed_node);
	c->active = rc == 0;
	return rc;
}

/* Nothing open, nothing written: what weights_release(), weights_undo() and
 * restore_weights() may be given when no global weight was asked for. */
void weights_init(struct weights_change *c)
{
	gw_txn_init(&c->txn);
	c->active = false;
}

/* Lets other runs in while this one's job runs; its leases stay. */
void weights_release(struct weights_change *c)
{
	if (c->active)
		gw_txn_end(&c->txn);
	c->active = false;
}

void weights_undo(struct weights_change *c)
{
	if (!c->active)
		return;
	gw_txn_undo(&c->txn);
	c->active = false;
}

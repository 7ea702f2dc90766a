// SPDX-License-Identifier: GPL-2.0-or-later
/* Where a run's weights go, and applying them to the global table for a
 * job (task-local weights go with the policy, lib/policy). */
#include "libnumactl2.h"
#include "policy/mpol2.h"
#include "weights/table.h"
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

	return (s && strcmp(s, "1") == 0) || nc2_mpol2_present();
}

/* Test build only: NUMACTL2_TEST_ONE_NODE_WEIGHS=1 takes a one-node set for
 * one whose weights place pages, so that host tests (the host has one
 * node) reach the global table's path. */
static bool one_node_weighs(void)
{
	const char *s = getenv("NUMACTL2_TEST_ONE_NODE_WEIGHS");

	return s && strcmp(s, "1") == 0;
}
#else
static bool task_local_possible(void)
{
	return nc2_mpol2_present();
}

static bool one_node_weighs(void)
{
	return false;
}
#endif

/* Task-local wherever the kernel lists set_mempolicy2 (kernel/), unless
 * --global-weights asks for the table; no released kernel has the call. */
enum weights_target weights_target(bool global_forced)
{
	return !global_forced && task_local_possible() ? WEIGHTS_TASK_LOCAL : WEIGHTS_GLOBAL;
}

/* Can weights change where P's pages go? Not over one node: weighted
 * interleave puts every page there, whatever its weight. */
bool weights_place_pages(const struct policy *p)
{
	return (p->nodes && numa_bitmask_weight(p->nodes) > 1) || one_node_weighs();
}

/* Does the global table already hold P's weights on every node of its set?
 * Then a job that may not change them (--no-global-weights) still runs. */
bool weights_hold(const struct policy *p)
{
	for (int n = nc2_nodes_first(p->nodes); n >= 0; n = nc2_nodes_next(p->nodes, (unsigned)n + 1)) {
		unsigned cur;

		if (gw_read((unsigned)n, &cur) < 0 || cur != nc2_policy_weight(p, (unsigned)n))
			return false;
	}
	return true;
}

const char *weights_target_name(enum weights_target t)
{
	return t == WEIGHTS_TASK_LOCAL ? "task-local (set_mempolicy2)" : "global (sysfs)";
}

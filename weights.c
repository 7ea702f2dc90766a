#include <errno.h>
#include <stdio.h>

#include "mpol2.h"
#include "weights.h"

/* Task-local wherever the kernel lists set_mempolicy2 (kernel/), unless
 * --global-weights asks for the table; no released kernel has the call. */
enum weights_target weights_target(bool global_forced)
{
	return !global_forced && mpol2_present() ? WEIGHTS_TASK_LOCAL : WEIGHTS_GLOBAL;
}

const char *weights_target_name(enum weights_target t)
{
	return t == WEIGHTS_TASK_LOCAL ? "task-local (set_mempolicy2)" : "global (sysfs)";
}

/* The global backend; task-local weights travel with the policy instead
 * (policy.c). Every node of the interleave set gets its weight, 1 where
 * --weights did not name it; nodes outside the set keep theirs. The lock is
 * held until weights_undo() or exec, so a failed exec can still put the old
 * ones back. */
int weights_apply(const struct policy *p, struct weights_change *c, unsigned *failed_node)
{
	int rc;

	c->active = false;
	rc = gw_begin(&c->gw);
	if (rc < 0)
		return rc;
	for (unsigned n = 0; n < p->nodes->size && n < PARSE_MAX_NODES; n++) {
		if (!numa_bitmask_isbitset(p->nodes, n))
			continue;
		rc = gw_stage(&c->gw, n, p->weight[n] ? p->weight[n] : 1);
		if (rc < 0) {
			*failed_node = n;
			gw_end(&c->gw);
			return rc;
		}
	}
	rc = gw_commit(&c->gw, failed_node);
	if (rc < 0) {
		gw_end(&c->gw);
		return rc;
	}
	c->active = true;
	return 0;
}

void weights_undo(struct weights_change *c)
{
	if (!c->active)
		return;
	gw_rollback(&c->gw);
	gw_end(&c->gw);
	c->active = false;
}

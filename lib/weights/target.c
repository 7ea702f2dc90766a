#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "policy/mpol2.h"
#include "weights/target.h"

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

/* The global backend (task-local weights travel with the policy instead,
 * policy.c). Every node of the interleave set gets its weight, 1 where
 * --weights did not name it, or keeps the one it has under -w alone; the run
 * takes a lease on each (lease.c), and only weights that differ are written.
 * Without a command to run, nothing needs the weights afterwards: the leases
 * only decide whether the change may be made, and are dropped.
 * The directory lock is held until weights_release(), weights_undo() or the
 * exec, so a failed exec can still put the old ones back. */
int weights_apply(const struct policy *p, struct weights_change *c,
		  struct lease_conflict *conflict, unsigned *failed_node)
{
	int rc;

	c->active = false;
	lease_init(&c->lease);
	memset(c->req.want, 0, sizeof(c->req.want));
	for (unsigned n = 0; n < p->nodes->size && n < PARSE_MAX_NODES; n++) {
		if (!numa_bitmask_isbitset(p->nodes, n))
			continue;
		c->req.want[n] = !p->has_weights ? LEASE_AS_IS : p->weight[n] ? p->weight[n] : 1;
	}
	rc = lease_acquire(&c->lease, &c->gw, &c->req, conflict, failed_node);
	if (rc < 0)
		return rc;
	rc = gw_commit(&c->gw, failed_node);
	if (rc < 0) {
		lease_drop(&c->lease);
		gw_end(&c->gw);
		return rc;
	}
	if (c->req.keep)
		lease_keep(&c->lease);
	else
		lease_drop(&c->lease);
	c->active = true;
	return 0;
}

/* Nothing open, nothing written: what weights_release(), weights_undo() and
 * restore_weights() may be given when no global weight was asked for. */
void weights_init(struct weights_change *c)
{
	memset(c, 0, sizeof(*c));
	lease_init(&c->lease);
	c->gw.dirfd = -1;
	for (unsigned i = 0; i < PARSE_MAX_NODES; i++)
		c->gw.fd[i] = -1;
}

/* Lets other runs in while this one's job runs; its leases stay. */
void weights_release(struct weights_change *c)
{
	if (c->active)
		gw_end(&c->gw);
	c->active = false;
}

void weights_undo(struct weights_change *c)
{
	if (!c->active)
		return;
	gw_rollback(&c->gw);
	lease_drop(&c->lease);
	gw_end(&c->gw);
	c->active = false;
}

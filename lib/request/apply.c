// SPDX-License-Identifier: GPL-2.0-or-later
/* A plan applied: --weights=measured measured, the global table's change
 * under its transaction and a lease (where the weights go there), then the
 * policy set. Weights first: a shared region's policy must not change
 * unless they did. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "job/watcher.h"
#include "error/error.h"
#include "libnumactl2.h"
#include "policy/policy.h"
#include "request/plan.h"
#include "syscalls.h"
#include "weights/table.h"

/* --weights=measured: the nodes of the set, measured now (on the CPUs the
 * run is bound to), and their weights into the policy. */
int nc2_request_measure(const struct request *r, struct plan *pl, const struct measure_req *how,
		    struct measurement *m, struct nc2_error *e)
{
	struct measure_req req = *how;

	(void)pl;
	req.nodes = r->policy->nodes;
	req.size = r->measure_size;
	req.secs = r->measure_secs;
	req.budget = r->budget;
	if (nc2_measure_run(&req, m, e) < 0)
		return -1;
	for (unsigned i = 0; i < m->n; i++)
		r->policy->weight[m->node[i]] = m->weight[i];
	return 0;
}

/* Weighted interleave on the global table, through its owner: numactl2d
 * where it listens, else root's own (lib/owner/once.c), which holds the
 * weights of the nodes for the job, written first where they differ (with
 * -w alone, as they are). A job's changes go back once the last job that
 * needs them has ended, unless --keep-weights; without a job nothing ends,
 * and what it writes stays. A user who is not root, with no service, gets
 * the weights in effect (ineffect.c). pl->watch: root's own owner holds
 * them, so that a watcher (lib/job/watcher.c) gives them back at the job's
 * end. */
static int apply_table(const struct request *r, struct plan *pl, struct nc2_error *e)
{
	int rc;

	if (!pl->table_change)
		return 0;
	if (!gw_present())
		/* Without weights, the policy call says why. */
		return r->policy->has_weights ? error_set(e, REQ_NO_WEIGHTED_INTERLEAVE, 0) : 0;
	if (!request_ask_owner(r, pl, e, &rc))
		return request_in_effect(r, e);
	pl->watch = rc == 0 && pl->owner_here && request_may_watch(r, pl);
	return rc;
}

int nc2_request_dry_check(const struct request *r, struct plan *pl, struct nc2_error *e)
{
	int rc;

	if (!pl->table_change || !gw_present())
		return 0;
	if (request_dry_owner(r, pl, e, &rc))
		return rc;
	return request_in_effect(r, e);
}

int nc2_request_apply_table(const struct request *r, struct plan *pl, struct nc2_error *e)
{
	int rc = apply_table(r, pl, e);

	/* Nothing to put back at the job's end: the table's watcher goes. */
	if (!pl->watch)
		watcher_disarm(&pl->gate);
	return rc;
}

/* Before nc2_request_apply_table(): may it change the table for a job whose
 * end must put it back (pl->watch, known only after)? */
bool request_may_watch(const struct request *r, const struct plan *pl)
{
	return pl->table_change && r->job && !r->keep_weights && !r->no_global && gw_present() &&
	       geteuid() == 0;
}

static int policy_failed(const struct policy *p, int rc, struct nc2_error *e)
{
	if (rc == -EINVAL && p->mode == MPOL_WEIGHTED_INTERLEAVE && !kernel_has_weighted_interleave())
		return error_set(e, REQ_NO_WEIGHTED_INTERLEAVE, 0);
	if (rc == -EINVAL && p->mode == MPOL_PREFERRED_MANY && numa_has_preferred_many() <= 0)
		return error_set(e, REQ_PREFERRED_MANY, 0);
	e->mode = p->mode;
	return error_set(e, REQ_POLICY, rc);
}

int nc2_request_apply_policy(const struct request *r, struct plan *pl, struct nc2_error *e)
{
	const struct policy *p = r->policy;
	int rc;

	if (p->mode == POLICY_NONE)
		return 0;
	if (r->range)
		rc = policy_set_range(p, r->range, r->range_len, r->range_flags);
	else
		rc = policy_set_task(p);
	if (rc == 0)
		return 0;
	pl->undone_written = nc2_request_undo(pl);
	return policy_failed(p, rc, e);
}

int nc2_request_apply(const struct request *r, struct plan *pl, struct nc2_error *e)
{
	if (nc2_request_apply_table(r, pl, e) < 0)
		return -1;
	return nc2_request_apply_policy(r, pl, e);
}

bool nc2_request_undo(struct plan *pl)
{
	return request_undo_owner(pl, NULL);
}

const char *nc2_request_undo_stays(const struct plan *pl)
{
	return pl->owner_stays;
}

/* What the owner changed for this run (nothing, where none was asked). */
void nc2_request_table_said(const struct plan *pl, struct table_said *s)
{
	*s = pl->owner_said;
}

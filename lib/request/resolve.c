// SPDX-License-Identifier: GPL-2.0-or-later
/* A request resolved into a plan, before anything changes: the weights
 * (a list, the nodes' bandwidths, or measured later), where they go and
 * why, the libnuma check of the program, what the global table needs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bandwidth/autoweights.h"
#include "job/libnumacheck.h"
#include "error/error.h"
#include "libnumactl2.h"
#include "policy/mpol2.h"
#include "policy/policy.h"
#include "request/plan.h"
#include "syscalls.h"
#include "weights/target.h"

/* A weight list (read by nc2_request_set_weights()): every node it names
 * must be in the interleave set. */
static int list_weights(const struct request *r, struct nc2_error *e)
{
	struct policy *p = r->policy;
	const struct weight_list *wl = &r->list;

	for (unsigned n = 0; n <= wl->max_node; n++) {
		if (!wl->weight[n])
			continue;
		if (n >= p->nodes->size || !numa_bitmask_isbitset(p->nodes, n)) {
			return error_set_node(e, REQ_WEIGHT_NOT_IN_SET, 0, n);
		}
		p->weight[n] = wl->weight[n];
	}
	return 0;
}

/* --weights=auto without bandwidths: RC from auto_weights_read(). */
static int auto_unread(struct nc2_error *e, int rc)
{
	if (rc == -E2BIG)
		return error_set(e, REQ_AUTO_TOO_MANY, 0);
	if (rc == -ESRCH)
		return error_set(e, REQ_AUTO_NO_CPU_NODE, 0);
	if (rc == -ENODATA)
		return error_set(e, REQ_AUTO_NO_BANDWIDTH, 0);
	return error_set(e, REQ_AUTO_UNREAD, rc);
}

/* --weights=auto: the nodes' bandwidths, read now, decide the weights. */
static int auto_weights(const struct request *r, struct plan *pl, struct nc2_error *e)
{
	struct auto_weights *aw = pl->autow ? pl->autow : malloc(sizeof(*aw));
	int rc;

	if (!aw)
		return error_set(e, REQ_AUTO_UNREAD, ENOMEM);
	pl->autow = aw;
	memset(aw, 0, sizeof(*aw));
	rc = auto_weights_read(r->policy->nodes, r->cpunodes, r->cpus, aw, &e->node);
	/* HMAT is root's: the table's owner reads it for a user. */
	if (rc == 0 && aw->hmat_rc == -EACCES)
		(void)request_owner_rows(r, aw);
	if (rc < 0)
		return auto_unread(e, rc);
	if (auto_weights_choose(aw, r->budget) < 0) {
		e->value = r->budget;
		e->count = aw->n;
		return error_set(e, REQ_AUTO_BUDGET, 0);
	}
	for (unsigned i = 0; i < aw->n; i++)
		r->policy->weight[aw->node[i]] = aw->w[i];
	pl->auto_weights = true;
	return 0;
}

/* --weights=measured: measured once everything is checked (nc2_request_measure). */
static int measured_weights(const struct request *r, struct plan *pl, struct nc2_error *e)
{
	unsigned nodes = (unsigned)numa_bitmask_weight(r->policy->nodes);

	pl->measured = true;
	if (r->budget != BW_BUDGET_CHOOSE && r->budget < nodes) {
		e->value = r->budget;
		e->count = nodes;
		return error_set(e, REQ_BUDGET_BELOW_NODES, 0);
	}
	return 0;
}

static int choose_weights(const struct request *r, struct plan *pl, struct nc2_error *e)
{
	struct policy *p = r->policy;
	int rc;

	if (policy_weights_alloc(p) < 0)
		return error_set(e, REQ_NOMEM_WEIGHTS, ENOMEM);
	if (r->weights_kind == NC2_WEIGHTS_AUTO)
		rc = auto_weights(r, pl, e);
	else if (r->weights_kind == NC2_WEIGHTS_MEASURED)
		rc = measured_weights(r, pl, e);
	else
		rc = list_weights(r, e);
	p->has_weights = true;
	return rc;
}

/* The command's libnuma may reset the task's policy at its start, without
 * the weights (lib/job/libnumacheck.c): then the global table carries them,
 * held for the job, as on a kernel without task-local weights. A dry run
 * reads files only. */
static int check_program_libnuma(const struct request *r, struct plan *pl,
				 struct nc2_error *e)
{
	struct libnuma_finding *f = pl->libnuma ? pl->libnuma : malloc(sizeof(*f));
	int rc;

	if (!f) {
		e->name = r->command[0];
		return error_set(e, REQ_LIBNUMA_UNREAD, ENOMEM);
	}
	pl->libnuma = f;
	rc = r->dry_run ? libnuma_check_static(r->command[0], r->env, f) :
			  libnuma_check(r->command[0], r->env, f);
	e->libnuma = f;
	if (rc < 0)
		return error_set(e, REQ_LIBNUMA_UNREAD, rc);
	pl->libnuma_checked = true;
	pl->libnuma_error = f->error;
	if (libnuma_keeps_weights(f->verdict))
		return 0;
	r->policy->task_local = false;
	pl->why = WHY_LIBNUMA;
	return 0;
}

/* Task-local or global. */
static int choose_target(const struct request *r, struct plan *pl, struct nc2_error *e)
{
	struct policy *p = r->policy;

	if (!p->has_weights)
		return 0;
	if (r->to_pid)
		pl->why = WHY_PID;
	else if (weights_target(r->global_forced) == WEIGHTS_TASK_LOCAL)
		pl->why = WHY_TASK_LOCAL;
	else
		pl->why = r->global_forced ? WHY_FORCED : WHY_NO_MPOL2;
	p->task_local = pl->why == WHY_PID || pl->why == WHY_TASK_LOCAL;
	if (p->task_local && r->command && !r->on_range && check_program_libnuma(r, pl, e) < 0)
		return -1;
	return 0;
}

/* Global weights over one node place no page: the table is left as it is,
 * nothing is held for the job and nothing measured (the front ends say
 * once that one node needs no weights, where some were given). */
static void leave_table(const struct request *r, struct plan *pl)
{
	if (!pl->table_change || weights_place_pages(r->policy))
		return;
	pl->table_change = false;
	if (!r->policy->has_weights)
		return;
	pl->why = WHY_ONE_NODE;
	pl->measured = false;
}

/* --no-global-weights: the table must already hold the weights (measured
 * ones are known later: the transaction checks them again), or the
 * program's libnuma, which would drop task-local ones, is refused. */
static int check_no_global(const struct request *r, const struct plan *pl,
			   struct nc2_error *e)
{
	const struct policy *p = r->policy;

	if (!r->no_global || !pl->table_change || !p->has_weights)
		return 0;
	e->libnuma = pl->libnuma;
	if (pl->why == WHY_LIBNUMA)
		return pl->measured || !weights_hold(p) ? error_set(e, REQ_LIBNUMA_REFUSED, 0) : 0;
	return !pl->measured && !weights_hold(p) ? error_set(e, REQ_NO_GLOBAL_WRITE, 0) : 0;
}

/* --home-node: where the kernel has mbind2, the weights go with it. */
static void home_node(const struct request *r, struct plan *pl)
{
	if (r->policy->home_node < 0 || !nc2_mpol2_present())
		return;
	r->policy->task_local = true;
	if (r->policy->has_weights)
		pl->why = WHY_HOME_NODE;
}

int nc2_request_resolve(const struct request *r, struct plan *pl, struct nc2_error *e)
{
	struct policy *p = r->policy;

	error_clear(e);
	if (r->weights_kind != NC2_WEIGHTS_NONE && choose_weights(r, pl, e) < 0)
		return -1;
	if (choose_target(r, pl, e) < 0)
		return -1;
	home_node(r, pl);
	pl->table_change = p->mode == MPOL_WEIGHTED_INTERLEAVE && !p->task_local;
	leave_table(r, pl);
	if (check_no_global(r, pl, e) < 0)
		return -1;
	return pl->measured ? nc2_measure_room(p->nodes, r->measure_size, e) : 0;
}

const char *nc2_request_why(enum plan_why why)
{
	switch (why) {
	case WHY_TASK_LOCAL:
		return "this kernel has set_mempolicy2: the weights are this program's own";
	case WHY_PID:
		return "--pid: they go with the policy to that process";
	case WHY_HOME_NODE:
		return "--home-node: mbind2 takes them with the range's policy";
	case WHY_FORCED:
		return "--global-weights asks for the global table";
	case WHY_NO_MPOL2:
		return "this kernel has no task-local weights (no set_mempolicy2)";
	case WHY_LIBNUMA:
		return "the program's libnuma would drop task-local weights at its start";
	case WHY_ONE_NODE:
		return "over one node, weighted interleave puts every page there, whatever the "
		       "weights";
	default:
		return "no weights asked: the weights in effect are used";
	}
}

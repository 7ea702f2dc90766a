// SPDX-License-Identifier: GPL-2.0-or-later
/* The plugin's options as a request (lib/request), filled through the
 * library's setters as the CLI fills its own, and applied in one task, as
 * the user, before its exec: the library decides and checks everything,
 * as it does for numactl2 (the node list, "local" from the CPUs Slurm gave
 * the task, the weights, --weights=measured's room, where the weights go);
 * the global table's lease is held by the task (its descriptors are
 * inherited across the exec). What is left here is the wording. */
#include <stdio.h>

#include "libnumactl2.h"
#include "msg/messages.h"
#include "msg/reqerror.h"
#include "slurm/task.h"

/* "weighted interleave on 0-1, weights 0:3,1:1 (global (sysfs))". */
static void describe(const struct policy *p, const struct plan *pl, char *buf, size_t len)
{
	size_t used;

	used = (size_t)snprintf(buf, len, "weighted interleave on nodes");
	for (int n = nc2_nodes_first(p->nodes); n >= 0 && used < len;
	     n = nc2_nodes_next(p->nodes, (unsigned)n + 1))
		used += (size_t)snprintf(buf + used, len - used, " %d:%u", n,
					 nc2_policy_weight(p, (unsigned)n));
	if (used < len)
		snprintf(buf + used, len - used, " (%s)", p->task_local ? "task-local weights" :
			 nc2_plan_table_change(pl) ? "global weights" : "one node: no weights needed");
}

/* The options, as the library takes them: the task's CPUs are its
 * affinity now, which Slurm set. */
static int fill(struct request *r, const struct plugin_opts *o, const struct task_program *prog,
		char **argv, struct nc2_error *e)
{
	nc2_request_set_policy(r, MPOL_WEIGHTED_INTERLEAVE, "--weighted-interleave");
	if (nc2_request_set_nodes(r, o->nodes, false, e) < 0 ||
	    nc2_request_set_cpus(r, NULL, NULL, e) < 0)
		return -1;
	if (o->weights && nc2_request_set_weights(r, o->weights, e) < 0)
		return -1;
	if (nc2_request_set_lease(r, false, o->wait, o->wait_secs, e) < 0)
		return -1;
	r->command = prog->argv0 ? argv : NULL;
	r->env = prog->env;
	r->job = true;
	return 0;
}

/* What the table's change did, in the CLI's words. */
static void table_changed(const struct plan *pl, struct task_outcome *out)
{
	struct table_said said;

	if (!nc2_plan_table_taken(pl))
		return;
	nc2_request_table_said(pl, &said);
	(void)msg_table_changed(out->changed, sizeof(out->changed), &said);
}

/* --weights=auto from an approximated row, as numactl2 says it once the
 * weights are set. */
static void auto_notice(const struct plan *pl, struct task_outcome *out)
{
	struct nc2_auto_notice an;

	if (nc2_plan_auto_notice(pl, &an))
		msg_auto_notice(out->approximated, sizeof(out->approximated), &an);
}

/* The request resolved, measured and applied; -1 with *e filled. */
static int apply(struct request *r, struct plan *pl, struct task_outcome *out,
		 struct nc2_error *e)
{
	const struct measure_req how = { 0 };
	struct measurement m;

	if (nc2_request_resolve(r, pl, e) < 0)
		return -1;
	(void)msg_plan_notice(out->notice, sizeof(out->notice), pl, r->policy);
	if (nc2_plan_measured(pl) && nc2_request_measure(r, pl, &how, &m, e) < 0)
		return -1;
	if (nc2_request_apply(r, pl, e) < 0)
		return -1;
	table_changed(pl, out);
	auto_notice(pl, out);
	return 0;
}

/* The request and its plan, once filled: 0, or -1 with the reason in OUT->error. */
static int run(struct request *r, struct plan *pl, const struct plugin_opts *o,
	       const struct task_program *prog, struct task_outcome *out, struct nc2_error *e)
{
	char *argv[2] = { (char *)prog->argv0, NULL };

	if (fill(r, o, prog, argv, e) < 0) {
		msg_error(out->error, sizeof(out->error), e, "--weights-wait to queue");
		return -1;
	}
	if (apply(r, pl, out, e) < 0) {
		msg_error(out->error, sizeof(out->error), e, "--weights-wait to queue");
		/* The policy failed after the table's change: what went back. */
		if (nc2_plan_undone_written(pl))
			msg_undone(out->notice, sizeof(out->notice), nc2_request_undo_stays(pl));
		return -1;
	}
	describe(r->policy, pl, out->said, sizeof(out->said));
	return 0;
}

/* 0, or -1 with the reason in OUT->error. */
int task_apply(const struct plugin_opts *o, const struct task_program *prog,
	       struct task_outcome *out)
{
	struct nc2_error *e = nc2_error_new();
	struct request r;
	struct policy p;
	struct plan *pl = nc2_plan_new();
	int rc = -1;

	if (!e || !pl) {
		snprintf(out->error, sizeof(out->error), "out of memory");
		nc2_plan_free(pl);
		nc2_error_free(e);
		return -1;
	}
	nc2_request_init(&r, &p);
	rc = run(&r, pl, o, prog, out, e);
	nc2_request_free(&r);
	nc2_plan_free(pl);
	nc2_error_free(e);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The plugin's options as a request (lib/request), applied in one task, as
 * the user, before its exec: the node list and weights from this node's own
 * layout and bandwidths, then the policy through the task-local path where
 * the kernel has it, else the global table with a compare-before-write and
 * a lease held by the task (its descriptors are inherited across the exec),
 * exactly as numactl2 does, and the global table too when the task's
 * program would drop task-local weights at its start. What is left here is
 * the wording. */
#include <stdio.h>
#include <string.h>

#include "libnumactl2.h"
#include "msg/messages.h"
#include "msg/reqerror.h"
#include "slurm/plugin.h"

static struct policy policy;
static struct plan plan;

/* "weighted interleave on 0-1, weights 0:3,1:1 (global (sysfs))". */
static void describe(char *buf, size_t len)
{
	size_t used;

	used = (size_t)snprintf(buf, len, "weighted interleave on nodes");
	for (int n = nodes_first(policy.nodes); n >= 0 && used < len;
	     n = nodes_next(policy.nodes, (unsigned)n + 1))
		used += (size_t)snprintf(buf + used, len - used, " %d:%u", n,
					 policy_weight(&policy, (unsigned)n));
	if (used < len)
		snprintf(buf + used, len - used, " (%s)", policy.task_local ? "task-local weights" :
			 plan.table_change ? "global weights" : "one node: no weights needed");
}

/* --weights=measured: this node's bandwidths, measured now. */
static int measure(const struct request *r, struct nc2_error *e)
{
	static struct measurement m;
	static const struct measure_req how = {
		.size = MEASURE_SIZE_DEFAULT, .secs = MEASURE_SECS_DEFAULT,
	};

	return plan.measured ? request_measure(r, &plan, &how, &m, e) : 0;
}

/* The request resolved, measured and applied; -1 with *e filled. */
static int apply(struct request *r, struct task_outcome *out, struct nc2_error *e)
{
	if (request_resolve(r, &plan, e) < 0)
		return -1;
	/* The program's libnuma: the global table carries the weights, and NOTICE says so. */
	if (plan.why == WHY_LIBNUMA)
		msg_libnuma_global(out->notice, sizeof(out->notice), &plan.libnuma);
	else if (plan.why == WHY_ONE_NODE)
		msg_one_node(out->notice, sizeof(out->notice), r->policy);
	if (measure(r, e) < 0)
		return -1;
	return request_apply(r, &plan, e);
}

/* The task's nodes; "local": those nearest to the CPUs Slurm gave this
 * task, its affinity now. NULL when there are none. */
static struct bitmask *task_nodes(const char *arg, struct nc2_error *e)
{
	struct bitmask *mask = NULL;

	if (strcmp(arg, "local") == 0)
		return auto_local_nodes(NULL, NULL, &mask, e) == 0 ? mask : NULL;
	return nodes_parse(arg, false);
}

/* The request in POLICY and PLAN, applied with E; 0, or -1 with the reason
 * in OUT->error. */
static int task_request(const struct plugin_opts *o, const struct task_program *prog,
			struct task_outcome *out, struct nc2_error *e)
{
	char *argv[2] = { (char *)prog->argv0, NULL };
	struct request r = {
		.policy = &policy, .weights = o->weights, .budget = BW_BUDGET_CHOOSE,
		.command = prog->argv0 ? argv : NULL, .env = prog->env, .job = true,
		.lease = { .wait = o->wait, .wait_secs = o->wait_secs },
	};
	if (request_plan_init(&plan) < 0) {
		snprintf(out->error, sizeof(out->error), "out of memory");
		return -1;
	}
	policy.mode = MPOL_WEIGHTED_INTERLEAVE;
	policy.home_node = -1;
	policy.option = "--weighted-interleave";
	policy.nodes = task_nodes(o->nodes, e);
	if (!policy.nodes || nodes_first(policy.nodes) < 0) {
		msg_node_refused(out->error, sizeof(out->error), o->nodes);
		return -1;
	}
	if (apply(&r, out, e) < 0) {
		msg_error(out->error, sizeof(out->error), e, "--weights-wait to queue");
		/* The policy failed after the table's change: what went back. */
		if (plan.undone_written)
			msg_undone(out->notice, sizeof(out->notice), request_undo_stays(&plan));
		return -1;
	}
	describe(out->said, sizeof(out->said));
	return 0;
}

/* 0, or -1 with the reason in OUT->error. */
int task_apply(const struct plugin_opts *o, const struct task_program *prog,
	       struct task_outcome *out)
{
	struct nc2_error *e = nc2_error_new();
	int rc;

	if (!e) {
		snprintf(out->error, sizeof(out->error), "out of memory");
		return -1;
	}
	rc = task_request(o, prog, out, e);
	nc2_error_free(e);
	return rc;
}

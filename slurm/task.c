// SPDX-License-Identifier: GPL-2.0-or-later
/* The request applied in one task, as the user, before its exec: the node
 * list and weights from this node's own layout and bandwidths, then the
 * policy through the task-local path where the kernel has it, else the
 * global table with a compare-before-write and a lease held by the task
 * (its descriptors are inherited across the exec), exactly as numactl2
 * does (lib/weights/target.c), and the global table too when the task's
 * program would drop task-local weights at its start. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "msg/messages.h"
#include "libnumactl2.h"
#include "slurm/plugin.h"
#include "syscalls.h"

static struct policy policy;
static struct weights_change change;

static int list_weights(const char *arg, char *msg, size_t len)
{
	struct weight_list wl;
	struct parse_err e;
	int rc = parse_weight_list(arg, &wl, &e);

	if (rc == -ENOMEM)
		snprintf(msg, len, "cannot read the weight list: %s", strerror(ENOMEM));
	else if (rc < 0)
		parse_strerror(&e, "weight list", msg, len);
	if (rc < 0)
		return -1;
	for (unsigned n = 0; n <= wl.max_node; n++) {
		if (!wl.weight[n])
			continue;
		if (n >= policy.nodes->size || !numa_bitmask_isbitset(policy.nodes, n)) {
			msg_weight_not_in_set(msg, len, n);
			rc = -1;
			break;
		}
		policy.weight[n] = wl.weight[n];
	}
	weight_list_free(&wl);
	return rc;
}

/* --weights=auto: this node's bandwidths decide its weights. */
static int auto_weights(char *msg, size_t len)
{
	static struct auto_weights aw;
	unsigned node = 0;
	int rc = auto_weights_read_hmat(policy.nodes, &aw, &node);

	if (rc < 0) {
		msg_auto_unread(msg, len, rc, node);
		return -1;
	}
	if (auto_weights_choose(&aw, BW_BUDGET_CHOOSE) < 0) {
		msg_auto_budget(msg, len, BW_BUDGET_CHOOSE, aw.n);
		return -1;
	}
	for (unsigned i = 0; i < aw.n; i++)
		policy.weight[aw.node[i]] = aw.w[i];
	return 0;
}

/* --weights=measured: this node's bandwidths, measured now. */
static int measured_weights(char *msg, size_t len)
{
	static struct measurement m;
	struct measure_req req = {
		.nodes = policy.nodes, .size = MEASURE_SIZE_DEFAULT, .secs = MEASURE_SECS_DEFAULT,
		.budget = BW_BUDGET_CHOOSE,
	};
	int rc = measure_run(&req, &m);

	if (rc < 0) {
		snprintf(msg, len, "cannot measure the bandwidth: %s", strerror(-rc));
		return -1;
	}
	for (unsigned i = 0; i < m.n; i++)
		policy.weight[m.node[i]] = m.weight[i];
	return 0;
}

static int choose_weights(const char *arg, char *msg, size_t len)
{
	if (!arg)
		return 0;
	policy.has_weights = true;
	if (policy_weights_alloc(&policy) < 0) {
		snprintf(msg, len, "cannot keep the weights: %s", strerror(ENOMEM));
		return -1;
	}
	if (strcmp(arg, "auto") == 0)
		return auto_weights(msg, len);
	if (strcmp(arg, "measured") == 0)
		return measured_weights(msg, len);
	return list_weights(arg, msg, len);
}

/* The global table: a lease on each node's weight, written where it differs. */
static int global_weights(const struct request *r, char *msg, size_t len)
{
	struct lease_conflict c;
	unsigned node = 0;
	int rc;

	if (!gw_present()) {
		if (!policy.has_weights)
			return 0;	/* the policy call says why */
		msg_no_weighted_interleave(msg, len);
		return -1;
	}
	change.txn.opt.wait = r->wait;
	change.txn.opt.wait_secs = r->wait_secs;
	change.txn.keep = true;
	rc = weights_apply(&policy, &change, &c, &node);
	if (rc < 0) {
		msg_global_refused(msg, len, &change.txn, rc, &c, node, "--weights-wait to queue");
		return -1;
	}
	return 0;
}

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
		snprintf(buf + used, len - used, " (%s weights)",
			 policy.task_local ? "task-local" : "global");
}

/* The task's program may start with a libnuma that resets the policy
 * without its weights (lib/job/libnumacheck.c): then the global table
 * carries them, with a lease, as the CLI does, and NOTICE says so. */
static int check_program_libnuma(const struct task_program *prog, struct task_outcome *o)
{
	static struct libnuma_finding f;
	int rc;

	if (!policy.task_local || !prog->argv0)
		return 0;
	rc = libnuma_check(prog->argv0, prog->env, &f);
	if (rc < 0) {
		snprintf(o->error, sizeof(o->error), "cannot tell which libnuma '%.900s' loads: %s",
			 f.prog, strerror(-rc));
		return -1;
	}
	if (libnuma_keeps_weights(f.verdict))
		return 0;
	policy.task_local = false;
	msg_libnuma_global(o->notice, sizeof(o->notice), &f);
	return 0;
}

/* 0, or -1 with the reason in O->error. */
int task_apply(const struct request *r, const struct task_program *prog, struct task_outcome *o)
{
	int rc;

	weights_init(&change);
	policy.mode = MPOL_WEIGHTED_INTERLEAVE;
	policy.home_node = -1;
	policy.option = "--weighted-interleave";
	policy.nodes = nodes_parse(r->nodes, false);
	if (!policy.nodes || nodes_first(policy.nodes) < 0) {
		msg_node_refused(o->error, sizeof(o->error), r->nodes);
		return -1;
	}
	if (choose_weights(r->weights, o->error, sizeof(o->error)) < 0)
		return -1;
	policy.task_local = policy.has_weights && weights_target(false) == WEIGHTS_TASK_LOCAL;
	if (check_program_libnuma(prog, o) < 0)
		return -1;
	if (!policy.task_local && global_weights(r, o->error, sizeof(o->error)) < 0)
		return -1;
	rc = policy_set_task(&policy);
	if (rc == -EINVAL && !kernel_has_weighted_interleave())
		msg_no_weighted_interleave(o->error, sizeof(o->error));
	else if (rc < 0)
		snprintf(o->error, sizeof(o->error), "cannot set %s policy: %s",
			 policy_name(policy.mode), strerror(-rc));
	if (rc < 0) {
		weights_undo(&change);	/* what this task wrote goes back */
		return -1;
	}
	weights_release(&change);	/* other tasks go on; the leases stay */
	describe(o->said, sizeof(o->said));
	return 0;
}

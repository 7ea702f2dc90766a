// SPDX-License-Identifier: GPL-2.0-or-later
/* After the arguments are checked (check.c): the request filled, resolved
 * into a plan by the library (where the weights go and why, the libnuma
 * check of the command), the checks that need the plan, and --measure's
 * room on the machine. Nothing is changed here. */
#include <err.h>

#include "cli/globalmsg.h"
#include "cli/libnumamsg.h"
#include "cli/prepare.h"
#include "cli/usage.h"
#include "libnumactl2.h"
#include "msg/reqerror.h"


void cli_request_failed(const struct nc2_error *e)
{
	char msg[REQ_MSG_MAX];

	if (nc2_error_fault(e) == REQ_WEIGHT_LIST)
		usage_parse_error(nc2_error_parse(e), "weight list");
	msg_error(msg, sizeof(msg), e, "--wait to queue, --force to override");
	if (nc2_error_is_usage(e))
		usage_error("%s", msg);
	errx(1, "%s", msg);
}

enum admin_op cli_admin_op(const struct ctl *ctl)
{
	static const enum admin_op op_of[] = {
		[GLOBAL_SET] = ADMIN_SET, [GLOBAL_RESET] = ADMIN_RESET, [GLOBAL_AUTO] = ADMIN_AUTO,
	};

	return op_of[ctl->global_op];
}

void cli_lease_options(const struct ctl *ctl, struct lease_options *o)
{
	o->force = ctl->force;
	o->wait = ctl->wait;
	o->wait_secs = ctl->wait_secs;
}

static void fill_request(struct ctl *ctl)
{
	struct request *r = &ctl->req;

	r->policy = &ctl->policy;
	r->weights = ctl->weights_arg;
	r->budget = ctl->budget;
	r->cpunodes = ctl->cpunodes;
	r->cpus = ctl->cpus;
	r->command = ctl->command;
	r->env = ctl->env;
	r->dry_run = ctl->dry_run;
	r->no_global = ctl->no_global;
	r->global_forced = ctl->global_forced;
	r->to_pid = ctl->pid != 0;
	r->on_range = ctl->use_shm;
	r->job = ctl->command != NULL;
	r->keep_weights = ctl->keep_weights;
	cli_lease_options(ctl, &r->lease);
	r->range_flags = ctl->strict ? MPOL_MF_STRICT : 0;
}

/* --home-node without mbind2: only the stock calls' policies take it. */
static void check_home_node_kernel(const struct ctl *ctl)
{
	const struct policy *p = &ctl->policy;

	if (p->home_node < 0 || mpol2_present())
		return;
	if (p->mode != MPOL_BIND && p->mode != MPOL_PREFERRED_MANY)
		usage_error("--home-node needs --membind or --preferred-many on a kernel "
			    "without mbind2 (numactl2(8), KERNELS)");
}

/* --force and --wait need a change of the global table. */
static void check_lease_target(const struct ctl *ctl)
{
	const struct policy *p = &ctl->policy;
	bool global_change = p->has_weights && !p->task_local;

	if ((ctl->force || ctl->wait) && !global_change)
		usage_error("%s needs --weights that go to the global table, or a global weight option",
			    ctl->force ? "--force" : "--wait");
}

static void measure_defaults(struct ctl *ctl)
{
	const struct policy *p = &ctl->policy;

	if (!ctl->measure_size)
		ctl->measure_size = MEASURE_SIZE_DEFAULT;
	if (!ctl->measure_secs)
		ctl->measure_secs = MEASURE_SECS_DEFAULT;
	if (!ctl->measure_budget)
		ctl->measure_budget = BW_BUDGET_CHOOSE;
	ctl->measure_nodes = p->mode == POLICY_NONE ? measure_default_nodes() : p->nodes;
}

/* The size, on each node and under the memory cgroup, before any is
 * touched: a cgroup's limit would kill numactl2 without a word. */
static void check_measure_room(const struct ctl *ctl)
{
	unsigned long long room;
	unsigned node = 0;

	if (measure_check_size(ctl->measure_nodes, ctl->measure_size, &node) < 0)
		errx(1, "--measure-size: node %u has less than %llu MiB free", node,
		     ctl->measure_size >> 20);
	room = memcg_room();
	if (room < ctl->measure_size)
		errx(1, "--measure-size: the memory cgroup leaves %llu MiB, less than %llu MiB",
		     room >> 20, ctl->measure_size >> 20);
}

/* --measure alone, or --weights=measured where the plan measures (not
 * over one node): the nodes, each able to hold the size now. */
static void prepare_measure(struct ctl *ctl)
{
	if (!ctl->measure && !ctl->plan.measured)
		return;
	measure_defaults(ctl);
	if ((unsigned)numa_bitmask_weight(ctl->measure_nodes) > BW_MAX_NODES)
		usage_error("--measure measures at most %d nodes", BW_MAX_NODES);
	check_measure_room(ctl);
}

void cli_prepare(struct ctl *ctl)
{
	if (ctl->global_op != GLOBAL_NONE)
		return;
	if (request_plan_init(&ctl->plan) < 0)
		errx(1, "out of memory");
	fill_request(ctl);
	if (request_resolve(&ctl->req, &ctl->plan, ctl->error) < 0)
		cli_request_failed(ctl->error);
	if (ctl->plan.why == WHY_LIBNUMA)
		libnuma_global_said(&ctl->plan.libnuma);
	else if (ctl->plan.why == WHY_ONE_NODE)
		global_one_node_report(&ctl->policy);
	check_home_node_kernel(ctl);
	check_lease_target(ctl);
	prepare_measure(ctl);
}

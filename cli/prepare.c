// SPDX-License-Identifier: GPL-2.0-or-later
/* After the arguments are checked (check.c): the request filled, resolved
 * into a plan by the library (where the weights go and why, the libnuma
 * check of the command), the checks that need the plan, and --measure's
 * room on the machine. Nothing is changed here. */
#include <err.h>

#include "cli/prepare.h"
#include "cli/usage.h"
#include "libnumactl2.h"
#include "msg/messages.h"
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

/* The CLI's own options, as the request takes them (the rest went through
 * its setters: cmdline.c, check.c). */
static void fill_request(struct ctl *ctl)
{
	struct request *r = &ctl->req;

	r->command = ctl->command;
	r->env = ctl->env;
	r->dry_run = ctl->dry_run;
	r->no_global = ctl->no_global;
	r->global_forced = ctl->global_forced;
	r->to_pid = ctl->pid != 0;
	r->on_range = ctl->use_shm;
	r->job = ctl->command != NULL;
	r->keep_weights = ctl->keep_weights;
	r->range_flags = ctl->strict ? MPOL_MF_STRICT : 0;
	nc2_request_set_measure(r, ctl->measure_size, ctl->measure_secs);
}

/* --home-node without mbind2: only the stock calls' policies take it. */
static void check_home_node_kernel(const struct ctl *ctl)
{
	const struct policy *p = &ctl->policy;

	if (p->home_node < 0 || nc2_mpol2_present())
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

/* --measure alone: the nodes, each able to hold the size now (the
 * library checks --weights=measured's itself). */
static void prepare_measure(struct ctl *ctl)
{
	const struct policy *p = &ctl->policy;
	if (!ctl->measure)
		return;
	ctl->measure_nodes = p->mode == POLICY_NONE ? nc2_measure_default_nodes() : p->nodes;
	if (nc2_measure_room(ctl->measure_nodes, ctl->req.measure_size, ctl->error) < 0)
		cli_request_failed(ctl->error);
}

void cli_prepare(struct ctl *ctl)
{
	char msg[REQ_MSG_MAX];

	ctl->plan = nc2_plan_new();
	if (!ctl->plan)
		errx(1, "out of memory");
	if (ctl->global_op != GLOBAL_NONE)
		return;
	fill_request(ctl);
	if (nc2_request_resolve(&ctl->req, ctl->plan, ctl->error) < 0)
		cli_request_failed(ctl->error);
	if (msg_plan_notice(msg, sizeof(msg), ctl->plan, &ctl->policy))
		warnx("%s", msg);
	check_home_node_kernel(ctl);
	check_lease_target(ctl);
	prepare_measure(ctl);
}

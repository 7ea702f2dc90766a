// SPDX-License-Identifier: GPL-2.0-or-later
/* Cross-option checks, once the whole command line is read: all of the
 * input is checked here, before anything is changed. */
#include <err.h>
#include <errno.h>
#include <string.h>

#include "cli/check.h"
#include "cli/ctl.h"
#include "cli/globalmsg.h"
#include "cli/libnumamsg.h"
#include "cli/migrate.h"
#include "cli/pid.h"
#include "cli/usage.h"
#include "libnumactl2.h"
#include "msg/messages.h"
#include "syscalls.h"

extern char **environ;

/* A weight list, or the usage error that says what is wrong with it. */
static void read_weight_list(const char *arg, struct weight_list *wl)
{
	struct parse_err e;
	int rc = parse_weight_list(arg, wl, &e);

	if (rc == -ENOMEM) {
		errno = ENOMEM;
		err(1, "cannot read the weight list");
	}
	if (rc < 0)
		usage_parse_error(&e, "weight list");
}

/* --weights=LIST: every node it names must be in the interleave set. */
static void list_weights(struct ctl *ctl)
{
	struct policy *p = &ctl->policy;
	char msg[MSG_MAX];

	read_weight_list(ctl->weights_arg, &ctl->weights);
	for (unsigned n = 0; n <= ctl->weights.max_node; n++) {
		if (!ctl->weights.weight[n])
			continue;
		if (n >= p->nodes->size || !numa_bitmask_isbitset(p->nodes, n)) {
			msg_weight_not_in_set(msg, sizeof(msg), n);
			usage_error("%s", msg);
		}
		p->weight[n] = ctl->weights.weight[n];
	}
}

/* Without --weight-budget, --weights=auto and =measured choose the sum too. */
static unsigned weight_budget(const struct ctl *ctl)
{
	unsigned long budget;

	if (!ctl->budget_arg)
		return BW_BUDGET_CHOOSE;
	if (parse_ulong(ctl->budget_arg, BW_BUDGET_MAX, &budget) < 0 || budget == 0)
		usage_error("invalid weight budget '%s' (1-%d)", ctl->budget_arg, BW_BUDGET_MAX);
	return (unsigned)budget;
}

/* --weights=auto: the nodes' bandwidths, read now, decide the weights. */
static void auto_weights(struct ctl *ctl)
{
	struct auto_weights *aw = &ctl->autow;
	unsigned budget = weight_budget(ctl), node = 0;
	char msg[MSG_MAX];
	int rc = auto_weights_read_hmat(ctl->policy.nodes, aw, &node);

	if (rc < 0)
		msg_auto_unread(msg, sizeof(msg), rc, node);
	if (rc == -E2BIG)
		usage_error("%s", msg);
	if (rc < 0)
		errx(1, "%s", msg);
	if (auto_weights_choose(aw, budget) < 0) {
		msg_auto_budget(msg, sizeof(msg), budget, aw->n);
		usage_error("%s", msg);
	}
	for (unsigned i = 0; i < aw->n; i++)
		ctl->policy.weight[aw->node[i]] = aw->w[i];
	ctl->weights_auto = true;
}

/* --weights=measured: measured once everything is checked (check_measure). */
static void measured_weights(struct ctl *ctl)
{
	ctl->weights_measured = true;
	ctl->measure_budget = weight_budget(ctl);
	if (ctl->measure_budget < (unsigned)numa_bitmask_weight(ctl->policy.nodes))
		usage_error("weight budget %u is below the %d nodes of the interleave set "
			    "(each weight is at least 1)", ctl->measure_budget,
			    numa_bitmask_weight(ctl->policy.nodes));
}

static void check_weights(struct ctl *ctl)
{
	struct policy *p = &ctl->policy;

	if (p->mode != MPOL_INTERLEAVE && p->mode != MPOL_WEIGHTED_INTERLEAVE)
		usage_error("--weights needs --weighted-interleave or --interleave");
	if (policy_weights_alloc(p) < 0) {
		errno = ENOMEM;
		err(1, "cannot keep the weights");
	}
	if (strcmp(ctl->weights_arg, "auto") == 0)
		auto_weights(ctl);
	else if (strcmp(ctl->weights_arg, "measured") == 0)
		measured_weights(ctl);
	else if (ctl->budget_arg)
		usage_error("--weight-budget needs --weights=auto or --weights=measured");
	else
		list_weights(ctl);
	p->mode = MPOL_WEIGHTED_INTERLEAVE;
	p->has_weights = true;
}

static void check_global_op(struct ctl *ctl)
{
	if (ctl->policy.mode != POLICY_NONE || ctl->command || ctl->use_shm || ctl->weights_arg ||
	    ctl->budget_arg || ctl->report != REPORT_NONE || ctl->report_file || ctl->measure)
		usage_error("global weight options run alone, without a policy or command");
	if (ctl->global_op == GLOBAL_SET)
		read_weight_list(ctl->global_arg, &ctl->weights);
	if (ctl->restore)
		usage_error("--restore-weights needs a command to run");
}

/* --force and --wait are about changing global weights; --restore-weights
 * about the weights a job's run changed. */
static void check_lease_options(const struct ctl *ctl)
{
	const struct policy *p = &ctl->policy;
	bool global_change = p->has_weights && !p->task_local;

	if (ctl->force && ctl->wait)
		usage_error("options --force and --wait cannot be combined");
	if ((ctl->force || ctl->wait) && !global_change)
		usage_error("%s needs --weights that go to the global table, or a global weight option",
			    ctl->force ? "--force" : "--wait");
	if (ctl->restore && !p->has_weights)
		usage_error("--restore-weights needs --weights");
	if (ctl->restore && !ctl->command)
		usage_error("--restore-weights needs a command to run");
}

static void check_policy(struct ctl *ctl)
{
	struct policy *p = &ctl->policy;

	if (ctl->weighted) {
		if (p->mode == MPOL_INTERLEAVE)
			p->mode = MPOL_WEIGHTED_INTERLEAVE;
		else if (p->mode != MPOL_WEIGHTED_INTERLEAVE)
			usage_error("-w needs a node list, or --interleave after it");
	}
	if (ctl->weights_arg)
		check_weights(ctl);
	else if (ctl->budget_arg)
		usage_error("--weight-budget needs --weights=auto or --weights=measured");
	if (ctl->balancing) {
		if (p->mode != MPOL_BIND && p->mode != MPOL_PREFERRED_MANY)
			usage_error("--balancing needs --membind or --preferred-many");
		p->flags |= MPOL_F_NUMA_BALANCING;
	}
	if (ctl->use_shm && p->mode == POLICY_NONE && ctl->shm_actions[0] == '\0')
		usage_error("--shm/--file needs a policy after it");
}

/* The command's libnuma may reset the task's policy at its start, without
 * the weights (lib/job/libnumacheck.c): then the global table carries them,
 * with a lease, as on a kernel without task-local weights; or
 * --no-global-weights refuses, unless the table already holds them.
 * --dry-run runs nothing: it reads files only (dryrun.c says what the run
 * would ask). */
static void check_program_libnuma(struct ctl *ctl)
{
	struct libnuma_finding *f = &ctl->libnuma;
	int rc = ctl->dry_run ? libnuma_check_static(ctl->command[0], environ, f) :
				libnuma_check(ctl->command[0], environ, f);

	if (rc < 0) {
		errno = -rc;
		err(1, "cannot tell which libnuma '%s' loads", f->prog);
	}
	if (libnuma_keeps_weights(f->verdict))
		return;
	ctl->policy.task_local = false;
	if (ctl->no_global && (ctl->weights_measured || !weights_hold(&ctl->policy)))
		libnuma_refused(f);
	libnuma_global_said(f);
}

/* Task-local or global: decided here, before anything changes. Global
 * weights that already hold are no change, even with --no-global-weights
 * (measured ones are known later: the transaction checks them again). */
static void check_weights_target(struct ctl *ctl)
{
	struct policy *p = &ctl->policy;

	if (ctl->no_global && ctl->global_forced)
		usage_error("options --no-global-weights and --global-weights cannot be combined");
	if (!p->has_weights)
		return;
	/* --pid: the weights go with the policy to that process (pid.c). */
	p->task_local = ctl->pid ||
			weights_target(ctl->global_forced) == WEIGHTS_TASK_LOCAL;
	if (p->task_local && ctl->command && !ctl->use_shm)
		check_program_libnuma(ctl);
	if (!p->task_local && ctl->no_global && !ctl->weights_measured && !weights_hold(p))
		global_no_write_refused();
}

static void check_home_node(struct ctl *ctl)
{
	struct policy *p = &ctl->policy;

	if (p->home_node < 0)
		return;
	if (!ctl->use_shm && !ctl->pid)
		usage_error("--home-node needs --shm or --file");
	if (p->mode == POLICY_NONE || p->mode == MPOL_LOCAL)
		usage_error("--home-node needs a policy with nodes");
	if (mpol2_present())
		p->task_local = true;
	else if (p->mode != MPOL_BIND && p->mode != MPOL_PREFERRED_MANY)
		usage_error("--home-node needs --membind or --preferred-many on a kernel "
			    "without mbind2 (kernel/)");
}

/* --report: a command to report on (--show and --hardware run none);
 * --report-file alone means the table. */
static void check_report(struct ctl *ctl)
{
	if ((ctl->show || ctl->hardware) && (ctl->report != REPORT_NONE || ctl->report_file))
		usage_error("options %s and %s cannot be combined",
			    ctl->report != REPORT_NONE ? "--report" : "--report-file",
			    ctl->show ? "--show" : "--hardware");
	if (ctl->report_file && ctl->report == REPORT_NONE)
		ctl->report = REPORT_TABLE;
	if (ctl->report != REPORT_NONE && !ctl->command)
		usage_error("--report needs a command to run");
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

/* --measure alone, or --weights=measured: the nodes, each able to hold the
 * size now. */
static void check_measure(struct ctl *ctl)
{
	const struct policy *p = &ctl->policy;

	if (!ctl->measure && !ctl->weights_measured) {
		if (ctl->measure_size || ctl->measure_secs)
			usage_error("--measure-size and --measure-time need --measure or --weights=measured");
		return;
	}
	if (ctl->measure && (ctl->command || ctl->weights_arg || ctl->show || ctl->hardware ||
			     ctl->use_shm || ctl->dry_run))
		usage_error("--measure runs alone, with at most --cpunodebind, --physcpubind and "
			    "--interleave/--weighted-interleave; --weights=measured uses it for a command");
	if (p->mode != POLICY_NONE && p->mode != MPOL_INTERLEAVE && p->mode != MPOL_WEIGHTED_INTERLEAVE)
		usage_error("--measure takes its nodes from --interleave or --weighted-interleave");
	measure_defaults(ctl);
	if ((unsigned)numa_bitmask_weight(ctl->measure_nodes) > BW_MAX_NODES)
		usage_error("--measure measures at most %d nodes", BW_MAX_NODES);
	check_measure_room(ctl);
}

void cli_validate(struct ctl *ctl)
{
	pid_check(ctl);
	migrate_check(ctl);
	if (ctl->global_op != GLOBAL_NONE) {
		check_global_op(ctl);
		if (ctl->force && ctl->wait)
			usage_error("options --force and --wait cannot be combined");
		return;
	}
	check_policy(ctl);
	check_weights_target(ctl);
	check_home_node(ctl);
	check_lease_options(ctl);
	check_report(ctl);
	check_measure(ctl);
	if (ctl->strict && !ctl->use_shm)
		usage_error("--strict must come with --shm/--file");
	if (ctl->show || ctl->hardware || ctl->use_shm || ctl->measure || ctl->pid)
		return;
	if (!ctl->command)
		usage_error("no command given");
}

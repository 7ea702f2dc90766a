// SPDX-License-Identifier: GPL-2.0-or-later
/* Cross-option checks, once the whole command line is read: the arguments
 * alone, nothing read from the machine (the request it makes is resolved
 * in prepare.c), before anything is changed. */
#include <err.h>
#include <errno.h>
#include <string.h>

#include "cli/check.h"
#include "cli/ctl.h"
#include "cli/pid.h"
#include "cli/pidmigrate.h"
#include "cli/prepare.h"
#include "cli/usage.h"
#include "libnumactl2.h"
#include "msg/messages.h"

/* A weight list, or the usage error that says what is wrong with it. */
static void read_weight_list(const char *arg, struct weight_list *wl)
{
	struct parse_err e;
	int rc = nc2_parse_weight_list(arg, wl, &e);

	if (rc == -ENOMEM) {
		errno = ENOMEM;
		err(1, "cannot read the weight list");
	}
	if (rc < 0)
		usage_parse_error(&e, "weight list");
}

/* --weights and --weight-budget, as the library takes them: what kind,
 * over which policy. */
static void check_weights(struct ctl *ctl)
{
	if (ctl->weights_arg && nc2_request_set_weights(&ctl->req, ctl->weights_arg, ctl->error) < 0)
		cli_request_failed(ctl->error);
	if (ctl->budget_arg && nc2_request_set_budget(&ctl->req, ctl->budget_arg, ctl->error) < 0)
		cli_request_failed(ctl->error);
}

/* --force, --wait[=SECS], where given. */
static void lease_options(struct ctl *ctl)
{
	if (!ctl->force && !ctl->wait)
		return;
	if (nc2_request_set_lease(&ctl->req, ctl->force, ctl->wait, ctl->wait_secs, ctl->error) < 0)
		cli_request_failed(ctl->error);
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
	if (ctl->keep_weights)
		usage_error("--keep-weights needs a command to run");
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
	if (ctl->weights_arg || ctl->budget_arg)
		check_weights(ctl);
	if (ctl->balancing) {
		if (p->mode != MPOL_BIND && p->mode != MPOL_PREFERRED_MANY)
			usage_error("--balancing needs --membind or --preferred-many");
		p->flags |= MPOL_F_NUMA_BALANCING;
	}
	if (ctl->use_shm && p->mode == POLICY_NONE && ctl->shm_actions[0] == '\0')
		usage_error("--shm/--file needs a policy after it");
}

/* Where the weights go is the request layer's (prepare.c). */
static void check_weights_target(const struct ctl *ctl)
{
	if (ctl->no_global && ctl->global_forced)
		usage_error("options --no-global-weights and --global-weights cannot be combined");
}

static void check_home_node(const struct ctl *ctl)
{
	const struct policy *p = &ctl->policy;

	if (p->home_node < 0)
		return;
	if (!ctl->use_shm && !ctl->pid)
		usage_error("--home-node needs --shm or --file");
	if (p->mode == POLICY_NONE || p->mode == MPOL_LOCAL)
		usage_error("--home-node needs a policy with nodes");
}

/* --force and --wait are about changing global weights (whether they go
 * there: prepare.c); --restore-weights about the weights a job's run
 * changed. */
static void check_lease_options(struct ctl *ctl)
{
	lease_options(ctl);
	if (ctl->restore && !ctl->weights_arg)
		usage_error("--restore-weights needs --weights");
	if (ctl->restore && !ctl->command)
		usage_error("--restore-weights needs a command to run");
	if (ctl->keep_weights && ctl->restore)
		usage_error("options --keep-weights and --restore-weights cannot be combined");
	if (ctl->keep_weights && !ctl->command)
		usage_error("--keep-weights needs a command to run");
}

/* --json is --show's other format. */
static void check_json(const struct ctl *ctl)
{
	if (ctl->json && (!ctl->show || ctl->pid))
		usage_error("--json needs --show (without --pid)");
}

/* --report: a command to report on (--show and --hardware run none);
 * --report-file alone means the table. */
static void check_report(struct ctl *ctl)
{
	check_json(ctl);
	if ((ctl->show || ctl->hardware) && (ctl->report != REPORT_NONE || ctl->report_file))
		usage_error("options %s and %s cannot be combined",
			    ctl->report != REPORT_NONE ? "--report" : "--report-file",
			    ctl->show ? "--show" : "--hardware");
	if (ctl->report_file && ctl->report == REPORT_NONE)
		ctl->report = REPORT_TABLE;
	if (ctl->report != REPORT_NONE && !ctl->command)
		usage_error("--report needs a command to run");
}

/* --measure alone, or --weights=measured: what goes with it (the nodes'
 * room: prepare.c). */
static void check_measure(const struct ctl *ctl)
{
	const struct policy *p = &ctl->policy;

	if (!ctl->measure && ctl->req.weights_kind != NC2_WEIGHTS_MEASURED) {
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
}

/* The CPUs the job runs on, from which "local" nodes are found: every
 * check below takes them. */
static void job_cpus(struct ctl *ctl)
{
	if (ctl->pid && ctl->req.nodes_local)
		usage_error("node list 'local' needs the job's own CPUs: not with --pid");
	if (nc2_request_set_cpus(&ctl->req, ctl->cpunodes, ctl->cpus, ctl->error) < 0)
		cli_request_failed(ctl->error);
}

void cli_validate(struct ctl *ctl)
{
	job_cpus(ctl);
	pid_check(ctl);
	migrate_check(ctl);
	if (ctl->global_op != GLOBAL_NONE) {
		check_global_op(ctl);
		lease_options(ctl);
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

// SPDX-License-Identifier: GPL-2.0-or-later
/* numactl2: run a command under a NUMA memory policy, with weighted
 * interleave and per-node weights. */
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/check.h"
#include "cli/closeout.h"
#include "cli/cmdline.h"
#include "cli/ctl.h"
#include "cli/dryrun.h"
#include "cli/exec.h"
#include "cli/globalmsg.h"
#include "cli/pid.h"
#include "cli/prepare.h"
#include "cli/progress.h"
#include "cli/reportmsg.h"
#include "cli/shmmsg.h"
#include "libnumactl2.h"
#include "msg/messages.h"
#include "msg/reqerror.h"

/* What the undo of numactl2's change of the global table did: all back,
 * or exactly what stays. */
static void undone_said(const struct ctl *ctl)
{
	char msg[MSG_MAX];

	msg_undone(msg, sizeof(msg), nc2_request_undo_stays(ctl->plan));
	warnx("%s", msg);
}

/* --weights=auto's weights from an approximated row, said (msg/). */
static void auto_notice(const struct ctl *ctl)
{
	struct nc2_auto_notice an;
	char msg[MSG_AUTO_NOTICE_MAX];

	if (!nc2_plan_auto_notice(ctl->plan, &an))
		return;
	msg_auto_notice(msg, sizeof(msg), &an);
	warnx("%s", msg);
}

/* Whatever numactl2 changed in the global table goes back when the run
 * fails; it says so only when something was written. */
static void undo_weights(struct ctl *ctl)
{
	if (nc2_request_undo(ctl->plan))
		undone_said(ctl);
}

static void bind_cpus(const struct ctl *ctl)
{
	if (ctl->cpunodes) {
		int rc = ctl->all ? numa_run_on_node_mask_all(ctl->cpunodes) :
				    numa_run_on_node_mask(ctl->cpunodes);
		if (rc < 0)
			err(1, "cannot run on the CPUs of those nodes");
	}
	if (ctl->cpus && numa_sched_setaffinity(0, ctl->cpus) < 0)
		err(1, "cannot bind to those CPUs");
}

/* The global table's change, where the weights go there (lib/request/
 * apply.c), and what it did, said. */
static void apply_weights(struct ctl *ctl)
{
	struct table_said said;
	int rc = nc2_request_apply_table(&ctl->req, ctl->plan, ctl->error);

	if (!nc2_plan_table_taken(ctl->plan)) {
		if (rc < 0)
			cli_request_failed(ctl->error);
		return;
	}
	nc2_request_table_said(ctl->plan, &said);
	if (rc < 0)
		cli_request_failed(ctl->error);
	global_report(&said);
}

/* What the watcher says, on a terminal or in a file: only what the notice
 * did not promise (a failure). */
static void watcher_said(const struct settle *s)
{
	global_settle_report(s);
}

/* The job's end puts the table back as it was: a watcher of this process
 * (the job once it execs), started before the table is written, so that
 * numactl2 killed at any moment after the write leaves it to the watcher. */
static void start_watcher(struct ctl *ctl)
{
	char msg[REQ_MSG_MAX];

	if (nc2_request_watch_table(&ctl->req, ctl->plan, watcher_said, ctl->error) < 0) {
		msg_error(msg, sizeof(msg), ctl->error, NULL);
		warnx("%s", msg);
	}
}

/* numactl's --verify: the region faulted in, then each page checked. */
static int verify_region(struct ctl *ctl)
{
	unsigned bad = 0;
	int rc;

	nc2_shm_touch(&ctl->shm);
	rc = nc2_shm_print_verify(stdout, &ctl->shm, ctl->policy.mode, ctl->policy.nodes, &bad,
			      ctl->error);
	ctl->verify_failed |= bad > 0;
	return rc;
}

static void run_shm_actions(struct ctl *ctl)
{
	for (const char *a = ctl->shm_actions; *a; a++) {
		int rc = 0;

		if (*a == SHM_TOUCH)
			nc2_shm_touch(&ctl->shm);
		else if (*a == SHM_VERIFY)
			rc = verify_region(ctl);
		else if (*a == SHM_DUMP)
			rc = nc2_shm_print_dump(stdout, &ctl->shm, ctl->error);
		else
			rc = nc2_shm_print_dump_nodes(stdout, &ctl->shm, ctl->error);
		if (rc < 0)
			cli_request_failed(ctl->error);
	}
}

static void apply_policy(struct ctl *ctl)
{
	if (ctl->use_shm) {
		ctl->req.range = ctl->shm.addr;
		ctl->req.range_len = ctl->shm.length;
	}
	if (nc2_request_apply_policy(&ctl->req, ctl->plan, ctl->error) == 0)
		return;
	if (nc2_plan_undone_written(ctl->plan))
		undone_said(ctl);
	cli_request_failed(ctl->error);
}

/* SIGPIPE: numactl2's own notices to a stderr whose reader has gone must
 * not end it between a change and the exec (the job would never run, the
 * table never go back); the job gets the disposition numactl2 started with. */
static struct sigaction sigpipe_started;
static bool sigpipe_held;

/* sigaction(), not signal(): the job gets the disposition back whole, its
 * flags and mask included. */
static void sigpipe_hold(void)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };

	(void)sigaction(SIGPIPE, &ign, &sigpipe_started);
	sigpipe_held = true;
}

static void sigpipe_restore(void)
{
	if (sigpipe_held)
		(void)sigaction(SIGPIPE, &sigpipe_started, NULL);
}

/* Only a run with something to finish after a notice holds it: the table's
 * change, measured weights (which may change it), a --report or
 * --restore-weights watcher. A plain run dies of it as numactl would, with
 * nothing changed. */
static bool sigpipe_matters(const struct ctl *ctl)
{
	return ctl->command && (nc2_plan_table_change(ctl->plan) ||
				nc2_plan_measured(ctl->plan) || ctl->report != REPORT_NONE ||
				ctl->restore);
}

static void __attribute__((noreturn)) run_command(struct ctl *ctl)
{
	int saved;

	/* Only --dump and --dump-nodes print before the exec. */
	if (ctl->use_shm && fflush(stdout) != 0)
		err(1, "write error");
	sigpipe_restore();
	execvp(ctl->command[0], ctl->command);
	saved = errno;
	sigpipe_hold();
	undo_weights(ctl);
	exec_failed(ctl->command[0], saved, ctl->bare_optional);
}

static void measure(const struct ctl *ctl, struct measurement *m)
{
	bool progress_shown = false;
	struct measure_req req = {
		.nodes = ctl->measure_nodes, .size = ctl->req.measure_size,
		.secs = ctl->req.measure_secs, .budget = BW_BUDGET_CHOOSE,
		.progress = isatty(STDERR_FILENO) ? measure_progress_line : NULL,
		.progress_arg = &progress_shown,
	};
	if (nc2_measure_run(&req, m, ctl->error) < 0)
		cli_request_failed(ctl->error);
}

/* --measure: the bandwidths, the weights they give and the time, on stdout. */
static int measure_only(const struct ctl *ctl)
{
	static struct measurement m;

	measure(ctl, &m);
	nc2_measure_print(stdout, &m);
	return close_stdout(0);
}

/* --weights=measured: the run's weights (lib/request/apply.c), said on
 * stderr in one line. */
static void measure_weights(struct ctl *ctl)
{
	static struct measurement m;
	bool progress_shown = false;
	struct measure_req how = {
		.progress = isatty(STDERR_FILENO) ? measure_progress_line : NULL,
		.progress_arg = &progress_shown,
	};

	if (nc2_request_measure(&ctl->req, ctl->plan, &how, &m, ctl->error) < 0)
		cli_request_failed(ctl->error);
	fprintf(stderr, "numactl2: measured");
	for (unsigned i = 0; i < m.n; i++)
		fprintf(stderr, "%s node %u %.1f GB/s", i ? "," : "", m.node[i], m.gbps[i]);
	fprintf(stderr, " in %.1f s: weights", m.secs);
	for (unsigned i = 0; i < m.n; i++)
		fprintf(stderr, "%s%u:%u", i ? "," : " ", m.node[i], m.weight[i]);
	fputc('\n', stderr);
}

static struct report *open_report(struct ctl *ctl)
{
	const struct report_opts o = {
		.format = ctl->report, .path = ctl->report_file, .out = stderr,
		.policy = &ctl->policy, .command = ctl->command,
	};
	struct report *r;

	if (nc2_report_open(&o, &r, ctl->error) < 0)
		cli_request_failed(ctl->error);
	return r;
}

/* What the job's end did (lib/request/jobend.c), said: --restore-weights'
 * nodes, back or left as they are. */
static void job_end_said(struct job_end *end)
{
	char msg[MSG_MAX];

	if (end->restored)
		global_restore_report(end);
	if (end->owner_stays[0]) {
		msg_undone(msg, sizeof(msg), end->owner_stays);
		warnx("%s", msg);
	}
}

/* The job never ran, or its exec failed: what this run wrote goes back. */
static void job_never_ran(struct ctl *ctl)
{
	static struct job_end end;

	nc2_request_job_never_ran(ctl->plan, &end);
	job_end_said(&end);
}

/* In the watcher, once the job has ended: the report (written before the
 * job's parent sees it end, when traced), then what every job's end does
 * (with --restore-weights, the table put back). A failed exec is
 * numactl2's to tell and undo. */
static void __attribute__((noreturn)) watch(struct ctl *ctl, struct report *r, struct job *job)
{
	static struct job_end end;

	if (nc2_supervise_watch(job) < 0)
		exit(0);
	if (ctl->report != REPORT_NONE) {
		nc2_report_print(r, job);
		report_exit_warnings(r, ctl->error);
		report_finish(r, job, ctl->error);
	}
	nc2_request_job_done(ctl->plan, job, ctl->restore, &end, job_end_said);
	nc2_job_free(job);
	exit(0);
}

/* A job that cannot be traced: sampled for --report, only its end seen for
 * --restore-weights alone; the reason said first. */
static enum job_watch untraced(const struct ctl *ctl, const char *why)
{
	if (ctl->report != REPORT_NONE) {
		warnx("--report: '%s' %s: its pages are sampled while it runs, not read at its end",
		      ctl->command[0], why);
		return WATCH_SAMPLE;
	}
	warnx("--restore-weights: '%s' %s: the weights go back just after it ends, not by the "
	      "time numactl2 returns", ctl->command[0], why);
	return WATCH_END;
}

/* --report and --restore-weights trace the job, so that it is held in its
 * last exit-stop until the report is written and the weights are back;
 * unless it gains privilege at its exec (a traced exec would not: another
 * job) or LeakSanitizer runs in it, which refuses to run traced. */
static enum job_watch watch_kind(const struct ctl *ctl)
{
	if (nc2_prog_gains_privilege(ctl->command[0], ctl->env))
		return untraced(ctl, "is set-user-ID, set-group-ID or has file capabilities, "
				     "which a traced exec would lose");
	if (nc2_leaksan_runs(ctl->command, ctl->env))
		return untraced(ctl, "runs LeakSanitizer, which does not run traced");
	/* --report under a tracer fails to start its watcher, as documented. */
	if (ctl->report == REPORT_NONE && nc2_self_traced())
		return untraced(ctl, "runs under another tracer (strace, gdb)");
	return WATCH_TRACE;
}

/* --report and --restore-weights: numactl2 execs the command as always, and
 * a watcher (supervise.c) acts when the job ends. The directory lock is let
 * go first (the leases stay), so other runs are not held up; what this run
 * wrote goes back when the job never ran. */
static void __attribute__((noreturn)) run_watched(struct ctl *ctl, struct report *r)
{
	static struct job_end end;
	struct job *job = nc2_job_new(ctl->command, watch_kind(ctl));
	int saved;

	if (!job) {
		job_never_ran(ctl);
		errx(1, "out of memory");
	}
	if (ctl->report != REPORT_NONE)
		nc2_job_set_hooks(job, nc2_report_add_process, nc2_report_sample_started, r);
	switch (nc2_request_job_start(ctl->plan, job, ctl->error)) {
	case 1:
		watch(ctl, r, job);
	case -1:
		nc2_job_free(job);
		job_never_ran(ctl);
		supervise_failed(ctl->error);
	}
	sigpipe_restore();
	execvp(ctl->command[0], ctl->command);
	saved = errno;
	sigpipe_hold();
	nc2_request_job_exec_failed(ctl->plan, job, &end);
	nc2_job_free(job);
	job_end_said(&end);
	exec_failed(ctl->command[0], saved, ctl->bare_optional);
}

/* The admin's change, by the table's owner (numactl2d, or root's own). */
static int global_op(const struct ctl *ctl)
{
	struct table_said said;

	if (nc2_request_admin_owner(cli_admin_op(ctl), &ctl->weights, &ctl->req.lease, &said,
				ctl->error) < 0)
		cli_request_failed(ctl->error);
	if (ctl->global_op == GLOBAL_AUTO)
		warnx("global interleave weights are now set by the kernel from node bandwidth");
	else
		global_report(&said);
	return 0;
}

/* What --show or --hardware did: printed (0), or said there is no NUMA
 * here (1, as numactl); any other failure ends it. */
static int printed(const struct ctl *ctl, int rc)
{
	if (rc < 0 && nc2_error_fault(ctl->error) != NC2_NO_NUMA)
		cli_request_failed(ctl->error);
	return close_stdout(rc < 0);
}

/* --show, on stdout. */
static int show(const struct ctl *ctl)
{
	return printed(ctl, ctl->json ? nc2_show_print_json(stdout, ctl->error) :
					nc2_show_print(stdout, ctl->error));
}

/* --hardware, on stdout. */
static int hardware(const struct ctl *ctl)
{
	return printed(ctl, nc2_hardware_print(stdout, ctl->cpu_compress, ctl->error));
}

/* Whether a command that cannot run must fail before the plan says or
 * changes anything: a dry run's lines, weights (the table's change, the
 * libnuma check), a shared region, a watcher or a measurement would come
 * first. A plain run's policy and CPUs die with it: its exec fails as
 * numactl's does, with the same words and status (run_command). */
static bool exec_checked_first(const struct ctl *ctl)
{
	return ctl->dry_run || ctl->weighted || ctl->weights_arg ||
	       ctl->policy.mode == MPOL_WEIGHTED_INTERLEAVE || ctl->use_shm ||
	       ctl->report != REPORT_NONE || ctl->restore || ctl->measure;
}

int main(int argc, char **argv, char **envp)
{
	struct report *report = NULL;
	static struct ctl ctl;

	ctl.env = envp;
	ctl.error = nc2_error_new();
	if (!ctl.error)
		errx(1, "out of memory");
	cli_parse(&ctl, argc, argv);
	cli_validate(&ctl);
	/* A command that cannot run fails as its exec would (127, 126). */
	if (ctl.command && !ctl.show && exec_checked_first(&ctl))
		exec_check(ctl.command, ctl.env, ctl.bare_optional);
	cli_prepare(&ctl);
	if (ctl.dry_run)
		return close_stdout(dry_run(&ctl));
	if (sigpipe_matters(&ctl))
		sigpipe_hold();
	if (ctl.global_op != GLOBAL_NONE)
		return global_op(&ctl);
	if (ctl.hardware)
		return hardware(&ctl);
	if (ctl.pid)
		return close_stdout(pid_run(&ctl));
	if (ctl.report != REPORT_NONE)
		report = open_report(&ctl);
	bind_cpus(&ctl);
	if (ctl.measure)
		return measure_only(&ctl);
	if (nc2_plan_measured(ctl.plan))
		measure_weights(&ctl);
	if (ctl.use_shm)
		attach_shm(&ctl.shm, ctl.error);
	/* Weights first: a shared region's policy must not change unless they did. */
	start_watcher(&ctl);
	apply_weights(&ctl);
	apply_policy(&ctl);
	/* --weights=auto from a guessed row: said once the weights are set. */
	auto_notice(&ctl);
	if (ctl.use_shm)
		run_shm_actions(&ctl);
	if (ctl.show)
		return show(&ctl);
	if (!ctl.command)
		return close_stdout(ctl.verify_failed);
	if (ctl.report != REPORT_NONE || ctl.restore)
		run_watched(&ctl, report);
	run_command(&ctl);
}

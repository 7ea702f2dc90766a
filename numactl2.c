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
#include <sys/file.h>
#include <unistd.h>

#include "cli/check.h"
#include "cli/closeout.h"
#include "cli/ctl.h"
#include "cli/dryrun.h"
#include "cli/exec.h"
#include "cli/globalmsg.h"
#include "cli/hardware.h"
#include "cli/options.h"
#include "cli/pid.h"
#include "cli/progress.h"
#include "cli/reportmsg.h"
#include "cli/shmmsg.h"
#include "libnumactl2.h"
#include "msg/messages.h"
#include "cli/show.h"
#include "syscalls.h"

extern char **environ;

/* Whatever numactl2 changed in the global table goes back when the run
 * fails; it says so only when something was written. */
static void undo_weights(struct weights_change *wc)
{
	bool written = wc->active && gw_txn_any_written(&wc->txn);

	weights_undo(wc);
	if (written)
		warnx("put the global interleave weights back");
}

static void __attribute__((noreturn)) no_weighted_interleave(void)
{
	char msg[MSG_MAX];

	msg_no_weighted_interleave(msg, sizeof(msg));
	errx(1, "%s", msg);
}

static void __attribute__((noreturn)) policy_failed(const struct policy *p, int rc,
						    struct weights_change *wc)
{
	undo_weights(wc);
	if (rc == -EINVAL && p->mode == MPOL_WEIGHTED_INTERLEAVE && !kernel_has_weighted_interleave())
		no_weighted_interleave();
	if (rc == -EINVAL && p->mode == MPOL_PREFERRED_MANY && numa_has_preferred_many() <= 0)
		errx(1, "--preferred-many needs Linux 5.15 or later");
	errno = -rc;
	err(1, "cannot set %s policy", policy_name(p->mode));
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

static void lease_options(const struct ctl *ctl, struct lease_options *o)
{
	o->force = ctl->force;
	o->wait = ctl->wait;
	o->wait_secs = ctl->wait_secs;
}

/* Weighted interleave on the global table: a lease on the weights of the
 * nodes, written first where they differ (with -w alone, as they are). A
 * job's changes go back once the last job that needs them has ended
 * (lib/weights/baseline.c), unless --keep-weights; without a command
 * nothing ends, and what it writes stays. Returns whether the table is not
 * as it was, so that a watcher (lib/job/watcher.c) must put it back. */
static bool apply_weights(const struct ctl *ctl, struct weights_change *wc)
{
	struct lease_conflict c;
	unsigned node = 0;
	int rc;

	if (ctl->policy.mode != MPOL_WEIGHTED_INTERLEAVE || ctl->policy.task_local)
		return false;
	if (!gw_present()) {
		if (ctl->policy.has_weights)
			no_weighted_interleave();
		return false;	/* the policy call says why */
	}
	lease_options(ctl, &wc->txn.opt);
	wc->txn.keep = ctl->command != NULL;
	wc->txn.no_write = ctl->no_global;
	wc->txn.role = ctl->command && !ctl->keep_weights ? GW_BASELINE_SAVE : GW_BASELINE_REDEFINE;
	rc = weights_apply(&ctl->policy, wc, &c, &node);
	global_settle_report(&wc->txn.settled);
	if (rc < 0)
		global_refused(&wc->txn, rc, &c, node);
	global_lease_report(&wc->txn.lease);
	global_report(&wc->txn);
	/* --no-global-weights writes nothing, not even after the job. */
	return wc->txn.role == GW_BASELINE_SAVE && !ctl->no_global && baseline_writable();
}

/* What the watcher says, on a terminal or in a file: only what the notice
 * did not promise (the kernel's auto weights staying off, a failure). */
static void watcher_said(const struct settle *s)
{
	if (s->state != SETTLE_DONE || s->auto_err)
		global_settle_report(s);
}

/* The job's end puts the table back as it was: a watcher of this process
 * (the job once it execs, or numactl2 as its parent). */
static void start_watcher(void)
{
	static const struct watcher w = { .said = watcher_said };
	int rc = watcher_start(&w);

	if (rc < 0) {
		errno = -rc;
		warn("cannot start the process that puts the global interleave weights back "
		     "when the job ends; the next numactl2 run that changes them will");
	}
}

/* numactl's --verify: the region faulted in, then each page checked. */
static int verify_region(struct ctl *ctl)
{
	unsigned bad = 0;
	int rc;

	shm_touch(&ctl->shm);
	rc = shm_print_verify(stdout, &ctl->shm, ctl->policy.mode, ctl->policy.nodes, &bad);
	ctl->verify_failed |= bad > 0;
	return rc;
}

static void run_shm_actions(struct ctl *ctl)
{
	for (const char *a = ctl->shm_actions; *a; a++) {
		int rc = 0;

		if (*a == SHM_TOUCH)
			shm_touch(&ctl->shm);
		else if (*a == SHM_VERIFY)
			rc = verify_region(ctl);
		else if (*a == SHM_DUMP)
			rc = shm_print_dump(stdout, &ctl->shm);
		else
			rc = shm_print_dump_nodes(stdout, &ctl->shm);
		if (rc < 0)
			shm_failed(&ctl->shm, rc);
	}
}

static void apply_policy(struct ctl *ctl, struct weights_change *wc)
{
	int rc = 0;

	if (ctl->policy.mode == POLICY_NONE)
		return;
	if (ctl->use_shm)
		rc = policy_set_range(&ctl->policy, ctl->shm.addr, ctl->shm.length,
				      ctl->strict ? MPOL_MF_STRICT : 0);
	else
		rc = policy_set_task(&ctl->policy);
	if (rc < 0)
		policy_failed(&ctl->policy, rc, wc);
}

/* SIGPIPE: numactl2's own notices to a stderr whose reader has gone must
 * not end it between a change and the exec (the job would never run, the
 * table never go back); the job gets the disposition numactl2 started with. */
static bool sigpipe_was_ignored;

static void sigpipe_hold(void)
{
	struct sigaction old;

	sigpipe_was_ignored = sigaction(SIGPIPE, NULL, &old) == 0 && old.sa_handler == SIG_IGN;
	signal(SIGPIPE, SIG_IGN);
}

static void sigpipe_restore(void)
{
	if (!sigpipe_was_ignored)
		signal(SIGPIPE, SIG_DFL);
}

static void __attribute__((noreturn)) run_command(const struct ctl *ctl, struct weights_change *wc)
{
	int saved;

	/* Only --dump and --dump-nodes print before the exec. */
	if (ctl->use_shm && fflush(stdout) != 0)
		err(1, "write error");
	sigpipe_restore();
	execvp(ctl->command[0], ctl->command);
	saved = errno;
	signal(SIGPIPE, SIG_IGN);
	undo_weights(wc);
	exec_failed(ctl->command[0], saved, ctl->bare_optional);
}

static void measure(const struct ctl *ctl, struct measurement *m)
{
	bool progress_shown = false;
	struct measure_req req = {
		.nodes = ctl->measure_nodes, .size = ctl->measure_size, .secs = ctl->measure_secs,
		.budget = ctl->measure_budget,
		.progress = isatty(STDERR_FILENO) ? measure_progress_line : NULL,
		.progress_arg = &progress_shown,
	};
	int rc;

	rc = measure_run(&req, m);
	if (rc < 0) {
		errno = -rc;
		err(1, "cannot measure the bandwidth");
	}
}

/* --measure: the bandwidths, the weights they give and the time, on stdout. */
static int measure_only(const struct ctl *ctl)
{
	static struct measurement m;

	measure(ctl, &m);
	measure_print(stdout, &m);
	return close_stdout(0);
}

/* --weights=measured: the run's weights, said on stderr in one line. */
static void measure_weights(struct ctl *ctl)
{
	static struct measurement m;

	measure(ctl, &m);
	fprintf(stderr, "numactl2: measured");
	for (unsigned i = 0; i < m.n; i++)
		fprintf(stderr, "%s node %u %.1f GB/s", i ? "," : "", m.node[i], m.gbps[i]);
	fprintf(stderr, " in %.1f s: weights", m.secs);
	for (unsigned i = 0; i < m.n; i++) {
		ctl->policy.weight[m.node[i]] = m.weight[i];
		fprintf(stderr, "%s%u:%u", i ? "," : " ", m.node[i], m.weight[i]);
	}
	fputc('\n', stderr);
}

static void open_report(struct ctl *ctl, struct report *r)
{
	int rc;

	r->format = ctl->report;
	r->path = ctl->report_file;
	r->out = stderr;
	r->policy = &ctl->policy;
	r->command = ctl->command;
	rc = report_open(r);
	if (rc == -ELOOP)
		errx(1, "cannot open the report file '%s': it is a symbolic link", r->path);
	if (rc == -EINVAL)
		errx(1, "cannot open the report file '%s': not a regular file", r->path);
	if (rc == -EMLINK)
		errx(1, "cannot open the report file '%s': it has more than one link", r->path);
	if (rc == -EPERM)
		errx(1, "cannot open the report file '%s': it is another user's", r->path);
	if (rc < 0) {
		errno = -rc;
		err(1, "cannot open the report file '%s'", r->path);
	}
}

/* What this run wrote to the global table goes back, each node left alone named. */
static void restore_global_weights(struct weights_change *wc)
{
	static struct restore_result res;
	int rc = restore_weights(wc, &res);

	global_restore_report(rc, &res);
	free(res.left);
}

/* The watcher keeps the lease descriptors parked (fdpark.h): not named as a
 * holder while the job runs, and able to end the lease lock at its end. */
static int park_leases(struct weights_change *wc)
{
	struct lease *l = &wc->txn.lease;
	int park = l->span ? fd_park(l->fd, l->span) : -1;

	if (park >= 0)
		for (unsigned i = 0; i < l->span; i++)
			l->fd[i] = l->fd[i] >= 0 ? -2 : -1;
	return park;
}

static void unpark_leases(struct weights_change *wc, int park)
{
	struct lease *l = &wc->txn.lease;

	if (park < 0)
		return;
	for (unsigned i = 0; i < l->span; i++)
		l->fd[i] = l->fd[i] == -2 ? 0 : -1;
	(void)fd_unpark(park, l->fd, l->span);
}

/* The job's descendants and the watcher share this run's lease descriptors
 * (one open file description for each node, with one flock lock): once the
 * job has ended (or never ran) that lock goes, and only another job's lease
 * keeps a weight from going back. (Lease internals: lib/weights should own
 * this.) */
static void end_job_leases(struct weights_change *wc)
{
	const struct lease *l = &wc->txn.lease;

	for (unsigned i = 0; i < l->span; i++)
		if (l->fd[i] >= 0)
			(void)flock(l->fd[i], LOCK_UN);
}

/* In the --report/--restore-weights watcher, once the job has ended: the
 * table as it was before the first job that changed it, unless another job
 * still needs it (table_after_job()). This watcher's own lease descriptors
 * go first; those the job's children kept still count. */
static void table_as_it_was(struct weights_change *wc)
{
	struct settle s;

	lease_drop(&wc->txn.lease);
	(void)table_after_job(&s);
	watcher_said(&s);
}

/* In the watcher, once the job has ended: the report (written before the
 * job's parent sees it end, when traced), then with --restore-weights the
 * table put back. A failed exec is numactl2's to tell and undo. */
static void __attribute__((noreturn)) watch(struct ctl *ctl, struct report *r,
					    struct weights_change *wc, struct job *job)
{
	int park = park_leases(wc);

	if (supervise_watch(job) < 0)
		exit(0);
	if (ctl->report != REPORT_NONE) {
		report_print(r, job);
		report_exit_warnings(r);
		report_finish(r, job);
	}
	supervise_release(job);
	unpark_leases(wc, park);
	if (ctl->restore) {
		end_job_leases(wc);
		restore_global_weights(wc);
	}
	if (wc->txn.role == GW_BASELINE_SAVE)
		table_as_it_was(wc);
	exit(0);
}

/* --report: the job is traced, unless LeakSanitizer runs in it, which
 * refuses to run traced: then it is sampled, and this says so first. */
static enum job_watch watch_kind(const struct ctl *ctl)
{
	if (ctl->report == REPORT_NONE)
		return WATCH_END;
	if (!leaksan_runs(ctl->command, environ))
		return WATCH_TRACE;
	warnx("--report: '%s' runs LeakSanitizer, which does not run traced: its pages are "
	      "sampled while it runs, not read at its end", ctl->command[0]);
	return WATCH_SAMPLE;
}

/* --report and --restore-weights: numactl2 execs the command as always, and
 * a watcher (supervise.c) acts when the job ends. The directory lock is let
 * go first (the leases stay), so other runs are not held up; what this run
 * wrote goes back when the job never ran. */
static void __attribute__((noreturn)) run_watched(struct ctl *ctl, struct report *r,
						  struct weights_change *wc)
{
	static struct job job;
	int saved;

	job.command = ctl->command;
	job.how = watch_kind(ctl);
	if (ctl->report != REPORT_NONE) {
		job.at_exit = report_add_process;
		job.arg = r;
	}
	weights_release(wc);
	switch (supervise_start(&job)) {
	case 1:
		watch(ctl, r, wc, &job);
	case -1:
		end_job_leases(wc);
		restore_global_weights(wc);
		supervise_failed(&job);
	}
	sigpipe_restore();
	execvp(ctl->command[0], ctl->command);
	saved = errno;
	signal(SIGPIPE, SIG_IGN);
	supervise_exec_failed(&job);
	end_job_leases(wc);
	restore_global_weights(wc);
	exec_failed(ctl->command[0], saved, ctl->bare_optional);
}

static int global_op(const struct ctl *ctl)
{
	static struct admin_result res;
	struct lease_options o;
	int rc;

	lease_options(ctl, &o);
	switch (ctl->global_op) {
	case GLOBAL_AUTO:
		rc = admin_auto_weights(&o, &res);
		break;
	case GLOBAL_RESET:
		rc = admin_reset_weights(&o, &res);
		break;
	default:
		rc = admin_set_weights(&ctl->weights, &o, &res);
	}
	rc = global_admin_report(rc, &res, ctl->global_op == GLOBAL_AUTO);
	admin_result_free(&res);
	return rc;
}

int main(int argc, char **argv)
{
	static struct weights_change wc;
	static struct report report;
	static struct ctl ctl;
	bool watch;

	weights_init(&wc);
	cli_parse(&ctl, argc, argv);
	cli_validate(&ctl);
	if (ctl.dry_run)
		return close_stdout(dry_run(&ctl));
	if (ctl.command)
		sigpipe_hold();
	if (ctl.global_op != GLOBAL_NONE)
		return global_op(&ctl);
	if (ctl.hardware)
		return close_stdout(show_hardware(ctl.cpu_compress));
	if (ctl.pid)
		return close_stdout(pid_run(&ctl));
	if (ctl.report != REPORT_NONE)
		open_report(&ctl, &report);
	bind_cpus(&ctl);
	if (ctl.measure)
		return measure_only(&ctl);
	if (ctl.weights_measured)
		measure_weights(&ctl);
	if (ctl.use_shm)
		attach_shm(&ctl.shm);
	/* Weights first: a shared region's policy must not change unless they did. */
	watch = apply_weights(&ctl, &wc);
	apply_policy(&ctl, &wc);
	if (ctl.use_shm)
		run_shm_actions(&ctl);
	if (ctl.show)
		return close_stdout(show_policy());
	if (!ctl.command)
		return close_stdout(ctl.verify_failed);
	if (ctl.report != REPORT_NONE || ctl.restore)
		run_watched(&ctl, &report, &wc);
	if (watch)
		start_watcher();
	run_command(&ctl, &wc);
}

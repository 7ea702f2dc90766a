// SPDX-License-Identifier: GPL-2.0-or-later
/* numactl2 --pid=PID: a running process's policy, weights included, set
 * (a policy given) on every thread of it, or printed (--show) from its main
 * thread, through the kernel series' pidfd calls (policy/remote.c). PID
 * naming a thread other than the main one: that thread alone. Everything
 * is checked before anything changes; a kernel without the calls changes
 * nothing and says so. */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/pid.h"
#include "cli/pidmigrate.h"
#include "cli/prepare.h"
#include "cli/usage.h"
#include "libnumactl2.h"

#define PID_ARG_MAX 4194304	/* the kernel's PID_MAX_LIMIT */

void pid_option(struct ctl *ctl, const char *arg)
{
	unsigned long pid;

	if (ctl->pid)
		usage_error("--pid given twice");
	if (nc2_parse_ulong(arg, PID_ARG_MAX, &pid) < 0 || pid == 0)
		usage_error("invalid --pid: '%s' (a process id, 1-%d)", arg, PID_ARG_MAX);
	ctl->pid = (pid_t)pid;
}

/* The first option given that --pid does not take, or NULL. */
static const char *pid_conflict(const struct ctl *ctl)
{
	if (ctl->hardware)
		return "--hardware";
	if (ctl->use_shm)
		return "--shm/--file";
	if (ctl->cpunodes || ctl->cpus)
		return "--cpunodebind/--physcpubind";
	if (ctl->report != REPORT_NONE || ctl->report_file)
		return "--report";
	if (ctl->restore)
		return "--restore-weights";
	if (ctl->keep_weights)
		return "--keep-weights";
	if (ctl->measure)
		return "--measure";
	if (ctl->dry_run)
		return "--dry-run";
	if (ctl->global_forced)
		return "--global-weights";
	if (ctl->global_op != GLOBAL_NONE)
		return "the global weight options";
	if (ctl->wait || ctl->force)
		return "--wait/--force";
	return NULL;
}

void pid_check(const struct ctl *ctl)
{
	const char *other;

	if (!ctl->pid)
		return;
	if (ctl->command)
		usage_error("--pid changes a running process: it runs no command");
	other = pid_conflict(ctl);
	if (other)
		usage_error("options --pid and %s cannot be combined", other);
	if (ctl->show && ctl->policy.mode != POLICY_NONE)
		usage_error("--pid takes a policy or --show, not both");
	if (!ctl->show && ctl->policy.mode == POLICY_NONE)
		usage_error("--pid needs a policy to set, or --show");
}

/* Read first, whether set or shown (lib/request/pidpolicy.c): it finds a
 * kernel without the calls, a process that is gone or not ours before
 * anything is changed. */
int pid_run(const struct ctl *ctl)
{
	const struct pid_request r = {
		.pid = ctl->pid, .policy = ctl->show ? NULL : &ctl->policy,
		.migrate = ctl->migrate, .out = stdout,
	};

	if (nc2_pid_apply(&r, ctl->error) < 0)
		cli_request_failed(ctl->error);
	return 0;
}

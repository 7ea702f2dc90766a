// SPDX-License-Identifier: GPL-2.0-or-later
/* numactl2 --pid=PID: a running process's policy, weights included, set
 * (a policy given) on every thread of it, or printed (--show) from its main
 * thread, through the kernel series' pidfd calls (policy/remote.c). PID
 * naming a thread other than the main one: that thread alone. Everything
 * is checked before anything changes; a kernel without the calls changes
 * nothing and says so. */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/globalmsg.h"
#include "cli/pid.h"
#include "cli/pidmigrate.h"
#include "cli/usage.h"
#include "libnumactl2.h"

#define PID_ARG_MAX 4194304	/* the kernel's PID_MAX_LIMIT */

void pid_option(struct ctl *ctl, const char *arg)
{
	unsigned long pid;

	if (ctl->pid)
		usage_error("--pid given twice");
	if (parse_ulong(arg, PID_ARG_MAX, &pid) < 0 || pid == 0)
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

static void __attribute__((noreturn)) pid_failed(const struct ctl *ctl, int rc, const char *what)
{
	if (rc == -ENOSYS)
		errx(1, "--pid needs a kernel with set_mempolicy2 and get_mempolicy2, which no "
		     "released Linux has (numactl2(8), KERNELS): this kernel does not list them "
		     "in %s; nothing changed", lib_place(LIB_MPOL2_CALLS));
	if (rc == -EINVAL || rc == -E2BIG)
		errx(1, "--pid=%d: get_mempolicy2 refused the pidfd: this kernel's calls cannot "
		     "act on another process (no MPOL_F_PIDFD), or it is a kernel thread; "
		     "nothing changed", (int)ctl->pid);
	if (rc == -ESRCH)
		errx(1, "--pid=%d: the process has exited; nothing changed", (int)ctl->pid);
	if (rc == -EPERM)
		errx(1, "--pid=%d: not permitted to %s the policy of that process (another "
		     "user's: needs %s); nothing changed", (int)ctl->pid, what,
		     ctl->show ? "CAP_SYS_PTRACE" : "CAP_SYS_PTRACE and CAP_SYS_NICE");
	errno = -rc;
	err(1, "--pid=%d: cannot %s the policy", (int)ctl->pid, what);
}

/* The threads of the process after its main one (already set): an error
 * here leaves some threads changed, and says which. */
static void __attribute__((noreturn)) threads_failed(const struct ctl *ctl,
						     const struct pid_result *res)
{
	if (res->thread) {
		errno = -res->err;
		err(1, "--pid=%d: cannot change the policy of its thread %d (the main "
		    "thread and those set before it have the new one)", (int)ctl->pid,
		    (int)res->thread);
	}
	if (res->err == -EAGAIN)
		errx(1, "--pid=%d: the process kept starting threads (%d passes over "
		     "/proc/%d/task); its newest threads may keep the old policy",
		     (int)ctl->pid, THREADS_MAX_PASSES, (int)ctl->pid);
	pid_failed(ctl, res->err, "change");
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
	struct pid_result res;

	if (pid_apply(&r, &res) == 0)
		return 0;
	switch (res.failed) {
	case PID_OPEN:
		if (res.err == -ESRCH)
			errx(1, "--pid=%d: no such process", (int)ctl->pid);
		/* fall through */
	case PID_READ:
		pid_failed(ctl, res.err, ctl->show ? "read" : "change");
	case PID_PRINT:
		global_leases_unlisted();
	case PID_SET:
		pid_failed(ctl, res.err, "change");
	case PID_THREADS:
		threads_failed(ctl, &res);
	default:
		migrate_failed(ctl, &res);
	}
}

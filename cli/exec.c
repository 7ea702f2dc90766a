// SPDX-License-Identifier: GPL-2.0-or-later
/* How numactl2 ends when it runs a command: the exec's failure as 127 or
 * 126, or the way the supervised job ended (supervise.c). */
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli/exec.h"

void exec_failed(const char *name, int errnum, const char *bare_opt)
{
	if (errnum == ENOENT && bare_opt)
		errx(127, "failed to run '%s': %s (did you mean --%s=%s?)", name, strerror(errnum),
		     bare_opt, name);
	errno = errnum;
	err(errnum == ENOENT ? 127 : 126, "failed to run '%s'", name);
}

void supervise_failed(const struct job *job, const char *bare_opt)
{
	if (job->exec_errno)
		exec_failed(job->command[0], job->exec_errno, bare_opt);
	errno = job->failed_errno;
	err(1, "cannot run '%s' as a child (%s)", job->command[0], job->failed);
}

/* As timeout(1) does: the same signal ends numactl2, so that a shell sees
 * the job's death (bash stops a script whose command died of SIGINT), with
 * core dumps off since the job has written its own. */
void supervise_exit(const struct job *job, int status)
{
	struct rlimit no_core = { 0, 0 };
	sigset_t set;

	if (job->signal) {
		setrlimit(RLIMIT_CORE, &no_core);
		signal(job->signal, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, job->signal);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(job->signal);
	}
	exit(status);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* How numactl2 ends when it runs a command: the exec's failure as 127 or
 * 126, foreseen before anything changes or seen after the exec, or its
 * watcher (supervise.c) that could not be started. */
#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/exec.h"

void exec_failed(const char *name, int errnum, const char *bare_opt)
{
	if (errnum == ENOENT && bare_opt)
		errx(127, "failed to run '%s': %s (did you mean --%s=%s?)", name, strerror(errnum),
		     bare_opt, name);
	errno = errnum;
	err(errnum == ENOENT ? 127 : 126, "failed to run '%s'", name);
}

void exec_check(char **command, char *const envp[], const char *bare_opt)
{
	int rc = prog_exec_error(command[0], envp);

	if (rc < 0)
		exec_failed(command[0], -rc, bare_opt);
}

void supervise_failed(const struct job *job)
{
	errno = job->failed_errno;
	err(1, "cannot start a watcher for '%s' (%s)", job->command[0], job->failed);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* How numactl2 ends when it runs a command: the exec's failure as 127 or
 * 126, foreseen before anything changes or seen after the exec, or its
 * watcher (supervise.c) that could not be started. */
#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/exec.h"
#include "msg/reqerror.h"

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
	int rc = nc2_prog_exec_error(command[0], envp);

	if (rc < 0)
		exec_failed(command[0], -rc, bare_opt);
}

void supervise_failed(const struct nc2_error *e)
{
	char msg[REQ_MSG_MAX];

	msg_error(msg, sizeof(msg), e, NULL);
	errx(1, "%s", msg);
}

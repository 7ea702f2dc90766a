// SPDX-License-Identifier: GPL-2.0-or-later
/* Which jobs the watcher cannot trace as they are. One whose exec gains
 * privilege. The kernel does not grant it
 * to a traced exec whose tracer could not trace the result (LSM_UNSAFE_PTRACE
 * in fs/exec.c): a setuid program run as a user under --report's tracing
 * would run as that user, silently another job. Such a job is sampled
 * instead (supervise.c's WATCH_SAMPLE), never traced. And one that runs
 * under a tracer already (strace, gdb): a process has one tracer. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "job/progload.h"
#include "sysfile/sysfile.h"
#include "libnumactl2.h"

bool nc2_prog_gains_privilege(const char *cmd, char *const envp[])
{
	char path[PATH_MAX];
	struct stat st;

	if (prog_resolve(cmd, envp, path, sizeof(path)) < 0 || stat(path, &st) < 0)
		return false;
	if (st.st_mode & S_ISUID)
		return true;
	/* Set-group-ID without group execute is no set-group-ID to exec. */
	if ((st.st_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
		return true;
	return getxattr(path, "security.capability", NULL, 0) > 0;
}

bool nc2_self_traced(void)
{
	char status[2048];
	const char *t;

	if (sysfile_read("/proc/self/status", status, sizeof(status)) < 0)
		return false;
	t = strstr(status, "\nTracerPid:");
	return t && strtol(t + strlen("\nTracerPid:"), NULL, 10) != 0;
}

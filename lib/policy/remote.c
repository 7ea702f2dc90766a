// SPDX-License-Identifier: GPL-2.0-or-later
/* numactl2 --pid: another process's policy through its pidfd.
 *
 * The kernel series lets set_mempolicy2 and get_mempolicy2 act on the
 * thread of args->pidfd, a thread pidfd (a process's pidfd is EINVAL). A
 * policy is per thread, so a process is retuned through a thread pidfd of
 * each of its threads (remote_set_threads). The new policy
 * is checked when the call is made and installed by the task itself, so
 * its next allocations follow it; the pages it has are not moved. The
 * numbers are those the kernel lists for this build's ABI (mpol2.c): a
 * kernel that lists none has neither call, and nothing is called. */
#include <errno.h>
#include <unistd.h>

#include "libnumactl2.h"
#include "policy/mpol2.h"
#include "policy/remote.h"
#include "policy/threads.h"
#include "syscalls.h"

int remote_open(pid_t tid)
{
	int fd = sys_pidfd_open(tid, PIDFD_THREAD);

	return fd < 0 ? -errno : fd;
}

/* threads_each's visit: P on the thread TID. */
static int set_thread(pid_t tid, const void *p)
{
	int fd = remote_open(tid);
	int rc;

	if (fd < 0)
		return fd;
	rc = mpol2_set_task(fd, p);
	close(fd);
	return rc;
}

int remote_set_threads(pid_t pid, const struct policy *p, pid_t *failed)
{
	return threads_each(pid, pid, set_thread, p, failed);
}

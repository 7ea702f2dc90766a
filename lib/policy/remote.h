/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Another process's policy, through its pidfd (remote.c). */
#ifndef NUMACTL2_REMOTE_H
#define NUMACTL2_REMOTE_H

#include <sys/types.h>

#include "libnumactl2.h"

/* A thread pidfd for the thread TID (PIDFD_THREAD, Linux 6.9; the main
 * thread's TID is its process's PID), or -errno: -ESRCH when there is none.
 * The kernel series takes thread pidfds only: the policy is per thread. */
int remote_open(pid_t tid);

/* P on every thread of process PID but PID itself (set first, through
 * its pidfd, so that a policy the kernel refuses changes nothing), threads
 * started meanwhile included (threads_each). 0, or -errno: -ESRCH the
 * process is gone, -EAGAIN it kept starting threads, or the error of the
 * thread *FAILED, the threads before it changed. */
int remote_set_threads(pid_t pid, const struct policy *p, pid_t *failed);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The policy of another process, set and read through its pidfd with the
 * kernel series' set_mempolicy2/get_mempolicy2 (MPOL_MF_PIDFD, MPOL_F_PIDFD;
 * policy/mpol2.c builds the calls: mpol2_set_task, mpol2_get_task with a
 * pidfd from here): numactl2 --pid. */
#ifndef NUMACTL2_REMOTE_H
#define NUMACTL2_REMOTE_H

#include <sys/types.h>

#include "policy/mpol2.h"
#include "policy/spec.h"

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

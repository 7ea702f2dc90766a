/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The policy of another process, set and read through its pidfd with the
 * kernel series' set_mempolicy2/get_mempolicy2 (MPOL_MF_PIDFD, MPOL_F_PIDFD):
 * numactl2 --pid. */
#ifndef NUMACTL2_REMOTE_H
#define NUMACTL2_REMOTE_H

#include <stdbool.h>
#include <sys/types.h>

#include "policy/mpol2.h"
#include "policy/spec.h"

/* A pidfd for PID (close it), or -errno: -ESRCH when there is none.
 * THREAD: PID is a thread other than its process's main one, whose pidfd
 * (PIDFD_THREAD, Linux 6.9) names that thread alone. */
int remote_open(pid_t pid, bool thread);

/* P becomes the policy of the process of PIDFD, its weights its own (none:
 * it follows the global table). The process installs it when it next
 * returns to user space; pages it has placed stay. 0, or -errno: -EPERM
 * not allowed, -ESRCH exited, -E2BIG (or -EINVAL for the flag) from a
 * kernel whose calls cannot act on another task, -ENOSYS when the kernel
 * does not list the calls at all. */
int remote_set_policy(int pidfd, const struct policy *p);

/* P on every thread of process PID but PID itself (set first, through
 * its pidfd, so that a policy the kernel refuses changes nothing), threads
 * started meanwhile included (threads_each). 0, or -errno: -ESRCH the
 * process is gone, -EAGAIN it kept starting threads, or the error of the
 * thread *FAILED, the threads before it changed. */
int remote_set_threads(pid_t pid, const struct policy *p, pid_t *failed);

/* The policy of the process of PIDFD into S (as mpol2_get_task: S->nodes
 * allocated by the caller, S->weight malloc'd here). The same errors. */
int remote_get_policy(int pidfd, struct mpol2_state *s);

#endif

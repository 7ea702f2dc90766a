/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The threads of a running process (numactl2 --pid): which process a
 * thread id belongs to, and every thread of a process, each visited once
 * while the process may be starting more. */
#ifndef NUMACTL2_THREADS_H
#define NUMACTL2_THREADS_H

#include <sys/types.h>
#include "libnumactl2.h"

/* What threads_each calls for a thread: 0, or -errno. */
typedef int threads_visit_fn(pid_t tid, const void *arg);

/* VISIT(tid, ARG) once for each thread of process PID but SKIP, passing
 * over /proc/PID/task again until a pass finds no thread not yet visited.
 * A VISIT that returns -ESRCH (the thread has exited) is passed over.
 * 0, or -errno: -ESRCH when the process is gone, -EAGAIN when
 * THREADS_MAX_PASSES passes still found new threads, or the first other
 * error of VISIT, its thread's id in *FAILED. */
int threads_each(pid_t pid, pid_t skip, threads_visit_fn *visit, const void *arg,
		 pid_t *failed);

/* The process ("Tgid:" of /proc/TID/status) of the task TID; TID itself
 * when that cannot be read (the task's pidfd then says what it is). */
pid_t threads_tgid(pid_t tid);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The job's watcher (supervise.c), for lib/request/jobrun.c; struct job and
 * supervise_watch() are public (libnumactl2.h). */
#ifndef NUMACTL2_SUPERVISE_H
#define NUMACTL2_SUPERVISE_H

#include "libnumactl2.h"

/* Starts the watcher, before numactl2 execs job->command. Returns 0 in
 * numactl2 (which then execs), 1 in the watcher (which calls
 * supervise_watch()), -1 when no watcher could be started (E's fault
 * JOB_WATCHER says why; nothing is left running). */
int supervise_start(struct job *job, struct nc2_error *e);

/* In numactl2, when the exec failed: the watcher ends without acting. */
void supervise_exec_failed(struct job *job);

/* In the watcher: lets the job's last thread go and waits until the job is
 * gone (its pidfd readable). */
void supervise_release(struct job *job);

#endif

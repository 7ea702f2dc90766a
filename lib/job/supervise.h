/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The job's watcher (supervise.c), for lib/request/jobrun.c; struct job is
 * the library's (made and read through job.c), nc2_supervise_watch() public
 * (libnumactl2.h). */
#ifndef NUMACTL2_SUPERVISE_H
#define NUMACTL2_SUPERVISE_H

#include "libnumactl2.h"

struct job {
	char **command;
	enum job_watch how;
	/* nc2_job_set_hooks() (libnumactl2.h) */
	void (*at_exit)(const struct job_exit *x, void *arg);
	void (*at_sample_started)(pid_t job, void *arg);
	void *arg;
	/* Filled by supervise_start() and nc2_supervise_watch(). */
	pid_t pid;		/* the job: numactl2's own PID */
	pid_t tid;		/* WATCH_TRACE: the thread held in its exit-stop */
	int pidfd;		/* in the watcher: the job's */
	int gate;		/* numactl2: write end, close-on-exec; watcher: read end */
	bool status_known;	/* wait_status holds how the job ended */
	int wait_status;	/* in wait(2)'s format */
	unsigned running;	/* WATCH_TRACE: its children alive at its end */
	bool sampled;		/* WATCH_SAMPLE: at least one sample was read */
};

/* Starts the watcher, before numactl2 execs job->command. Returns 0 in
 * numactl2 (which then execs), 1 in the watcher (which calls
 * nc2_supervise_watch()), -1 when no watcher could be started (E's fault
 * JOB_WATCHER says why; nothing is left running). */
int supervise_start(struct job *job, struct nc2_error *e);

/* In numactl2, when the exec failed: the watcher ends without acting. */
void supervise_exec_failed(struct job *job);

/* In the watcher: lets the job's last thread go and waits until the job is
 * gone (its pidfd readable). */
void supervise_release(struct job *job);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What must act when the job ends (--report, --restore-weights): a watcher
 * process, while numactl2 execs the command itself as it does without
 * them. The job keeps numactl2's PID, its parent and its process group, and
 * gets its signals directly; the watcher is neither its child nor in its
 * process group or session. */
#ifndef NUMACTL2_SUPERVISE_H
#define NUMACTL2_SUPERVISE_H

#include <stdbool.h>
#include <sys/types.h>

/* The job's own process with its last thread in its exit-stop (traced), or
 * as it was at the last sample (sampled). */
struct job_exit {
	pid_t pid;		/* the process (thread group) */
	pid_t tid;		/* that thread: /proc/TID/numa_maps is still there */
	int exit_status;	/* that thread's, in wait(2)'s format (traced only) */
	bool main;		/* always: the process numactl2 became */
	bool sample;		/* a sample taken while it runs, not its exit-stop */
};

enum job_watch {
	WATCH_END,	/* only its end (pidfd): --restore-weights */
	WATCH_TRACE,	/* its threads' exit-stops (ptrace): --report */
	WATCH_SAMPLE,	/* samples while it runs: --report for a job ptrace would break */
};

struct job {
	char **command;
	enum job_watch how;
	/* WATCH_TRACE: called at the exit-stop of the last thread of the
	 * job's process, its address space still there; WATCH_SAMPLE: at each
	 * sample (x->sample). */
	void (*at_exit)(const struct job_exit *x, void *arg);
	void *arg;
	/* Filled by supervise_start() and supervise_watch(). */
	pid_t pid;		/* the job: numactl2's own PID */
	pid_t tid;		/* WATCH_TRACE: the thread held in its exit-stop */
	int pidfd;		/* in the watcher: the job's */
	int gate;		/* numactl2: write end, close-on-exec; watcher: read end */
	bool status_known;	/* wait_status holds how the job ended */
	int wait_status;	/* in wait(2)'s format */
	unsigned running;	/* WATCH_TRACE: its children alive at its end */
	bool sampled;		/* WATCH_SAMPLE: at least one sample was read */
	const char *failed;	/* the call that failed, or NULL */
	int failed_errno;
};

/* Starts the watcher, before numactl2 execs job->command. Returns 0 in
 * numactl2 (which then execs), 1 in the watcher (which calls
 * supervise_watch()), -1 when no watcher could be started (job->failed
 * says why; nothing is left running). */
int supervise_start(struct job *job);

/* In numactl2, when the exec failed: the watcher ends without acting. */
void supervise_exec_failed(struct job *job);

/* In the watcher: waits until the job has ended. Returns 0 once it ran and
 * ended (WATCH_TRACE: held in its last exit-stop until supervise_release()),
 * -1 when the exec failed. */
int supervise_watch(struct job *job);

/* In the watcher: lets the job's last thread go and waits until the job is
 * gone (its pidfd readable). */
void supervise_release(struct job *job);

#endif

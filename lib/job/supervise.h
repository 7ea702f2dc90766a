/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running the command as a child, for the options that must act when it
 * ends (--report, --restore-weights). Without them numactl2 execs the
 * command itself, as numactl does. */
#ifndef NUMACTL2_SUPERVISE_H
#define NUMACTL2_SUPERVISE_H

#include <stdbool.h>
#include <sys/types.h>

/* One process of the job (the command, or what it forked or cloned, as it
 * is after its last exec) with its last thread in its exit-stop. */
struct job_exit {
	pid_t pid;		/* the process (thread group) */
	pid_t tid;		/* that thread: /proc/TID/numa_maps is still there */
	int exit_status;	/* that thread's, in wait(2)'s format */
	bool main;		/* the process numactl2 started */
};

struct job {
	char **command;
	/* Called once for each process of the job, at the exit-stop of its
	 * last thread, the address space still there (not for a vfork child
	 * that ends before its exec: its pages are its parent's).
	 * NULL: the job is not traced. */
	void (*at_exit)(const struct job_exit *x, void *arg);
	void *arg;
	/* Filled by supervise_run(). */
	pid_t pid;
	int wait_status;	/* how the job ended, in wait(2)'s format */
	int signal;		/* the signal that killed the job, or 0 */
	unsigned running;	/* its processes that outlived it (traced: not reported) */
	int exec_errno;		/* the exec failed with this errno, or 0 */
	const char *failed;	/* else the call that failed before the exec */
	int failed_errno;
};

/* Runs job->command and waits for it. SIGINT, SIGTERM, SIGHUP and SIGQUIT
 * sent to numactl2 go on to the job; stdio is the job's own. Returns its exit
 * status, 128 + the signal that killed it, or -1 when it never ran (then
 * exec_errno or failed says why). The job has ended when the process it
 * started has ended (all of its threads); processes it left running go on
 * on their own. */
int supervise_run(struct job *job);

#endif

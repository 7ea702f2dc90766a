// SPDX-License-Identifier: GPL-2.0-or-later
/* numactl2 as the command's parent: fork, exec in the child, forward the
 * signals a job controller sends, and end the way the job ended.
 *
 * The address spaces are seen before teardown with ptrace: the child is
 * seized (PTRACE_SEIZE, so group-stops and the exec stay invisible to the
 * job) with the options that follow what it forks, vforks and clones, and
 * stop each thread at its exit. A process is one thread group (tracees.c):
 * its pages are read at the exit-stop of its last thread, through that
 * thread's /proc/TID (the leader's is empty once the leader has exited).
 * A new tracee may stop before its creator reports it; it is kept in that
 * first stop until then, so that a vfork child is known for one before it
 * runs. A pidfd names the child, so a forwarded signal cannot reach a
 * recycled pid. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "job/supervise.h"
#include "job/tracees.h"
#include "syscalls.h"

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NFORWARDED (sizeof(forwarded) / sizeof(forwarded[0]))

static volatile int job_pidfd = -1;

/* A signal the terminal sent reached the whole foreground process group,
 * the job included; sending it again would deliver it twice. */
static void forward(int sig, siginfo_t *info, void *ctx)
{
	int saved = errno;

	(void)ctx;
	if (info->si_code != SI_KERNEL && job_pidfd >= 0)
		(void)sys_pidfd_send_signal(job_pidfd, sig, NULL, 0);
	errno = saved;
}

/* A signal numactl2 was started with ignored stays ignored, by numactl2
 * and (through exec) by the job. */
static void catch_forwarded(void)
{
	struct sigaction sa = { .sa_sigaction = forward, .sa_flags = SA_SIGINFO | SA_RESTART };
	struct sigaction old;

	for (size_t i = 0; i < NFORWARDED; i++) {
		if (sigaction(forwarded[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(forwarded[i], &sa, NULL);
	}
}

static void block_forwarded(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < NFORWARDED; i++)
		sigaddset(&set, forwarded[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* The child waits at the gate until the parent has seized it, then execs;
 * a failed exec sends its errno back on a close-on-exec pipe, and the
 * child ends: the library's one _exit, in the forked child only (kept out
 * of line, so that test/libpurity.bats sees it here and nowhere else). */
static void __attribute__((noreturn, noinline)) child(char **command, const sigset_t *mask,
						      int gate, int report)
{
	char c;
	int e;

	sigprocmask(SIG_SETMASK, mask, NULL);
	while (read(gate, &c, 1) < 0 && errno == EINTR)
		;
	execvp(command[0], command);
	e = errno;
	(void)!write(report, &e, sizeof(e));
	_exit(127);
}

static int fail(struct job *job, const char *what)
{
	job->failed = what;
	job->failed_errno = errno;
	return -1;
}

#define TRACE_OPTIONS (PTRACE_O_TRACEEXIT | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | \
		       PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC)

/* What the wait loop knows: the job's threads, and whether it ran at all
 * (a failed exec's exit-stop is not the job's). */
struct trace {
	struct job *job;
	struct tracees ts;
	bool ran;
};

/* A PTRACE_EVENT_STOP: a group-stop is kept with PTRACE_LISTEN, so that
 * the job stays stopped until SIGCONT; any other (a new tracee's first
 * stop) goes on. */
static void resume_event_stop(pid_t tid, int sig)
{
	bool group_stop = sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;

	ptrace(group_stop ? PTRACE_LISTEN : PTRACE_CONT, tid, 0, 0);
}

static void release_held(struct tracee *e)
{
	e->held = false;
	resume_event_stop(e->tid, e->stopsig);
}

static void event_stop(struct trace *tr, pid_t tid, int sig)
{
	struct tracee *e = tracees_add(&tr->ts, tid);

	if (e && !e->announced) {
		e->held = true;
		e->stopsig = sig;
		return;
	}
	resume_event_stop(tid, sig);
}

/* A fork, vfork or clone: the new task is the job's; a vfork child shares
 * its parent's pages until it execs. */
static void new_task(struct trace *tr, pid_t parent, int event)
{
	unsigned long msg = 0;
	struct tracee *e = NULL;

	if (ptrace(PTRACE_GETEVENTMSG, parent, 0, &msg) == 0)
		e = tracees_add(&tr->ts, (pid_t)msg);
	if (e) {
		e->announced = true;
		e->borrowed = event == PTRACE_EVENT_VFORK && !e->execed;
		if (e->held)
			release_held(e);
	}
	ptrace(PTRACE_CONT, parent, 0, 0);
}

/* The pid stays; a thread that execs takes its leader's, the leader having
 * had its exit-stop and leaving no death to wait for. */
static void exec_stop(struct trace *tr, pid_t tid)
{
	unsigned long former = 0;
	struct tracee *e;

	if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &former) == 0 && (pid_t)former != tid)
		tracees_remove(&tr->ts, (pid_t)former);
	e = tracees_add(&tr->ts, tid);
	if (e) {
		e->exited = e->borrowed = false;
		e->execed = true;
	}
	ptrace(PTRACE_CONT, tid, 0, 0);
}

static void exit_stop(struct trace *tr, pid_t tid)
{
	struct tracee *e = tracees_add(&tr->ts, tid);
	struct job *job = tr->job;
	unsigned long msg = 0;

	if (e) {
		e->exited = true;
		if (tr->ran && job->at_exit && !e->borrowed && tracees_last_thread(&tr->ts, e->tgid) &&
		    ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg) == 0) {
			struct job_exit x = { .pid = e->tgid, .tid = tid, .exit_status = (int)msg,
					      .main = e->tgid == job->pid };

			job->at_exit(&x, job->arg);
		}
	}
	ptrace(PTRACE_CONT, tid, 0, 0);
}

/* The job's signals go back to it (signal-delivery-stops). */
static void stopped(struct trace *tr, pid_t tid, int st)
{
	switch (st >> 16) {
	case PTRACE_EVENT_EXIT:
		exit_stop(tr, tid);
		break;
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE:
		new_task(tr, tid, st >> 16);
		break;
	case PTRACE_EVENT_EXEC:
		exec_stop(tr, tid);
		break;
	case PTRACE_EVENT_STOP:
		event_stop(tr, tid, WSTOPSIG(st));
		break;
	default:
		ptrace(PTRACE_CONT, tid, 0, (void *)(long)WSTOPSIG(st));
	}
}

/* A task of the job other than its first ended. A creator killed before it
 * could report a new task leaves that task held: let it go. */
static void ended(struct trace *tr, pid_t tid)
{
	tracees_remove(&tr->ts, tid);
	for (size_t i = 0; i < tr->ts.n; i++)
		if (tr->ts.t[i].held && !tr->ts.t[i].announced)
			release_held(&tr->ts.t[i]);
}

/* Until the job's first process ends; its status, or 128 + its signal. */
static int wait_job(struct trace *tr)
{
	struct job *job = tr->job;
	pid_t tid;
	int st;

	for (;;) {
		tid = waitpid(-1, &st, __WALL);
		if (tid < 0 && errno == EINTR)
			continue;
		if (tid < 0)
			return fail(job, "waitpid");
		if (WIFSTOPPED(st)) {
			stopped(tr, tid, st);
			continue;
		}
		if (tid != job->pid) {
			ended(tr, tid);
			continue;
		}
		job->wait_status = st;
		job->running = tracees_running(&tr->ts, job->pid);
		if (WIFEXITED(st))
			return WEXITSTATUS(st);
		job->signal = WTERMSIG(st);
		return 128 + job->signal;
	}
}

/* Opens the gate once the child is traced (when it is to be); returns
 * whether the exec succeeded, with its errno in job->exec_errno if not. */
static int release(struct job *job, int gate, int report)
{
	ssize_t n;
	int e;

	if (job->at_exit && ptrace(PTRACE_SEIZE, job->pid, 0, TRACE_OPTIONS) < 0) {
		fail(job, "ptrace");
		kill(job->pid, SIGKILL);
		close(gate);
		return -1;
	}
	close(gate);
	while ((n = read(report, &e, sizeof(e))) < 0 && errno == EINTR)
		;
	if (n == (ssize_t)sizeof(e))
		job->exec_errno = e;
	return 0;
}

static int start(struct job *job, int gate[2], int report[2])
{
	sigset_t mask;

	catch_forwarded();
	block_forwarded(&mask);
	fflush(NULL);
	job->pid = fork();
	if (job->pid == 0) {
		close(gate[1]);
		close(report[0]);
		child(job->command, &mask, gate[0], report[1]);
	}
	if (job->pid > 0)
		job_pidfd = sys_pidfd_open(job->pid, 0);
	sigprocmask(SIG_SETMASK, &mask, NULL);
	close(gate[0]);
	close(report[1]);
	if (job->pid < 0) {
		close(gate[1]);
		close(report[0]);
		return fail(job, "fork");
	}
	return 0;
}

int supervise_run(struct job *job)
{
	struct trace tr = { .job = job };
	int gate[2], report[2];
	int rc, status;
	struct tracee *first;

	job->signal = job->exec_errno = 0;
	job->running = 0;
	job->failed = NULL;
	if (sys_pipe2(gate, O_CLOEXEC) < 0)
		return fail(job, "pipe");
	if (sys_pipe2(report, O_CLOEXEC) < 0) {
		close(gate[0]);
		close(gate[1]);
		return fail(job, "pipe");
	}
	if (start(job, gate, report) < 0)
		return -1;
	first = tracees_add(&tr.ts, job->pid);
	if (first)
		first->announced = true;
	rc = release(job, gate[1], report[0]);
	close(report[0]);
	tr.ran = rc == 0 && !job->exec_errno;
	status = wait_job(&tr);
	tracees_free(&tr.ts);
	if (rc < 0 || job->exec_errno)
		return -1;
	return status;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The watcher (struct job, in libnumactl2.h). numactl2 forks, the child calls setsid() and
 * forks the watcher, and ends: the watcher is nobody's child that the job
 * could wait() for, and in a session of its own, so that no signal sent to
 * the job's process group or terminal reaches it. It inherits a pidfd of
 * numactl2 (taken before the fork, so it names no recycled PID), and
 * numactl2 waits on a pipe until the watcher is ready before it execs.
 *
 * WATCH_TRACE seizes the job (PTRACE_SEIZE: group-stops and the exec stay
 * invisible to it) with exit-stops for its own threads only
 * (PTRACE_O_TRACECLONE, not fork or vfork): what the job starts is not
 * traced, so that a job may trace its own children (strace -f, gdb); it is
 * sampled between the job's stops instead (at_sample_started). The
 * last thread's exit-stop is held until supervise_release(), so that the
 * job's parent sees it end only once the watcher has acted. With Yama's
 * ptrace_scope 1 the watcher is not the job's ancestor: numactl2 names it
 * with PR_SET_PTRACER until it is attached, and then names none again. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "error/error.h"
#include "job/procstat.h"
#include "job/supervise.h"
#include "job/tracees.h"
#include "libnumactl2.h"
#include "policy/threads.h"
#include "syscalls.h"

#define TRACE_OPTIONS (PTRACE_O_TRACEEXIT | PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC)

/* The first sample as soon as the exec is done (a short job may end before
 * the next), then further apart, up to SUPERVISE_SAMPLE_MS. */
#define SAMPLE_FIRST_MS 10

static int next_period(int ms)
{
	return ms * 2 < SUPERVISE_SAMPLE_MS ? ms * 2 : SUPERVISE_SAMPLE_MS;
}

/* What the job started, read (job->at_sample_started), never traced. */
static void sample_started(const struct job *job)
{
	if (job->at_sample_started)
		job->at_sample_started(job->pid, job->arg);
}

/* JOB_WATCHER: the call WHAT failed with errno. */
static int fail(const struct job *job, struct nc2_error *e, const char *what)
{
	e->call = what;
	return error_set_name(e, JOB_WATCHER, errno, job->command[0]);
}

static ssize_t read_full(int fd, void *buf, size_t len)
{
	ssize_t n;

	while ((n = read(fd, buf, len)) < 0 && errno == EINTR)
		;
	return n;
}

/* The middle process: the watcher's parent for an instant. Its _exit is
 * the library's one (test/libpurity.bats), in a forked child only. */
static void __attribute__((noinline)) middle(void)
{
	pid_t w;

	setsid();
	w = fork();
	if (w != 0)
		_exit(w < 0);
}

/* A watcher that could not be made ready ends here, having done nothing. */
static void __attribute__((noreturn, noinline)) watcher_quit(void)
{
	_exit(0);
}

/* The watcher's own state: output nobody reads, and stdin and stdout are
 * the job's alone (a reader of the job's stdout sees its end at the job's).
 * SIGPIPE ignored: stderr may be a pipe whose reader has gone. */
static void watcher_detach(void)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		close(null);
	}
	(void)sigaction(SIGPIPE, &(struct sigaction){ .sa_handler = SIG_IGN }, NULL);
}

/* In the watcher: says its PID, waits for numactl2's go, attaches when
 * tracing, and says how that went. */
static void watcher_ready(struct job *job, int ready)
{
	pid_t self = getpid();
	int e = 0;
	char c;

	watcher_detach();
	if (write(ready, &self, sizeof(self)) != (ssize_t)sizeof(self) ||
	    read_full(job->gate, &c, 1) != 1)
		watcher_quit();
	if (job->how == WATCH_TRACE && ptrace(PTRACE_SEIZE, job->pid, 0, TRACE_OPTIONS) < 0)
		e = errno ? errno : EPERM;
	(void)!write(ready, &e, sizeof(e));
	close(ready);
	if (e)
		watcher_quit();
}

/* In numactl2: lets the watcher attach, and waits until it has. */
static int handshake(struct job *job, int ready, struct nc2_error *e)
{
	pid_t w;
	int got;

	if (read_full(ready, &w, sizeof(w)) != (ssize_t)sizeof(w)) {
		errno = EAGAIN;
		return fail(job, e, "fork");
	}
	if (job->how == WATCH_TRACE)
		(void)prctl(PR_SET_PTRACER, (unsigned long)w, 0, 0, 0);
	if (write(job->gate, "g", 1) != 1)
		return fail(job, e, "write");
	if (read_full(ready, &got, sizeof(got)) != (ssize_t)sizeof(got))
		got = EPERM;
	if (job->how == WATCH_TRACE)
		(void)prctl(PR_SET_PTRACER, 0UL, 0, 0, 0);
	errno = got;
	return got ? fail(job, e, "ptrace") : 0;
}

static void close_pair(int p[2])
{
	close(p[0]);
	close(p[1]);
}

/* The watcher's end: gate and pidfd kept, numactl2's ends closed. */
static int become_watcher(struct job *job, int gate[2], int ready[2])
{
	close(gate[1]);
	close(ready[0]);
	job->gate = gate[0];
	middle();
	watcher_ready(job, ready[1]);
	return 1;
}

static int start_middle(struct job *job, int gate[2], int ready[2], struct nc2_error *e)
{
	pid_t mid;
	int rc;

	fflush(NULL);
	mid = fork();
	if (mid == 0)
		return become_watcher(job, gate, ready);
	close(gate[0]);
	close(ready[1]);
	job->gate = gate[1];
	if (mid < 0) {
		fail(job, e, "fork");
		rc = -1;
	} else {
		while (waitpid(mid, NULL, 0) < 0 && errno == EINTR)
			;
		rc = handshake(job, ready[0], e);
	}
	close(ready[0]);
	close(job->pidfd);
	job->pidfd = -1;
	if (rc < 0)
		close(job->gate);
	return rc;
}

int supervise_start(struct job *job, struct nc2_error *e)
{
	int gate[2], ready[2];

	job->pid = getpid();
	job->status_known = job->sampled = false;
	job->running = 0;
	job->pidfd = sys_pidfd_open(job->pid, 0);
	if (job->pidfd < 0)
		return fail(job, e, "pidfd_open");
	if (pipe2(gate, O_CLOEXEC) < 0) {
		close(job->pidfd);
		return fail(job, e, "pipe");
	}
	if (pipe2(ready, O_CLOEXEC) < 0) {
		close_pair(gate);
		close(job->pidfd);
		return fail(job, e, "pipe");
	}
	return start_middle(job, gate, ready, e);
}

/* Traced, numactl2 must not stay so while it says why and exits (its own
 * LeakSanitizer, in the ASan build, refuses to run traced): a SIGCHLD to
 * itself (ignored by default, and shown to a tracer even when ignored) stops
 * it, and the watcher, seeing the byte, detaches before it goes on. */
void supervise_exec_failed(struct job *job)
{
	(void)!write(job->gate, "x", 1);
	close(job->gate);
	if (job->how == WATCH_TRACE)
		raise(SIGCHLD);
}

/* What the wait loop knows: the job's threads, and whether it ran at all
 * (numactl2's exit-stop after a failed exec is not the job's). */
struct trace {
	struct job *job;
	struct tracees ts;
	bool ran;
	bool held;
	/* Between the stops, what the job started is sampled: SIGCHLD (a
	 * stop's) is blocked and waited for until the next sample is due. */
	sigset_t chld;
	long long due_ms;	/* CLOCK_MONOTONIC */
	int period_ms;
};

/* A PTRACE_EVENT_STOP: a group-stop is kept with PTRACE_LISTEN, so that
 * the job stays stopped until SIGCONT; any other goes on. A new task that is
 * not one of the job's threads (a clone(2) without CLONE_THREAD whose exit
 * signal is not SIGCHLD) is let go: what the job starts is not traced. */
static void event_stop(struct trace *tr, pid_t tid, int sig)
{
	bool group_stop = sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;

	if (!tracees_find(&tr->ts, tid) && threads_tgid(tid) != tr->job->pid) {
		ptrace(PTRACE_DETACH, tid, 0, 0);
		return;
	}
	tracees_add(&tr->ts, tid);
	ptrace(group_stop ? PTRACE_LISTEN : PTRACE_CONT, tid, 0, 0);
}

/* A new thread is known from its creator's event, before it can stop, so
 * that the last thread is never taken for the last too soon. */
static void new_thread(struct trace *tr, pid_t tid)
{
	unsigned long msg = 0;

	if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg) == 0 && threads_tgid((pid_t)msg) == tr->job->pid)
		tracees_add(&tr->ts, (pid_t)msg);
	ptrace(PTRACE_CONT, tid, 0, 0);
}

/* The PID stays; a thread that execs takes its leader's, the leader having
 * had its exit-stop and leaving no death to wait for. */
static void exec_stop(struct trace *tr, pid_t tid)
{
	unsigned long former = 0;
	struct tracee *e;

	if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &former) == 0 && (pid_t)former != tid)
		tracees_remove(&tr->ts, (pid_t)former);
	e = tracees_add(&tr->ts, tid);
	if (e)
		e->exited = false;
	tr->ran = true;
	ptrace(PTRACE_CONT, tid, 0, 0);
}

/* The last thread's exit-stop is held: the job's end, its pages still there. */
static void exit_stop(struct trace *tr, pid_t tid)
{
	struct tracee *e = tracees_add(&tr->ts, tid);
	struct job *job = tr->job;
	unsigned long msg = 0;

	if (e)
		e->exited = true;
	if (!tr->ran || !tracees_last_thread(&tr->ts, job->pid) ||
	    ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg) < 0) {
		ptrace(PTRACE_CONT, tid, 0, 0);
		return;
	}
	job->tid = tid;
	job->wait_status = (int)msg;
	job->status_known = true;
	job->running = proc_children(job->pid, NULL, NULL);
	sample_started(job);
	if (job->at_exit) {
		struct job_exit x = { .pid = job->pid, .tid = tid, .exit_status = (int)msg,
				      .main = true };

		job->at_exit(&x, job->arg);
	}
	tr->held = true;
}

/* The job's signals go back to it (signal-delivery-stops). */
static void stopped(struct trace *tr, pid_t tid, int st)
{
	switch (st >> 16) {
	case PTRACE_EVENT_EXIT:
		exit_stop(tr, tid);
		break;
	case PTRACE_EVENT_CLONE:
		new_thread(tr, tid);
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

/* Has numactl2 said on the gate that its exec failed? */
static bool gate_says_exec_failed(const struct job *job)
{
	struct pollfd p = { .fd = job->gate, .events = POLLIN };
	char c;

	return poll(&p, 1, 0) == 1 && read_full(job->gate, &c, 1) == 1;
}

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Waits for a stop's SIGCHLD until the next sample is due, and takes the
 * sample when it is. */
static void wait_or_sample(struct trace *tr)
{
	long long left = tr->due_ms - now_ms();

	if (left > 0) {
		struct timespec t = { .tv_sec = left / 1000, .tv_nsec = left % 1000 * 1000000 };

		if (sigtimedwait(&tr->chld, NULL, &t) >= 0 || errno != EAGAIN)
			return;
	}
	sample_started(tr->job);
	tr->period_ms = next_period(tr->period_ms);
	tr->due_ms = now_ms() + tr->period_ms;
}

/* The next stop or end of a traced task, as waitpid(2) returns it; what
 * the job started is sampled in between, when asked for. */
static pid_t next_stop(struct trace *tr, int *st)
{
	pid_t tid;

	if (!tr->job->at_sample_started)
		return waitpid(-1, st, __WALL);
	while ((tid = waitpid(-1, st, __WALL | WNOHANG)) == 0)
		wait_or_sample(tr);
	return tid;
}

/* SIGCHLD blocked, at its default (not ignored: a tracer that ignores it
 * is sent none), so that a stop's stays pending for sigtimedwait(). */
static void trace_start(struct trace *tr, struct job *job, sigset_t *old)
{
	tr->job = job;
	tr->period_ms = SAMPLE_FIRST_MS;
	tr->due_ms = now_ms() + tr->period_ms;
	sigemptyset(&tr->chld);
	sigaddset(&tr->chld, SIGCHLD);
	(void)sigaction(SIGCHLD, &(struct sigaction){ .sa_handler = SIG_DFL }, NULL);
	sigprocmask(SIG_BLOCK, &tr->chld, old);
	tracees_add(&tr->ts, job->pid);
}

/* Until the job's last thread is held in its exit-stop, or the job has
 * gone without one (its wait status is then the tracer's to read). */
static int trace_job(struct job *job)
{
	struct trace tr = { 0 };
	sigset_t old;
	pid_t tid;
	int st;

	trace_start(&tr, job, &old);
	while (!tr.held) {
		tid = next_stop(&tr, &st);
		if (tid < 0 && errno == EINTR)
			continue;
		if (tid < 0)
			break;
		if (WIFSTOPPED(st) && !tr.ran && tid == job->pid && st >> 16 == 0 &&
		    gate_says_exec_failed(job)) {
			ptrace(PTRACE_DETACH, tid, 0, 0);
			break;
		}
		if (WIFSTOPPED(st)) {
			stopped(&tr, tid, st);
			continue;
		}
		tracees_remove(&tr.ts, tid);
		if (tid == job->pid && tr.ran) {
			job->wait_status = st;
			job->status_known = true;
		}
		if (tid == job->pid)
			break;
	}
	tracees_free(&tr.ts);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return tr.ran ? 0 : -1;
}

/* Whether the job's pidfd says it has ended, waiting up to ms (-1: for
 * ever). */
static bool ended(const struct job *job, int ms)
{
	struct pollfd p = { .fd = job->pidfd, .events = POLLIN };

	while (poll(&p, 1, ms) < 0 && errno == EINTR)
		;
	return p.revents != 0;
}

/* Untraced: the gate closes at the exec; a byte on it says the exec failed. */
static int wait_exec(struct job *job)
{
	char c;

	return read_full(job->gate, &c, 1) == 1 ? -1 : 0;
}

/* Untraced, once the pidfd says the job ended: its status while it is a
 * zombie still (its parent may have reaped it already: then unknown). */
static void untraced_status(struct job *job, unsigned long long start)
{
	unsigned long long now = 0;
	char state = 0;
	int code;

	if (proc_stat_read(job->pid, &state, &now, &code) == 0 && now == start && state == 'Z') {
		job->wait_status = code;
		job->status_known = true;
	}
}

/* WATCH_SAMPLE: a sample of the job as it runs, taken only while the
 * pidfd says it is still the job. */
static void sample(struct job *job)
{
	struct job_exit x = { .pid = job->pid, .tid = job->pid, .main = true, .sample = true };

	if (job->at_exit && !ended(job, 0)) {
		job->at_exit(&x, job->arg);
		job->sampled = true;
	}
	sample_started(job);
}

static void watch_untraced(struct job *job)
{
	unsigned long long start = 0;
	char state;
	int code, ms = SAMPLE_FIRST_MS;

	(void)proc_stat_read(job->pid, &state, &start, &code);
	if (job->how == WATCH_SAMPLE) {
		sample(job);
		while (!ended(job, ms)) {
			sample(job);
			ms = next_period(ms);
		}
	} else {
		(void)ended(job, -1);
	}
	untraced_status(job, start);
}

int nc2_supervise_watch(struct job *job)
{
	int rc;

	if (job->how == WATCH_TRACE) {
		rc = trace_job(job);
		close(job->gate);
		return rc;
	}
	rc = wait_exec(job);
	close(job->gate);
	if (rc < 0)
		return -1;
	watch_untraced(job);
	return 0;
}

/* After the held exit-stop: every stop of what is still traced goes on
 * (a thread whose first stop came late), until the job is gone. */
static void drain(struct job *job)
{
	pid_t tid;
	int st;

	ptrace(PTRACE_CONT, job->tid, 0, 0);
	for (;;) {
		tid = waitpid(-1, &st, __WALL);
		if (tid < 0 && errno == EINTR)
			continue;
		if (tid < 0 || (tid == job->pid && !WIFSTOPPED(st)))
			return;
		if (WIFSTOPPED(st) && st >> 16 == 0)
			ptrace(PTRACE_CONT, tid, 0, (void *)(long)WSTOPSIG(st));
		else if (WIFSTOPPED(st))
			ptrace(PTRACE_CONT, tid, 0, 0);
	}
}

void supervise_release(struct job *job)
{
	if (job->how == WATCH_TRACE && job->tid)
		drain(job);
	job->tid = 0;
	(void)ended(job, -1);
}

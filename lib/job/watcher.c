// SPDX-License-Identifier: GPL-2.0-or-later
/* The watcher (this file owns it): once the job has ended, the global
 * table goes back as it was (table_after_job(), lib/weights/settle.c),
 * while numactl2 execs the job as it always has: the job keeps numactl2's
 * PID, gets its signals directly and has no new parent.
 *
 * Called just before the exec, watcher_start() takes a pidfd of this very
 * process (which becomes the job) and forks twice: the middle process
 * starts a session of its own and ends at once, and numactl2 reaps it
 * before the exec, so the job never has a child it did not make, and the
 * watcher is in neither its process group nor its session (a signal to
 * either, or a hangup, does not reach it). The watcher closes every
 * descriptor it inherited (the lease descriptors, the table's lock, the
 * pipes the caller may read to their end: `$(numactl2 ...)` must not wait
 * for it) and has /dev/null for stdio, but for a stderr that is a terminal
 * or a file: there the front end's w->said() says what it did.
 *
 * It waits for the pidfd to be readable (the job's last thread has ended:
 * exited, killed, SIGKILLed), then settles the table. While other live
 * jobs still need the weights, it waits for them as well, by their pidfds,
 * and looks again at least every RECHECK_MS (a holder's PID reused before
 * its pidfd was opened would otherwise keep it waiting), since a holder
 * of another user could not put the table back itself. SIGTERM, SIGINT,
 * SIGHUP or SIGQUIT (systemd stopping a unit signals every process of its
 * cgroup) do not stop it before the job has ended; after that they end its
 * wait for others. Killed outright, it leaves the table to the next run
 * that takes the table's lock (txn.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "job/watcher.h"
#include "weights/settle.h"
#include "syscalls.h"

#define RECHECK_MS 30000
#define PIDFD_SLOT 3

static const int stop_signals[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT };

/* The signals that would end it come through a descriptor instead. */
static int signal_fd(void)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(&set, stop_signals[i]);
	sigprocmask(SIG_SETMASK, &set, NULL);
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

/* stderr stays where numactl2's went when nobody waits for its end there:
 * a terminal or a regular file, never a pipe or a socket. */
static bool stderr_kept(void)
{
	struct stat st;

	return fstat(STDERR_FILENO, &st) == 0 &&
	       (S_ISREG(st.st_mode) || (S_ISCHR(st.st_mode) && isatty(STDERR_FILENO)));
}

/* Nothing inherited but the job's pidfd (moved to PIDFD_SLOT) and maybe
 * stderr, the rest of stdio on /dev/null, no directory held. Returns the
 * pidfd or -1. */
static int shed(int pidfd)
{
	bool keep = stderr_kept();
	int null;

	if (pidfd != PIDFD_SLOT && (dup2(pidfd, PIDFD_SLOT) < 0 || close(pidfd) < 0))
		return -1;
	if (sys_close_range(PIDFD_SLOT + 1, ~0U, 0) < 0)
		return -1;
	null = open("/dev/null", O_RDWR);
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || (!keep && dup2(null, 2) < 0))
		return -1;
	if (null > 2)
		close(null);
	(void)!chdir("/");
	return PIDFD_SLOT;
}

/* Until one of FDS is readable (or TIMEOUT ms pass); a stop signal read
 * from SIGFD sets *stop. */
static void wait_any(struct pollfd *fds, nfds_t n, int sigfd, int timeout, bool *stop)
{
	struct signalfd_siginfo si;

	fds[n].fd = sigfd;
	fds[n].events = POLLIN;
	while (poll(fds, n + 1, timeout) < 0 && errno == EINTR)
		;
	while (sigfd >= 0 && read(sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		*stop = true;
}

static void wait_job(int pidfd, int sigfd, bool *stop)
{
	struct pollfd fds[2] = { { .fd = pidfd, .events = POLLIN } };

	do
		wait_any(fds, 1, sigfd, -1, stop);
	while (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR)));
}

/* Until one of the holders WHO names ends, RECHECK_MS at most. */
static void wait_holders(const struct lease_holders *who, int sigfd, bool *stop)
{
	struct pollfd fds[LEASE_MAX_PIDS + 1];
	int timeout = RECHECK_MS;
	nfds_t n = 0;

	for (unsigned i = 0; i < who->count && i < LEASE_MAX_PIDS; i++) {
		int fd = sys_pidfd_open(who->pid[i], 0);

		if (fd < 0) {
			timeout = 0;	/* gone already: look again now */
			continue;
		}
		fds[n].fd = fd;
		fds[n++].events = POLLIN;
	}
	wait_any(fds, n, sigfd, timeout, stop);
	for (nfds_t i = 0; i < n; i++)
		close(fds[i].fd);
}

/* The watcher itself: the library's second _exit, in the detached process
 * only (kept out of line for test/libpurity.bats). */
static void __attribute__((noreturn, noinline)) watch(int pidfd, const struct watcher *w)
{
	bool stop = false;
	struct settle s;
	int sigfd;

	pidfd = shed(pidfd);
	if (pidfd < 0)
		_exit(1);
	sigfd = signal_fd();
	(void)prctl(PR_SET_NAME, "numactl2-watch");
	wait_job(pidfd, sigfd, &stop);
	for (;;) {
		(void)table_after_job(&s);
		if (s.state != SETTLE_HELD || stop)
			break;
		wait_holders(&s.who, sigfd, &stop);
	}
	if (w->said)
		w->said(&s);
	_exit(0);
}

/* The middle process: a session of its own, the watcher forked, gone. */
static void __attribute__((noreturn, noinline)) detach(int pidfd, const struct watcher *w)
{
	pid_t pid;

	(void)setsid();
	pid = fork();
	if (pid == 0)
		watch(pidfd, w);
	_exit(pid < 0 ? 1 : 0);
}

/* Starts the watcher of this process, which is about to exec the job (or
 * stays its parent until it ends). 0, or -errno when there is none. */
int watcher_start(const struct watcher *w)
{
	int pidfd = sys_pidfd_open(getpid(), 0), st;
	pid_t pid;

	if (pidfd < 0)
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		detach(pidfd, w);
	close(pidfd);
	if (pid < 0)
		return -errno;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EAGAIN;
}

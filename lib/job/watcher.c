// SPDX-License-Identifier: GPL-2.0-or-later
/* The watcher (this file owns it): once the job has ended, the global
 * table goes back as it was (table_after_job(), lib/weights/settle.c),
 * while numactl2 execs the job as it always has: the job keeps numactl2's
 * PID, gets its signals directly and has no new parent.
 *
 * watcher_start() is called before the table is written, not at the exec,
 * so that no moment is left where numactl2, killed outright, has changed the
 * table with nobody to put it back. It takes a pidfd of this very process
 * (which becomes the job) and a gate: a pipe whose write end numactl2 keeps,
 * close-on-exec. The watcher acts only once the gate closes without a word
 * (the exec, or numactl2's death, SIGKILL included); watcher_disarm() says
 * the word when nothing is to be put back (a refused change, no baseline
 * kept, another watcher taking over), and the watcher ends having touched
 * nothing. It forks twice: the middle process
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
#include "libnumactl2.h"
#include "syscalls.h"

#define RECHECK_MS 30000
#define PIDFD_SLOT 3
#define GATE_SLOT 4
/* Above any slot the descriptors are moved to. */
#define FD_SCRATCH 10
#define DISARM 'd'

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

/* FD moved to SLOT by way of a scratch descriptor, so that neither of two
 * moves overwrites the other's source. */
static int to_scratch(int fd)
{
	int moved = fcntl(fd, F_DUPFD, FD_SCRATCH);

	close(fd);
	return moved;
}

/* Nothing inherited but the job's pidfd (PIDFD_SLOT), the gate's read end
 * (GATE_SLOT) and maybe stderr, the rest of stdio on /dev/null, no
 * directory held. Returns 0 or -1. */
static int shed(int pidfd, int gate)
{
	bool keep = stderr_kept();
	int null;

	pidfd = to_scratch(pidfd);
	gate = to_scratch(gate);
	if (pidfd < 0 || gate < 0 || dup2(pidfd, PIDFD_SLOT) < 0 || dup2(gate, GATE_SLOT) < 0)
		return -1;
	if (close_range(GATE_SLOT + 1, ~0U, 0) < 0)
		return -1;
	null = open("/dev/null", O_RDWR);
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || (!keep && dup2(null, 2) < 0))
		return -1;
	if (null > 2)
		close(null);
	(void)!chdir("/");
	return 0;
}

/* Until the gate closes: true when it closed without a word (the job has
 * been exec'd, or numactl2 died), false when numactl2 disarmed it. */
static bool gate_opens(void)
{
	ssize_t n;
	char c;

	while ((n = read(GATE_SLOT, &c, 1)) < 0 && errno == EINTR)
		;
	close(GATE_SLOT);
	return n == 0;
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

/* The watcher itself: the library's second _exit, in the detached process
 * only (kept out of line for test/libpurity.bats). */
static void __attribute__((noreturn, noinline)) watch(int pidfd, int gate,
							 const struct watcher *w)
{
	bool stop = false;
	struct settle s;
	int sigfd;

	if (shed(pidfd, gate) < 0)
		_exit(1);
	sigfd = signal_fd();
	(void)prctl(PR_SET_NAME, "numactl2-watch");
	if (!gate_opens())
		_exit(0);
	wait_job(PIDFD_SLOT, sigfd, &stop);
	memset(&s, 0, sizeof(s));
	w->job_ended(w->arg, &s);
	if (w->said)
		w->said(&s);
	_exit(0);
}

/* The middle process: a session of its own, the watcher forked, gone. */
static void __attribute__((noreturn, noinline)) detach(int pidfd, int gate[2],
							  const struct watcher *w)
{
	pid_t pid;

	close(gate[1]);
	(void)setsid();
	pid = fork();
	if (pid == 0)
		watch(pidfd, gate[0], w);
	_exit(pid < 0 ? 1 : 0);
}

static int forked(int pidfd, int gate[2], const struct watcher *w)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid == 0)
		detach(pidfd, gate, w);
	if (pid < 0)
		return -errno;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EAGAIN;
}

/* Starts the watcher of this process, which will exec the job; *gate is
 * the gate's write end (close-on-exec), for watcher_disarm(). 0, or -errno
 * when there is none. */
int watcher_start(const struct watcher *w, int *gate)
{
	int pidfd = sys_pidfd_open(getpid(), 0), fds[2], rc;

	*gate = -1;
	if (pidfd < 0)
		return -errno;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		rc = -errno;
		close(pidfd);
		return rc;
	}
	rc = forked(pidfd, fds, w);
	close(pidfd);
	close(fds[0]);
	if (rc < 0)
		close(fds[1]);
	else
		*gate = fds[1];
	return rc;
}

/* Nothing for the watcher to put back: it ends without touching the table. */
void watcher_disarm(int *gate)
{
	if (*gate < 0)
		return;
	(void)!write(*gate, &(char){ DISARM }, 1);
	close(*gate);
	*gate = -1;
}

/* A forked process that is not numactl2 about to exec (the --report
 * watcher): its copy of the gate must not keep the watcher waiting. */
void watcher_forget(int *gate)
{
	if (*gate >= 0)
		close(*gate);
	*gate = -1;
}

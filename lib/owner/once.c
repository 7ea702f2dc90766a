// SPDX-License-Identifier: GPL-2.0-or-later
/* Root's own owner where no numactl2d listens: the service's code (serve.c,
 * grant.c, grantask.c) for one ask, in this process, on the service's state
 * file and lock. The ask goes over a socket pair, so that it is checked and
 * answered exactly as the service would; the holders stay in the state
 * file, which the next owner (this one again, or numactl2d) loads, dropping
 * the jobs that have ended and putting back what they alone held. The lock
 * is a file only root can open, in a directory only root can write: no file
 * another user can open, lock or fill decides anything (docs/service.md). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "owner/server.h"
#include "owner/state.h"
#include "syscalls.h"
#include "sysfile/sysfile.h"

#define OWNER_DIR_LIVE "/run/numactl2"
#define STATE_PATH_MAX 640
/* How long root's run waits for another root run's decision: each holds
 * the lock for one decision (milliseconds), but many at once on a loaded
 * machine queue behind each other. Only root can hold it. */
#define ONCE_LOCK_MS 30000

#ifdef NUMACTL2_TEST_BUILD
#include <libgen.h>

/* Test build only: numactl2/ beside the copy of the table
 * (NUMACTL2_SYSFS_WI), so that tests share no state. */
const char *owner_dir(void)
{
	/* The test build's alone: nc2_lib_place() hands it out to messages. It
	 * depends on the environment only, the same each call. */
	static char dir[600];
	const char *wi = getenv("NUMACTL2_SYSFS_WI");
	char parent[512];

	if (!wi || !*wi)
		return "/nonexistent/numactl2-test-build";
	snprintf(parent, sizeof(parent), "%s", wi);
	snprintf(dir, sizeof(dir), "%s/numactl2", dirname(parent));
	return dir;
}

/* Test build only: the tests' files are the tester's own. */
static bool trusted_owner(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

static const char *rules_path(void)
{
	const char *set = getenv("NUMACTL2_OWNER_RULES");

	return set && *set ? set : "/nonexistent/numactl2-test-build/weights.conf";
}
#else
const char *owner_dir(void)
{
	return OWNER_DIR_LIVE;
}

static bool trusted_owner(uid_t uid)
{
	return uid == 0;
}

static const char *rules_path(void)
{
	return OWNER_RULES_FILE;
}
#endif

/* The state file in owner_dir(), into PATH (STATE_PATH_MAX bytes). */
static const char *state_path(char *path)
{
	snprintf(path, STATE_PATH_MAX, "%s/state", owner_dir());
	return path;
}

/* The state's directory, made where there is none (as systemd's
 * RuntimeDirectory= would: 0755, the socket's place too): root's alone to
 * write, or -EPERM, and nothing of it is used. */
static int owner_dir_ready(void)
{
	struct stat st;

	/* 0755 whatever root's umask: users reach numactl2d's socket in it. */
	if (mkdir(owner_dir(), 0755) == 0)
		(void)chmod(owner_dir(), 0755);
	else if (errno != EEXIST)
		return -errno;
	if (lstat(owner_dir(), &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode) || !trusted_owner(st.st_uid) || (st.st_mode & (S_IWGRP | S_IWOTH)))
		return -EPERM;
	return 0;
}

/* The owner checks each holder through a pidfd: as many descriptors as
 * the system lets this process have (numactl2d's unit gives it 16384), for
 * the owner's time only, so that the job gets the limits it was given. */
static struct rlimit files_raised(void)
{
	struct rlimit was = { 0 }, up;

	if (getrlimit(RLIMIT_NOFILE, &was) == 0) {
		up = was;
		up.rlim_cur = was.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &up);
	}
	return was;
}

static void files_back(const struct rlimit *was)
{
	if (was->rlim_max)
		(void)setrlimit(RLIMIT_NOFILE, was);
}

static void __attribute__((format(printf, 2, 3))) log_here(int priority, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsyslog(LOG_USER | priority, fmt, ap);
	va_end(ap);
}

/* The ask K sent to S on a socket pair, and S run until it has answered. */
static int ask_once(struct owner_server *s, const struct owner_ask *k, int pidfd,
		    struct owner_answer *a)
{
	int sv[2];
	int rc;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	rc = owner_server_take(s, sv[1]) < 0 ? -ENOMEM : 0;
	if (rc == 0)
		rc = owner_send(sv[0], k, sizeof(*k), pidfd);
	if (rc == 0)
		rc = owner_server_run(s);
	if (rc == 0)
		rc = owner_recv(sv[0], a, sizeof(*a), NULL);
	if (rc == -EAGAIN)
		rc = -ETIMEDOUT;
	if (rc == 0 && !owner_answer_valid(a))
		rc = -EBADMSG;
	close(sv[0]);
	return rc;
}

/* K decided under the state's lock, waited for until LOCK_MS (another
 * root run's change: milliseconds), and the lock let go. */
static int ask_locked(const struct owner_ask *k, int pidfd, int lock_ms, struct owner_answer *a)
{
	struct owner_server s;
	char path[STATE_PATH_MAX];
	int rc = owner_dir_ready();

	if (rc < 0)
		return rc;
	const struct owner_open o = {
		.state_path = state_path(path), .rules_path = rules_path(), .log = log_here,
		.lock_wait_ms = lock_ms, .once = true,
		/* A dry run and --no-global-weights write nothing, not even that. */
		.settle = !(k->flags & (OWNER_DRY | OWNER_NO_WRITE)),
	};

	const struct rlimit files = files_raised();

	rc = owner_server_open(&s, &o);
	if (rc == 0)
		rc = ask_once(&s, k, pidfd, a);
	owner_server_end(&s);
	files_back(&files);
	return rc;
}

/* Until PID ends (its pidfd says), or MS have passed. */
static void wait_holder(pid_t pid, int ms)
{
	int fd = sys_pidfd_open(pid, 0);
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (fd < 0) {
		/* The job gone: try again now; no descriptor left: not at once. */
		if (errno != ESRCH)
			(void)poll(NULL, 0, ms);
		return;
	}
	(void)poll(&p, 1, ms);
	close(fd);
}

/* As owner_call(), answered here: root's, where no service listens. A
 * holder in the way is waited for (K's wait_ms) with the lock let go, so
 * that no run waiting for another holds up the rest, nor numactl2d's
 * start; each try decides again on the state as it is then. */
int owner_call_here(const struct owner_ask *k, int pidfd, struct owner_answer *a)
{
	struct owner_ask now = *k;
	unsigned long long deadline = owner_now_ms() + k->wait_ms;
	int rc;

	/* A dry run's holder is what the run would wait for: no wait here. */
	if (!(k->flags & OWNER_DRY))
		now.wait_ms = 0;
	for (;;) {
		rc = ask_locked(&now, pidfd, ONCE_LOCK_MS, a);
		if (rc < 0 || a->verdict != OWNER_CONFLICT || now.wait_ms ||
		    owner_now_ms() >= deadline)
			return rc;
		/* At most a second: a holder's PID reused would not say it ended. */
		wait_holder((pid_t)a->pid, (int)(deadline - owner_now_ms() < 1000 ?
						deadline - owner_now_ms() : 1000));
	}
}

/* Root's own owner, opened and closed: the jobs that ended dropped and
 * what they alone held put back (serve.c's resume()), said in PB, as at a
 * job's or a Slurm step's end. */
int owner_settle_here(struct book_putback *pb)
{
	char path[STATE_PATH_MAX];
	const struct owner_open o = {
		.state_path = state_path(path), .rules_path = rules_path(), .log = log_here,
		.lock_wait_ms = ONCE_LOCK_MS, .once = true, .settle = true,
	};
	struct owner_server s;
	int rc = owner_dir_ready();

	memset(pb, 0, sizeof(*pb));
	if (rc < 0)
		return rc;
	const struct rlimit files = files_raised();

	rc = owner_server_open(&s, &o);
	*pb = s.resumed;
	owner_server_end(&s);
	files_back(&files);
	return rc;
}

/* The holders as the state file has them, each to EACH (an OWNER_HOLDER
 * answer), as owner_list() gives numactl2d's: only those whose job runs,
 * and nothing put back (a listing changes nothing). The file is replaced
 * whole by each change: no lock is needed to read it. */
int owner_list_here(void (*each)(const struct owner_answer *a, void *arg), void *arg)
{
	struct owner_book b;
	struct state_loaded how;
	char path[STATE_PATH_MAX];
	const struct rlimit files = files_raised();
	int rc = book_init(&b);

	if (rc == 0)
		rc = state_load(state_path(path), &b, &how);
	for (unsigned i = 0; rc == 0 && i < b.ngrants; i++) {
		struct owner_answer a;

		owner_holder_answer(b.grant[i], &a);
		each(&a, arg);
	}
	book_free(&b);
	files_back(&files);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The owner's event loop: the listening socket, each connection until its
 * one ask is answered or its deadline passes, the pidfd of each job that
 * holds weights, and SIGTERM/SIGINT. Nothing blocks: a client that connects
 * and never speaks, or never reads, only loses its own connection. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "error/error.h"
#include "owner/jobs.h"
#include "owner/server.h"
#include "owner/state.h"
#include "syscalls.h"

static int open_signals(struct owner_server *s)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -errno;
	s->signal_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (s->signal_fd < 0)
		return -errno;
	return owner_epoll_add(s, s->signal_fd, EPOLLIN, owner_tag(NULL, EV_SIGNAL));
}

/* The state an owner before this one left: its holders taken back (their
 * pidfds watched), and unless it is not to write (SETTLE false: a dry run,
 * --no-global-weights) the nodes of those that ended put back
 * (s->resumed). */
static int resume(struct owner_server *s, bool settle)
{
	struct state_loaded how;
	struct book_putback *pb = &s->resumed;
	int rc = state_load(s->state_path, &s->book, &how);

	if (rc < 0)
		return rc;
	if (how.how == STATE_OTHER_BOOT)
		s->log(LOG_NOTICE, "%s is from another boot: dropped, the table is taken as it is",
		       s->state_path);
	if (how.how == STATE_UNREADABLE)
		s->log(LOG_ERR, "%s is not a state file: dropped, the table is taken as it is",
		       s->state_path);
	if (how.bad)
		s->log(LOG_ERR, "%s: %u lines not understood, skipped", s->state_path, how.bad);
	for (unsigned i = 0; i < s->book.ngrants; i++)
		if (owner_watch_grant(s, s->book.grant[i]) < 0)
			return -errno;
	if (how.how == STATE_LOADED && (!s->once || how.gone))
		s->log(LOG_INFO, "resumed: %u jobs hold weights, %u ended while no service ran",
		       s->book.ngrants, how.gone);
	if (!settle)
		return 0;
	book_settle(&s->book, pb);
	if (pb->stays[0])
		s->log(LOG_ERR, "not put back at the start: %s", pb->stays);
	/* A state that cannot be saved refuses each change, not the start:
	 * holders and weights in effect are still served. */
	rc = state_save(s->state_path, &s->book);
	if (rc < 0)
		s->log(LOG_ERR, "cannot save %s: %s; every change is refused until it can be",
		       s->state_path, strerror(-rc));
	return 0;
}

/* Until the lock on FD is taken, or WAIT_MS have passed: tried 1 ms apart
 * at first, then 2, 4, 8 and 10 at most. A change takes milliseconds, and
 * back-to-back runs meet the one before (its watcher putting its weights
 * back): a fixed 10 ms nap made each wait 10 ms for a few. */
static bool lock_within(int fd, int wait_ms)
{
	int nap = 1;

	for (int waited = 0;; waited += nap, nap = nap < 5 ? nap * 2 : 10) {
		const struct timespec tick = { .tv_nsec = nap * 1000L * 1000 };

		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return true;
		if (waited >= wait_ms)
			return false;
		nanosleep(&tick, NULL);
	}
}

/* STATE's lock, a file beside it only root can open: two owners on the
 * same state (numactl2d, or root's numactl2 where none runs: once.c) would
 * be two writers of the table. Each waits for the other's change until
 * WAIT_MS. Where the file cannot be made (the state's directory read-only
 * or full) the owner still starts, and refuses each change it cannot save:
 * -1, said. */
static int lock_state(const char *state, nc2_owner_log_fn *log, int wait_ms)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s.lock", state);
	fd = open(path, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		log(LOG_ERR, "cannot lock %s: %s", path, strerror(errno));
		return -1;
	}
	if (lock_within(fd, wait_ms))
		return fd;
	log(LOG_ERR, "another numactl2d, or root's numactl2, keeps %s", state);
	close(fd);
	return -EBUSY;
}

/* The owner's state and rules, locked and loaded, its holders watched:
 * no socket and no signal yet. */
int owner_server_open(struct owner_server *s, const struct owner_open *o)
{
	struct rules_error re;
	const char *rules_path = o->rules_path;
	nc2_owner_log_fn *log = o->log;
	int rc;

	memset(s, 0, sizeof(*s));
	s->once = o->once;
	s->listen_fd = -1;
	s->state_path = o->state_path;
	s->log = log;
	s->signal_fd = -1;
	s->epfd = -1;
	s->lock_fd = lock_state(o->state_path, log, o->lock_wait_ms);
	if (s->lock_fd == -EBUSY)
		return s->lock_fd;
	/* Root's own owner changes nothing, not even a settle, unlocked. */
	if (s->once && s->lock_fd < 0)
		return -ENOLCK;
	rc = owner_rules_load(rules_path, &s->rules, &re);
	if (rc < 0) {
		log(LOG_ERR, "%s:%u: %s", rules_path, re.line, re.why[0] ? re.why : strerror(-rc));
		return rc;
	}
	rc = book_init(&s->book);
	if (rc < 0)
		return rc;
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (s->epfd < 0)
		return -errno;
	return resume(s, o->settle);
}

int owner_server_start(struct owner_server *s, int listen_fd, const char *state_path,
		       const char *rules_path, nc2_owner_log_fn *log)
{
	/* Root's numactl2 holds the lock for one change at a time (once.c):
	 * milliseconds, but a start must not fail in them. */
	const struct owner_open o = { .state_path = state_path, .rules_path = rules_path,
				      .log = log, .lock_wait_ms = OWNER_ASK_MS, .settle = true };
	int rc = owner_server_open(s, &o);

	if (rc < 0)
		return rc;
	s->listen_fd = listen_fd;
	rc = open_signals(s);
	return rc < 0 ? rc : owner_epoll_add(s, listen_fd, EPOLLIN, owner_tag(NULL, EV_LISTEN));
}

static unsigned user_conns(const struct owner_server *s, uid_t uid)
{
	unsigned k = 0;

	for (unsigned i = 0; i < s->nconn; i++)
		k += s->conn[i]->uid == uid;
	return k;
}

/* The peer's groups, as many as it has: the size the kernel says on ERANGE
 * is allocated and asked again. -1 when they cannot be had: the connection
 * is refused (a rule for a group must never see a list it does not hold). */
static int peer_groups(int fd, struct owner_caller *c)
{
	socklen_t len = 0;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, NULL, &len) < 0 && errno != ERANGE)
		return -1;
	c->group = len ? malloc(len) : NULL;
	if (len && !c->group)
		return -1;
	if (len && getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, c->group, &len) < 0)
		return -1;
	c->ngroups = len / sizeof(gid_t);
	return 0;
}

/* Who asks: the kernel's word (SO_PEERCRED), and the process itself as a
 * pidfd where the kernel gives one (SO_PEERPIDFD, 6.5): a PID alone can be
 * another process's by the time the ask comes. */
static int peer(int fd, struct owner_conn *c)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	c->pid = -1;
	c->uid = (uid_t)-1;
	c->peer_pidfd = -1;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
		return -1;
	c->pid = cred.pid;
	c->uid = cred.uid;
	c->caller.uid = cred.uid;
	c->caller.gid = cred.gid;
	len = sizeof(c->peer_pidfd);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERPIDFD, &c->peer_pidfd, &len) < 0)
		c->peer_pidfd = -1;
	return peer_groups(fd, &c->caller);
}

static void refuse_conn(int fd, const char *why)
{
	struct owner_answer a = { .version = OWNER_WIRE_VERSION, .verdict = OWNER_LIMIT };

	snprintf(a.text, sizeof(a.text), "%s", why);
	(void)owner_send(fd, &a, sizeof(a), -1);
	close(fd);
}

static int add_conn(struct owner_server *s, struct owner_conn *c)
{
	struct owner_conn **grown = realloc(s->conn, (s->nconn + 1) * sizeof(*grown));

	if (!grown || owner_epoll_add(s, c->fd, EPOLLIN, owner_tag(c, EV_CONN)) < 0) {
		if (grown)
			s->conn = grown;
		return -ENOMEM;
	}
	s->conn = grown;
	s->conn[s->nconn++] = c;
	return 0;
}

/* Out of descriptors, a pending connection would wake the loop again at
 * once: the socket is not watched for 100 ms. */
static void pause_listening(struct owner_server *s)
{
	struct epoll_event ev = { .events = 0, .data.u64 = owner_tag(NULL, EV_LISTEN) };

	(void)epoll_ctl(s->epfd, EPOLL_CTL_MOD, s->listen_fd, &ev);
	s->listen_paused_until = owner_now_ms() + 100;
}

static void resume_listening(struct owner_server *s, unsigned long long now)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = owner_tag(NULL, EV_LISTEN) };

	if (!s->listen_paused_until || now < s->listen_paused_until)
		return;
	(void)epoll_ctl(s->epfd, EPOLL_CTL_MOD, s->listen_fd, &ev);
	s->listen_paused_until = 0;
}

/* Why connection C (on FD) is refused, or NULL: it is taken on. */
static const char *conn_refused(const struct owner_server *s, int fd, struct owner_conn *c)
{
	if (peer(fd, c) < 0)
		return "cannot tell who connects";
	if (s->nconn >= OWNER_CONNS)
		return "the service has 1024 connections open: no more";
	if (c->uid != 0 && user_conns(s, c->uid) >= OWNER_USER_CONNS)
		return "too many connections of this user: at most 8 at once";
	return NULL;
}

/* A connection's FD taken on (accepted, or once.c's own): -1 when it is
 * refused (closed, said to the peer where it can be). */
int owner_server_take(struct owner_server *s, int fd)
{
	struct owner_conn *c = calloc(1, sizeof(*c));
	const char *why;

	if (!c) {
		close(fd);
		return -1;
	}
	c->fd = fd;
	c->deadline_ms = owner_now_ms() + OWNER_ASK_MS;
	why = conn_refused(s, fd, c);
	if (why) {
		refuse_conn(fd, why);
		owner_conn_free(c);
		return -1;
	}
	if (add_conn(s, c) < 0) {
		close(fd);
		owner_conn_free(c);
		return -1;
	}
	return 0;
}

static void accept_one(struct owner_server *s)
{
	int fd = accept4(s->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0 && (errno == EMFILE || errno == ENFILE))
		pause_listening(s);
	if (fd >= 0)
		(void)owner_server_take(s, fd);
}

static void read_ask(struct owner_server *s, struct owner_conn *c)
{
	int pidfd, rc;

	if (c->state == CONN_LISTING) {
		/* Anything read now is a client that does not follow the wire. */
		owner_conn_close(s, c);
		return;
	}
	rc = owner_recv(c->fd, &c->ask, sizeof(c->ask), &pidfd);
	if (rc == -EAGAIN)
		return;
	if (rc < 0 || c->state != CONN_ASKING) {
		if (pidfd >= 0)
			close(pidfd);
		owner_conn_close(s, c);
		return;
	}
	owner_handle_ask(s, c, pidfd);
}

static void job_ended(struct owner_server *s, struct grant *g)
{
	owner_job_ended(s, g);
	owner_retry_waiting(s);
}

static void dispatch(struct owner_server *s, const struct epoll_event *ev)
{
	enum ev_kind k = (enum ev_kind)(ev->data.u64 & 3);
	void *p = (void *)(uintptr_t)(ev->data.u64 & ~(uint64_t)3);
	struct signalfd_siginfo si;

	switch (k) {
	case EV_LISTEN:
		accept_one(s);
		break;
	case EV_SIGNAL:
		if (read(s->signal_fd, &si, sizeof(si)) == sizeof(si))
			s->stop = true;
		break;
	case EV_CONN:
		if (!owner_conn_open(s, p))
			break;
		if (ev->events & EPOLLOUT)
			(void)owner_conn_send_list(s, p);
		else
			read_ask(s, p);
		break;
	case EV_GRANT:
		if (book_index(&s->book, p) >= 0)
			job_ended(s, p);
		break;
	}
}

/* Connections past their deadline: a wait for a holder is answered with
 * the conflict, anything else just closed. */
static void expire(struct owner_server *s, unsigned long long now)
{
	for (unsigned i = 0; i < s->nconn;) {
		struct owner_conn *c = s->conn[i];

		if (c->deadline_ms > now) {
			i++;
			continue;
		}
		if (c->state == CONN_WAITING && owner_try_lease(s, c))
			continue;
		owner_conn_close(s, c);
	}
}

static int next_timeout(const struct owner_server *s, unsigned long long now)
{
	unsigned long long first = s->listen_paused_until;

	for (unsigned i = 0; i < s->nconn; i++)
		if (!first || s->conn[i]->deadline_ms < first)
			first = s->conn[i]->deadline_ms;
	if (!first)
		return -1;
	return first <= now ? 0 : (int)(first - now);
}

int owner_server_run(struct owner_server *s)
{
	struct epoll_event ev[64];

	while (!s->stop) {
		int n = epoll_wait(s->epfd, ev, 64, next_timeout(s, owner_now_ms()));

		if (n < 0 && errno != EINTR)
			return -errno;
		for (int i = 0; i < n; i++)
			dispatch(s, &ev[i]);
		expire(s, owner_now_ms());
		resume_listening(s, owner_now_ms());
		owner_grave_empty(s);
		if (s->once && !s->nconn)
			break;
	}
	return 0;
}

int nc2_owner_serve(int listen_fd, const char *state_path, const char *rules_path, nc2_owner_log_fn *log,
		struct nc2_error *e)
{
	struct owner_server s;
	int rc = owner_server_start(&s, listen_fd, state_path, rules_path, log);

	if (rc == 0)
		rc = owner_server_run(&s);
	owner_server_end(&s);
	return rc < 0 ? error_set(e, OWNER_SERVE, rc) : 0;
}

/* The holders stay in the state file: the next service takes them back. */
void owner_server_end(struct owner_server *s)
{
	while (s->nconn)
		owner_conn_close(s, s->conn[0]);
	owner_grave_empty(s);
	free(s->grave);
	free(s->rows);
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	free(s->conn);
	book_free(&s->book);
	owner_rules_free(&s->rules);
	if (s->signal_fd >= 0)
		close(s->signal_fd);
	if (s->epfd >= 0)
		close(s->epfd);
}

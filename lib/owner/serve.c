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
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "owner/jobs.h"
#include "owner/server.h"
#include "owner/state.h"

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

/* The state a service before this one left: its holders taken back (their
 * pidfds watched), the nodes of those that ended put back. */
static int resume(struct owner_server *s)
{
	enum state_loaded how;
	unsigned gone;
	struct book_putback pb;
	int rc = state_load(s->state_path, &s->book, &how, &gone);

	if (rc < 0)
		return rc;
	if (how == STATE_OTHER_BOOT)
		s->log(LOG_NOTICE, "%s is from another boot: dropped, the table is taken as it is",
		       s->state_path);
	for (unsigned i = 0; i < s->book.ngrants; i++)
		if (owner_watch_grant(s, s->book.grant[i]) < 0)
			return -errno;
	if (how == STATE_LOADED)
		s->log(LOG_INFO, "resumed: %u jobs hold weights, %u ended while no service ran",
		       s->book.ngrants, gone);
	book_settle(&s->book, &pb);
	if (pb.failed)
		s->log(LOG_ERR, "cannot put node %u back: %s", pb.first_failed, strerror(pb.err));
	/* A state that cannot be saved refuses each change, not the start:
	 * holders and weights in effect are still served. */
	rc = state_save(s->state_path, &s->book);
	if (rc < 0)
		s->log(LOG_ERR, "cannot save %s: %s; every change is refused until it can be",
		       s->state_path, strerror(-rc));
	return 0;
}

int owner_server_start(struct owner_server *s, int listen_fd, const char *state_path,
		       const char *rules_path, owner_log_fn *log)
{
	struct rules_error re;
	int rc;

	memset(s, 0, sizeof(*s));
	s->listen_fd = listen_fd;
	s->state_path = state_path;
	s->log = log;
	s->signal_fd = -1;
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
	rc = open_signals(s);
	if (rc == 0)
		rc = owner_epoll_add(s, listen_fd, EPOLLIN, owner_tag(NULL, EV_LISTEN));
	return rc < 0 ? rc : resume(s);
}

static unsigned user_conns(const struct owner_server *s, uid_t uid)
{
	unsigned k = 0;

	for (unsigned i = 0; i < s->nconn; i++)
		k += s->conn[i]->uid == uid;
	return k;
}

static void peer(int fd, struct owner_conn *c)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	socklen_t glen = sizeof(c->caller.group);

	c->pid = -1;
	c->uid = (uid_t)-1;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0) {
		c->pid = cred.pid;
		c->uid = cred.uid;
		c->caller.uid = cred.uid;
		c->caller.gid = cred.gid;
	}
	/* More groups than fit: the rules see the first ones only. */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, c->caller.group, &glen) == 0 ||
	    errno == ERANGE)
		c->caller.ngroups = glen / sizeof(gid_t);
	if (c->caller.ngroups > sizeof(c->caller.group) / sizeof(gid_t))
		c->caller.ngroups = sizeof(c->caller.group) / sizeof(gid_t);
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

static void accept_one(struct owner_server *s)
{
	struct owner_conn *c;
	int fd = accept4(s->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return;
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		return;
	}
	c->fd = fd;
	peer(fd, c);
	c->deadline_ms = owner_now_ms() + OWNER_ASK_MS;
	if (c->uid == (uid_t)-1 || s->nconn >= OWNER_CONNS ||
	    (c->uid != 0 && user_conns(s, c->uid) >= OWNER_USER_CONNS)) {
		refuse_conn(fd, "too many connections of this user: at most 8 at once");
		free(c);
		return;
	}
	if (add_conn(s, c) < 0) {
		close(fd);
		free(c);
	}
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
	unsigned long long first = 0;

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
		owner_grave_empty(s);
	}
	return 0;
}

int owner_serve(int listen_fd, const char *state_path, const char *rules_path, owner_log_fn *log)
{
	static struct owner_server s;
	int rc = owner_server_start(&s, listen_fd, state_path, rules_path, log);

	if (rc == 0)
		rc = owner_server_run(&s);
	owner_server_end(&s);
	return rc;
}

/* The holders stay in the state file: the next service takes them back. */
void owner_server_end(struct owner_server *s)
{
	while (s->nconn)
		owner_conn_close(s, s->conn[0]);
	owner_grave_empty(s);
	free(s->grave);
	free(s->conn);
	book_free(&s->book);
	owner_rules_free(&s->rules);
	if (s->signal_fd >= 0)
		close(s->signal_fd);
	if (s->epfd >= 0)
		close(s->epfd);
}

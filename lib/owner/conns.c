// SPDX-License-Identifier: GPL-2.0-or-later
/* The owner's connections and the descriptors it watches: epoll's tags,
 * the deadline clock, answering and closing a connection, and freeing what
 * an event of the same round may still name only after that round. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "owner/jobs.h"
#include "owner/server.h"
#include "owner/state.h"

uint64_t owner_tag(void *p, enum ev_kind k)
{
	return (uint64_t)(uintptr_t)p | k;
}

unsigned long long owner_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000 + (unsigned long long)ts.tv_nsec / 1000000;
}

int owner_epoll_add(struct owner_server *s, int fd, uint32_t events, uint64_t data)
{
	struct epoll_event ev = { .events = events, .data.u64 = data };

	return epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev) < 0 ? -errno : 0;
}

int owner_watch_grant(struct owner_server *s, struct grant *g)
{
	return owner_epoll_add(s, g->pidfd, EPOLLIN, owner_tag(g, EV_GRANT));
}

/* P freed after this round; freed now if it cannot be kept (no memory),
 * which an event of the round then finds gone from its list. */
static void bury(struct owner_server *s, void *p, void (*release)(void *))
{
	if (s->ngrave == s->gravecap) {
		unsigned cap = s->gravecap ? s->gravecap * 2 : 16;
		struct owner_grave *grown = realloc(s->grave, cap * sizeof(*grown));

		if (!grown) {
			release(p);
			return;
		}
		s->grave = grown;
		s->gravecap = cap;
	}
	s->grave[s->ngrave].p = p;
	s->grave[s->ngrave++].release = release;
}

void owner_conn_free(void *p)
{
	struct owner_conn *c = p;

	if (c->peer_pidfd >= 0)
		close(c->peer_pidfd);
	free(c->caller.group);
	free(c);
}

/* Is the peer the process PID names now? Its pidfd says, where the kernel
 * gave one; else the PID it had when it connected. */
bool owner_peer_is(const struct owner_conn *c, pid_t pid)
{
	if (c->peer_pidfd >= 0)
		return pid > 0 && pidfd_pid(c->peer_pidfd) == pid;
	return pid > 0 && c->pid == pid;
}

static void free_grant(void *p)
{
	grant_free(p);
}

void owner_grave_empty(struct owner_server *s)
{
	for (unsigned i = 0; i < s->ngrave; i++)
		s->grave[i].release(s->grave[i].p);
	s->ngrave = 0;
}

/* A grant's pidfd leaves epoll now; the grant itself after the round. */
void owner_bury_grant(struct owner_server *s, struct grant *g)
{
	(void)epoll_ctl(s->epfd, EPOLL_CTL_DEL, g->pidfd, NULL);
	close(g->pidfd);
	g->pidfd = -1;
	bury(s, g, free_grant);
}

void owner_conn_close(struct owner_server *s, struct owner_conn *c)
{
	for (unsigned i = 0; i < s->nconn; i++)
		if (s->conn[i] == c) {
			s->conn[i] = s->conn[--s->nconn];
			break;
		}
	close(c->fd);
	if (c->grant)
		grant_free(c->grant);
	c->grant = NULL;
	bury(s, c, owner_conn_free);
}

bool owner_conn_open(const struct owner_server *s, const struct owner_conn *c)
{
	for (unsigned i = 0; i < s->nconn; i++)
		if (s->conn[i] == c)
			return true;
	return false;
}

/* One answer, and the connection's end (OWNER_LIST sends its own). */
void owner_answer(struct owner_server *s, struct owner_conn *c, const struct owner_answer *a)
{
	(void)owner_send(c->fd, a, sizeof(*a), -1);
	owner_conn_close(s, c);
}

void owner_refuse(struct owner_server *s, struct owner_conn *c, enum owner_verdict v,
		   int err, unsigned node, const char *why)
{
	struct owner_answer a = { .version = OWNER_WIRE_VERSION, .verdict = v, .err = err,
				  .node = node };

	snprintf(a.text, sizeof(a.text), "%s", why ? why : "");
	owner_answer(s, c, &a);
}

void owner_save_or_log(struct owner_server *s)
{
	int rc = state_save(s->state_path, &s->book);

	if (rc < 0)
		s->log(LOG_ERR, "cannot save %s: %s", s->state_path, strerror(-rc));
}


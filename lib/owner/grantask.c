// SPDX-License-Identifier: GPL-2.0-or-later
/* One ask, answered: a lease (checked against the holders, the admin's
 * rules and the limits, saved, then written), a release, or the list of
 * holders. Every change and every putting back goes to the log: who, which
 * weights, for which job. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <syslog.h>
#include <unistd.h>

#include "bandwidth/hmat.h"
#include "owner/autoback.h"
#include "owner/jobs.h"
#include "owner/server.h"
#include "owner/state.h"
#include "weights/table.h"

static void log_putback(struct owner_server *s, const struct book_putback *pb, const char *after)
{
	if (pb->written)
		s->log(LOG_INFO, "%u nodes put back after %s", pb->written, after);
	else if (!pb->failed)
		s->log(LOG_INFO, "nothing to put back after %s", after);
	if (pb->auto_err == 1)
		s->log(LOG_INFO, "the kernel's auto weights are back on");
	if (pb->stays[0])
		s->log(LOG_ERR, "not put back after %s: %s", after, pb->stays);
}

/* The job of grant I ended (or released it): what it alone held goes
 * back, said in the log, and what could not go back in STAYS (NULL: not
 * wanted). */
static void end_grant(struct owner_server *s, unsigned i, const char *how, char *stays, size_t len)
{
	struct book_putback pb;
	struct grant *g = s->book.grant[i];
	char after[160], name[70];

	grant_name_now(g, name, sizeof(name));
	snprintf(after, sizeof(after), "pid %d (%s, uid %u) %s", (int)g->pid, name,
		 (unsigned)g->uid, how);
	g = book_remove(&s->book, i);
	book_settle(&s->book, &pb);
	owner_bury_grant(s, g);
	log_putback(s, &pb, after);
	owner_save_or_log(s);
	if (stays) {
		/* The answer's room: the log has it whole. */
		size_t n = strnlen(pb.stays, len - 1);

		memcpy(stays, pb.stays, n);
		stays[n] = '\0';
	}
}

void owner_job_ended(struct owner_server *s, struct grant *g)
{
	int i = book_index(&s->book, g);

	if (i >= 0)
		end_grant(s, (unsigned)i, "ended", NULL, 0);
}

static void table_now(const struct owner_book *b, struct owner_answer *a)
{
	for (unsigned n = 0; n < b->count && n < OWNER_NODES; n++) {
		unsigned w;

		if (b->has[n] && gw_read(n, &w) == 0)
			a->now[n] = (uint8_t)nc2_weight_effective(w);
	}
}

/* The job's lease ends now, and the answer comes once what it alone held
 * is back: --restore-weights' promise. Its user's or root's to ask; a job
 * already ended (its lease gone) is answered NOT_HOLDER, its weights back. */
static void release(struct owner_server *s, struct owner_conn *c, pid_t pid)
{
	int i = pid > 0 ? book_find(&s->book, pid) : -1;

	if (i < 0 || (c->uid != 0 && s->book.grant[i]->uid != c->uid)) {
		owner_refuse(s, c, OWNER_NOT_HOLDER, 0, 0, NULL);
		return;
	}
	struct owner_answer a = { .version = OWNER_WIRE_VERSION, .verdict = OWNER_RELEASED };

	end_grant(s, (unsigned)i, "released", a.text, sizeof(a.text));

	table_now(&s->book, &a);
	owner_answer(s, c, &a);
	owner_retry_waiting(s);
}

/* Holder G as an OWNER_HOLDER answer. */
void owner_holder_answer(const struct grant *g, struct owner_answer *a)
{
	memset(a, 0, sizeof(*a));
	a->version = OWNER_WIRE_VERSION;
	a->verdict = OWNER_HOLDER;
	a->pid = (uint32_t)g->pid;
	a->uid = (uint32_t)g->uid;
	for (unsigned h = 0; h < g->nholds; h++)
		if (g->hold[h].node < OWNER_NODES)
			a->was[g->hold[h].node] = g->hold[h].weight;
	grant_name_now(g, a->text, sizeof(a->text));
}

/* The holder at C's place in the list, or the list's end, made as it is
 * sent: a listing costs one answer's memory, however many hold. Holders
 * that come or go meanwhile may be missed or named twice. */
static void next_listed(const struct owner_book *b, struct owner_conn *c, struct owner_answer *a)
{
	if (c->sent < b->ngrants) {
		owner_holder_answer(b->grant[c->sent], a);
		return;
	}
	memset(a, 0, sizeof(*a));
	a->version = OWNER_WIRE_VERSION;
	a->verdict = OWNER_END;
}

static void list(struct owner_server *s, struct owner_conn *c)
{
	c->state = CONN_LISTING;
	c->deadline_ms = owner_now_ms() + OWNER_ASK_MS;
	(void)owner_conn_send_list(s, c);
}

/* As many of the list's answers as the socket takes now; the rest when it
 * says it can take more, until the deadline. */
int owner_conn_send_list(struct owner_server *s, struct owner_conn *c)
{
	struct epoll_event ev = { .events = EPOLLOUT, .data.u64 = owner_tag(c, EV_CONN) };
	struct owner_answer a;

	for (;;) {
		int rc;

		next_listed(&s->book, c, &a);
		rc = owner_send(c->fd, &a, sizeof(a), -1);
		if (rc == -EAGAIN)
			return epoll_ctl(s->epfd, EPOLL_CTL_MOD, c->fd, &ev);
		if (rc < 0 || a.verdict == OWNER_END)
			break;
		c->sent++;
	}
	owner_conn_close(s, c);
	return 0;
}

/* --auto-global-weights: root's, and only while no job holds a weight,
 * which the kernel's auto mode would change under it, unless root's
 * --force says so: the holders then hold what the kernel sets. */
static void auto_on(struct owner_server *s, struct owner_conn *c)
{
	struct owner_answer a = { .version = OWNER_WIRE_VERSION, .verdict = OWNER_GRANTED };
	int rc;

	if (c->uid != 0) {
		owner_refuse(s, c, OWNER_REFUSED, 0, 0, "only root may turn the kernel's auto weights on");
		return;
	}
	if (s->book.ngrants && !(c->ask.flags & OWNER_FORCE)) {
		const struct grant *g = s->book.grant[0];

		a.verdict = OWNER_CONFLICT;
		a.pid = (uint32_t)g->pid;
		a.uid = (uint32_t)g->uid;
		if (g->nholds) {
			a.node = g->hold[0].node;
			a.was[a.node] = g->hold[0].weight;
		}
		grant_name_now(g, a.text, sizeof(a.text));
		owner_answer(s, c, &a);
		return;
	}
	/* --dry-run: where the kernel would refuse "true" (ENODEV), the run's
	 * refusal; else the verdict alone. */
	if (c->ask.flags & OWNER_DRY) {
		if (!auto_can_come_back(s->book.count))
			owner_refuse(s, c, OWNER_WRITE_FAILED, ENODEV, 0,
				     "cannot turn the kernel's auto weights on");
		else
			owner_answer(s, c, &a);
		return;
	}
	rc = gw_enable_auto();
	if (rc < 0) {
		owner_refuse(s, c, OWNER_WRITE_FAILED, -rc, 0, "cannot turn the kernel's auto weights on");
		return;
	}
	memset(s->book.changed, 0, s->book.count * sizeof(*s->book.changed));
	s->book.base_auto = GW_AUTO_ABSENT;
	owner_save_or_log(s);
	s->log(LOG_INFO, "uid %u turned the kernel's auto weights on", (unsigned)c->uid);
	table_now(&s->book, &a);
	owner_answer(s, c, &a);
}

/* HMAT as root reads it, for any user: the firmware's figures, which
 * only the table's permissions keep from them. */
static void send_rows(struct owner_server *s, struct owner_conn *c)
{
	struct hmat *h;

	/* Read once: the firmware's tables do not change while the machine
	 * runs, and a user asking again and again costs one send each. */
	if (!s->rows && (h = malloc(sizeof(*h)))) {
		s->rows = calloc(1, sizeof(*s->rows));
		if (s->rows) {
			s->rows->version = OWNER_WIRE_VERSION;
			s->rows->err = -hmat_read(h);
			s->rows->verdict = s->rows->err ? OWNER_BUSY : OWNER_GRANTED;
			if (!s->rows->err)
				hmat_rows(h, &s->rows->rows);
		}
		free(h);
	}
	if (s->rows)
		(void)owner_send(c->fd, s->rows, sizeof(*s->rows), -1);
	owner_conn_close(s, c);
}

void owner_handle_ask(struct owner_server *s, struct owner_conn *c, int pidfd)
{
	const struct owner_ask *k = &c->ask;

	if (!owner_ask_valid(k) || (k->op == OWNER_LEASE && pidfd < 0)) {
		if (pidfd >= 0)
			close(pidfd);
		owner_refuse(s, c, OWNER_BAD_ASK, EINVAL, 0, "not an ask of this service's version");
		return;
	}
	if (k->op == OWNER_LIST) {
		if (pidfd >= 0)
			close(pidfd);
		list(s, c);
		return;
	}
	if (k->op == OWNER_AUTO) {
		if (pidfd >= 0)
			close(pidfd);
		auto_on(s, c);
		return;
	}
	if (k->op == OWNER_ROWS) {
		if (pidfd >= 0)
			close(pidfd);
		send_rows(s, c);
		return;
	}
	if (k->op == OWNER_RELEASE) {
		if (pidfd >= 0)
			close(pidfd);
		release(s, c, (pid_t)k->pid);
		return;
	}
	owner_lease_ask(s, c, pidfd);
}

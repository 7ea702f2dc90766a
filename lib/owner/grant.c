// SPDX-License-Identifier: GPL-2.0-or-later
/* A lease asked of the owner: the job is the process that asked (its
 * pidfd, checked against the socket's peer), the holders must agree or be
 * waited for until the ask's deadline, the admin's rules and the limits
 * must allow it, and the state is saved before the table changes. A change
 * that cannot be saved or written leaves the table as it was. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "owner/autoback.h"
#include "owner/jobs.h"
#include "owner/server.h"
#include "owner/state.h"
#include "weights/table.h"

/* What book_stage() and --force's book_override() change, to be put back
 * when the change fails. */
struct book_mark {
	bool *changed;
	uint8_t *base;
	uint8_t *held;
	int base_auto;
};

static int mark(const struct owner_book *b, struct book_mark *m)
{
	m->changed = malloc(b->count * sizeof(*m->changed));
	m->base = malloc(b->count);
	m->held = malloc(b->count);
	if (!m->changed || !m->base || !m->held)
		return -ENOMEM;
	memcpy(m->changed, b->changed, b->count * sizeof(*m->changed));
	memcpy(m->base, b->base, b->count);
	memcpy(m->held, b->held, b->count);
	m->base_auto = b->base_auto;
	return 0;
}

/* Every holder of a node holds the same weight (a conflict is refused, an
 * override changes them all): the weight held before is the node's. */
static void back_to_mark(struct owner_book *b, const struct book_mark *m)
{
	memcpy(b->changed, m->changed, b->count * sizeof(*m->changed));
	memcpy(b->base, m->base, b->count);
	b->base_auto = m->base_auto;
	for (unsigned n = 0; n < b->count; n++)
		if (b->held[n] != m->held[n])
			(void)book_hold_as(b, n, m->held[n]);
}

/* AUTO_WAS: the auto switch before the change (enum gw_auto). AUTO_LOST:
 * the change (root's, kept) turns the kernel's auto weights off where they
 * cannot come back, which the answer says. */
static void answer_granted(struct owner_server *s, struct owner_conn *c, const struct book_plan *p,
			   int auto_was, bool auto_lost)
{
	struct owner_answer a = { .version = OWNER_WIRE_VERSION, .verdict = OWNER_GRANTED };
	bool changes = false;

	for (unsigned n = 0; n < s->book.count && n < OWNER_NODES; n++) {
		a.was[n] = p->was[n];
		a.now[n] = p->want[n];
		changes |= p->changes[n];
	}
	if (changes && auto_was == GW_AUTO_ON)
		a.auto_off = auto_lost ? OWNER_AUTO_OFF_UNTIL_REBOOT : OWNER_AUTO_SWITCHED_OFF;
	owner_answer(s, c, &a);
}

static void log_granted(struct owner_server *s, const struct grant *g, const struct book_plan *p,
			bool keep)
{
	char what[512], name[70];
	size_t at = 0;

	grant_name_now(g, name, sizeof(name));
	what[0] = '\0';
	for (unsigned n = 0; n < s->book.count && at < sizeof(what); n++)
		if (p->changes[n])
			at += (size_t)snprintf(what + at, sizeof(what) - at, "%snode%u %u->%u",
					       at ? ", " : "", n, p->was[n], p->want[n]);
	if (at)
		s->log(LOG_INFO, "uid %u set %s for pid %d (%s)%s", (unsigned)g->uid, what,
		       (int)g->pid, name, keep ? ", kept after it" : ", back when it ends");
}

/* Whether C's change is held by its job (the asker, by its pidfd): all but
 * root's admin options (OWNER_NO_JOB), whose change just stays. */
static bool held_by_job(const struct owner_conn *c)
{
	return !(c->ask.flags & OWNER_NO_JOB);
}

/* Held, saved, written, watched: OWNER_GRANTED, or the verdict of the step
 * that failed (RC its error); *WRITTEN once the table holds the change. */
static enum owner_verdict hold(struct owner_server *s, struct owner_conn *c,
			       const struct book_plan *p, unsigned *node, int *rc, bool *written)
{
	*written = false;
	*rc = held_by_job(c) ? book_add(&s->book, c->grant, p->want) : 0;
	if (*rc < 0)
		return OWNER_BUSY;
	*rc = state_save(s->state_path, &s->book);
	if (*rc < 0)
		return OWNER_UNSAVED;
	*rc = book_write(&s->book, p, node);
	if (*rc < 0)
		return OWNER_WRITE_FAILED;
	*written = true;
	*rc = held_by_job(c) ? owner_watch_grant(s, c->grant) : 0;
	return *rc < 0 ? OWNER_BUSY : OWNER_GRANTED;
}

/* A write that failed was undone by book_write(), but its writes before
 * may have turned the kernel's auto weights off: on again where they were
 * on (AUTO_WAS) and no other change keeps them off. What became of them
 * (enum owner_auto_off), for the refusal to say. */
static unsigned auto_after_failed_write(struct owner_server *s, int auto_was)
{
	int rc;

	if (auto_was != GW_AUTO_ON || gw_read_auto() != GW_AUTO_OFF)
		return OWNER_AUTO_UNTOUCHED;
	if (book_any_changed(&s->book))
		return OWNER_AUTO_SWITCHED_OFF;
	rc = gw_enable_auto();
	if (rc == 0)
		return OWNER_AUTO_UNTOUCHED;
	s->log(LOG_ERR, "not put back after a write that failed: the kernel's auto weights stay "
	       "off (%s)", strerror(-rc));
	return rc == -ENODEV ? OWNER_AUTO_OFF_UNTIL_REBOOT : OWNER_AUTO_SWITCHED_OFF;
}

/* A change that failed: the book as it was. Nothing is written unless
 * something was: a refused save leaves the table untouched; a change
 * written goes back as at a job's end; a write that failed puts the auto
 * switch back (auto_after_failed_write(), into *AUTO_OFF). */
static void unwind(struct owner_server *s, struct owner_conn *c, const struct book_mark *m,
		   enum owner_verdict v, bool written, int auto_was, unsigned *auto_off)
{
	struct owner_book *b = &s->book;
	struct book_putback pb;
	int i = book_index(b, c->grant);

	if (i >= 0)
		(void)book_remove(b, (unsigned)i);
	if (written) {
		book_settle(b, &pb);
		if (pb.stays[0])
			s->log(LOG_ERR, "not put back after a change that failed: %s", pb.stays);
	} else {
		back_to_mark(b, m);
		if (v == OWNER_WRITE_FAILED)
			*auto_off = auto_after_failed_write(s, auto_was);
	}
	owner_save_or_log(s);
}

/* What a commit that failed answers: the node concerned, the error, and
 * the kernel's auto weights where its undo could not turn them back on. */
struct commit_failure {
	unsigned node;
	int err;
	unsigned auto_off;	/* enum owner_auto_off */
};

/* The change of P for C's grant: OWNER_GRANTED, or the verdict the ask
 * gets (with what F says). FORCE: root's --force, the holders in the way
 * hold the weights asked from now on (said in the log once the change is
 * made), or as before if it fails. AUTO_WAS: the auto switch before. */
static enum owner_verdict commit(struct owner_server *s, struct owner_conn *c,
				 const struct book_plan *p, bool force, int auto_was,
				 struct commit_failure *f)
{
	struct book_mark m = { 0 };
	enum owner_verdict v = OWNER_BUSY;
	bool written = false;
	unsigned overrode = 0;
	int rc = mark(&s->book, &m);

	if (rc == 0) {
		if (force)
			overrode = book_override(&s->book, c->ask.weight);
		book_stage(&s->book, p, c->ask.flags & OWNER_KEEP);
		v = hold(s, c, p, &f->node, &rc, &written);
		if (v != OWNER_GRANTED)
			unwind(s, c, &m, v, written, auto_was, &f->auto_off);
		else if (force)
			s->log(LOG_NOTICE, "uid %u (--force) overrode %u leases", (unsigned)c->uid,
			       overrode);
	}
	free(m.changed);
	free(m.base);
	free(m.held);
	f->err = -rc;
	return v;
}

static bool refused_by_limits(struct owner_server *s, struct owner_conn *c)
{
	if (s->book.ngrants >= OWNER_GRANTS) {
		owner_refuse(s, c, OWNER_LIMIT, 0, 0, "the service holds 8192 leases: no more");
		return true;
	}
	if (c->uid != 0 && book_user_grants(&s->book, c->uid) >= OWNER_USER_GRANTS) {
		owner_refuse(s, c, OWNER_LIMIT, 0, 0, "this user holds 64 leases: no more");
		return true;
	}
	if (c->uid != 0 && (c->ask.flags & (OWNER_KEEP | OWNER_FORCE | OWNER_NO_JOB))) {
		owner_refuse(s, c, OWNER_REFUSED, 0, 0,
			     "only root may change weights for good (--keep-weights, "
			     "--set-global-weights) or override other jobs' (--force)");
		return true;
	}
	return false;
}

/* A holder in the way: the conflict answered, or the ask kept waiting
 * (false) while its deadline has not passed. */
static bool held_elsewhere(struct owner_server *s, struct owner_conn *c, unsigned node,
			   const struct grant *holder)
{
	struct owner_answer a = { .version = OWNER_WIRE_VERSION, .verdict = OWNER_CONFLICT };

	if (c->state == CONN_ASKING && c->ask.wait_ms) {
		unsigned ms = c->ask.wait_ms < OWNER_WAIT_MAX_MS ? c->ask.wait_ms : OWNER_WAIT_MAX_MS;

		c->state = CONN_WAITING;
		c->deadline_ms = owner_now_ms() + ms;
		return false;
	}
	if (c->state == CONN_WAITING && c->deadline_ms > owner_now_ms())
		return false;
	a.node = node;
	a.pid = (uint32_t)holder->pid;
	a.uid = (uint32_t)holder->uid;
	a.was[node] = grant_weight(holder, node);
	grant_name_now(holder, a.text, sizeof(a.text));
	owner_answer(s, c, &a);
	return true;
}

/* Root's --force: the holders in the way are overridden by the commit. */
static bool may_force(const struct owner_conn *c)
{
	return (c->ask.flags & OWNER_FORCE) && c->uid == 0;
}

/* --no-global-weights: a node the table does not hold at the weight asked
 * is refused, naming it, and nothing is written. */
static bool would_write(struct owner_server *s, struct owner_conn *c, const struct book_plan *p)
{
	struct owner_answer a = { .version = OWNER_WIRE_VERSION, .verdict = OWNER_WOULD_WRITE };

	for (unsigned n = 0; n < s->book.count; n++) {
		if (!p->changes[n])
			continue;
		a.node = n;
		a.was[n] = p->was[n];
		a.now[n] = p->want[n];
		owner_answer(s, c, &a);
		return true;
	}
	return false;
}

static bool plan_writes(const struct owner_book *b, const struct book_plan *p)
{
	for (unsigned n = 0; n < b->count; n++)
		if (p->changes[n])
			return true;
	return false;
}

/* A change that turns the kernel's auto weights off where the kernel could
 * not turn them back on: refused unless it is meant to stay (root's
 * --keep-weights), and said when it is. Known before anything is written. */
static bool auto_lost(const struct owner_server *s, const struct book_plan *p)
{
	return plan_writes(&s->book, p) && auto_lost_by_write(s->book.count);
}

#define AUTO_LOST_WHY "the kernel's auto weights would stay off until reboot: no node has " \
	"access0 bandwidth, without which Linux cannot turn them back on"

static bool refused_auto_lost(struct owner_server *s, struct owner_conn *c, bool lost)
{
	if (!lost || (c->ask.flags & OWNER_KEEP))
		return false;
	s->log(LOG_NOTICE, "uid %u refused: %s", (unsigned)c->uid, AUTO_LOST_WHY);
	owner_refuse(s, c, OWNER_AUTO_LOST, ENODEV, 0, AUTO_LOST_WHY);
	return true;
}

/* --dry-run: a holder in the way is what the run would wait for (--wait)
 * or override (root's --force), never a change of the book now. */
static bool dry_passes_holder(const struct owner_conn *c)
{
	if (!(c->ask.flags & OWNER_DRY))
		return false;
	return c->ask.wait_ms || ((c->ask.flags & OWNER_FORCE) && c->uid == 0);
}

/* The verdict of a commit that failed, with what F says. */
static void refuse_failed(struct owner_server *s, struct owner_conn *c, enum owner_verdict v,
			  const struct commit_failure *f)
{
	struct owner_answer a = { .version = OWNER_WIRE_VERSION, .verdict = v, .err = f->err,
				  .node = f->node, .auto_off = f->auto_off };

	owner_answer(s, c, &a);
}

/* What the holders, the limits and the rules allow: the verdict of the
 * kernel's auto weights, and the change made (but for --dry-run). FORCE:
 * root's --force over the holders in the way. */
static bool grant_now(struct owner_server *s, struct owner_conn *c, const struct book_plan *p,
		      bool force)
{
	int auto_was = gw_read_auto();
	bool lost = auto_lost(s, p);
	struct commit_failure f = { 0 };
	enum owner_verdict v;

	if (refused_auto_lost(s, c, lost))
		return true;
	if (c->ask.flags & OWNER_DRY) {
		answer_granted(s, c, p, auto_was, lost);
		return true;
	}
	v = commit(s, c, p, force, auto_was, &f);
	if (v != OWNER_GRANTED) {
		refuse_failed(s, c, v, &f);
		return true;
	}
	log_granted(s, c->grant, p, c->ask.flags & OWNER_KEEP);
	/* The book's from now on; a change no job holds leaves it to C. */
	if (held_by_job(c))
		c->grant = NULL;
	answer_granted(s, c, p, auto_was, lost);
	return true;
}

static bool decide(struct owner_server *s, struct owner_conn *c, struct book_plan *p)
{
	const struct grant *holder = NULL;
	unsigned node = 0;
	char why[sizeof(((struct owner_answer *)0)->text)];
	int rc = book_conflict(&s->book, c->ask.weight, &node, &holder);

	if (rc == -ENOENT) {
		owner_refuse(s, c, OWNER_BAD_ASK, ENOENT, node, "the node has no weight file");
		return true;
	}
	bool force = rc == -EBUSY && may_force(c);

	if (rc == -EBUSY && dry_passes_holder(c))
		rc = 0;
	if (rc == -EBUSY && !force)
		return held_elsewhere(s, c, node, holder);
	if (refused_by_limits(s, c))
		return true;
	rc = book_plan(&s->book, c->ask.weight, c->ask.flags & OWNER_AS_IS, force, p, &node);
	if (rc < 0) {
		owner_refuse(s, c, OWNER_WRITE_FAILED, -rc, node, NULL);
		return true;
	}
	if ((c->ask.flags & OWNER_NO_WRITE) && would_write(s, c, p))
		return true;
	if (owner_rules_bind(&c->caller, p->changes, s->book.count))
		book_user_weights(&s->book, c->uid, p->held);
	if (!owner_rules_allow(&s->rules, &c->caller, p->want, p->held, p->changes, s->book.count,
			       why, sizeof(why), &node)) {
		s->log(LOG_NOTICE, "uid %u refused: %s", (unsigned)c->uid, why);
		owner_refuse(s, c, OWNER_REFUSED, 0, node, why);
		return true;
	}
	return grant_now(s, c, p, force);
}

/* True once C is answered (and closed), false while it waits. */
bool owner_try_lease(struct owner_server *s, struct owner_conn *c)
{
	struct book_plan p = { 0 };
	bool answered;

	if (book_plan_alloc(&s->book, &p) < 0) {
		owner_refuse(s, c, OWNER_BUSY, ENOMEM, 0, NULL);
		return true;
	}
	answered = decide(s, c, &p);
	book_plan_free(&p);
	return answered;
}

void owner_retry_waiting(struct owner_server *s)
{
	for (unsigned i = 0; i < s->nconn;) {
		struct owner_conn *c = s->conn[i];

		if (c->state != CONN_WAITING || !owner_try_lease(s, c))
			i++;
	}
}

/* The job must be the process that asked: a pidfd of any other process
 * would let a user hold weights for someone else's job. */
static bool asks_a_node(const struct owner_ask *k)
{
	for (unsigned n = 0; n < OWNER_NODES; n++)
		if (k->weight[n])
			return true;
	return false;
}

void owner_lease_ask(struct owner_server *s, struct owner_conn *c, int pidfd)
{
	struct grant *g;
	int rc;

	if (!asks_a_node(&c->ask)) {
		close(pidfd);
		owner_refuse(s, c, OWNER_BAD_ASK, EINVAL, 0, "a lease must name a node");
		return;
	}
	rc = grant_for_pidfd(pidfd, &g);
	if (rc == -EMFILE || rc == -ENFILE || rc == -ENOMEM) {
		owner_refuse(s, c, OWNER_BUSY, -rc, 0, "the service is out of descriptors or memory");
		return;
	}
	if (rc < 0) {
		owner_refuse(s, c, OWNER_BAD_ASK, -rc, 0, "the job has ended");
		return;
	}
	if (!owner_peer_is(c, g->pid)) {
		grant_free(g);
		owner_refuse(s, c, OWNER_BAD_ASK, EPERM, 0, "the job must be the process that asks");
		return;
	}
	g->uid = c->uid;
	c->grant = g;
	(void)owner_try_lease(s, c);
}

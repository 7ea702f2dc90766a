// SPDX-License-Identifier: GPL-2.0-or-later
/* The global-table transaction: the one sequence by which numactl2 changes
 * the kernel's weights. gw_txn_begin() takes the directory lock that
 * serializes runs; gw_txn_acquire() takes the leases the run asks for (with
 * --wait, again and again) and stages the writes they need; gw_txn_commit()
 * writes them all or, on the first failure, none; gw_txn_end() lets the
 * directory go (the leases a job keeps stay); gw_txn_undo() puts back what
 * was written. The per-node tables have an entry for each node the table can
 * name (gw_node_count()), allocated by gw_txn_alloc(). Under the lock, each
 * try first puts back what jobs that have ended left (settle.c), and the
 * commit saves or redefines the table as it was (baseline.c), as the
 * caller's role says. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "weights/baseline.h"
#include "weights/holders.h"
#include "weights/txn.h"
#include "syscalls.h"

#define LEASE_POLL_MS 20
#define LEASE_ENDED_RETRIES 8

/* Nothing allocated, open or asked: what gw_txn_free(), gw_txn_end(),
 * gw_txn_undo() and gw_txn_any_written() may be given. */
void gw_txn_init(struct gw_txn *t)
{
	memset(t, 0, sizeof(*t));
	t->dirfd = -1;
}

/* Room for every node the table can name, nothing asked yet: 0 or -ENOMEM. */
int gw_txn_alloc(struct gw_txn *t)
{
	unsigned n = gw_node_count();

	t->node = malloc(n * sizeof(t->node[0]));
	if (!t->node || lease_init(&t->lease, n) < 0) {
		gw_txn_free(t);
		return -ENOMEM;
	}
	t->nnodes = n;
	return 0;
}

/* Sets node[] up to NODE (< nnodes): the loops stop at the last node that
 * takes part, not at the last one the machine could have. */
static void reach(struct gw_txn *t, unsigned node)
{
	for (; t->span <= node; t->span++) {
		memset(&t->node[t->span], 0, sizeof(t->node[0]));
		t->node[t->span].fd = -1;
	}
}

void gw_txn_free(struct gw_txn *t)
{
	gw_txn_end(t);
	lease_free(&t->lease);
	free(t->node);
	gw_txn_init(t);
}

/* A node beyond the table has no weight file: asking it anything but "as
 * it is" fails with -ENOENT when its turn comes, after every node below. */
void gw_txn_ask(struct gw_txn *t, unsigned node, enum lease_want kind, unsigned weight)
{
	if (node < t->nnodes) {
		reach(t, node);
		t->node[node].ask.kind = kind;
		t->node[node].ask.weight = (uint8_t)weight;
	} else if (kind != LEASE_AS_IS && kind != LEASE_NOT_ASKED && !t->beyond) {
		t->beyond = node;
	}
}

/* Does the run ask NODE for a weight of its own (*weight)? */
bool gw_txn_asks_weight(const struct gw_txn *t, unsigned node, unsigned *weight)
{
	if (node >= t->span || t->node[node].ask.kind != LEASE_WEIGHT)
		return false;
	*weight = t->node[node].ask.weight;
	return true;
}

/* Takes the directory lock; nothing staged yet (a new try forgets what the
 * last one staged). */
int gw_txn_begin(struct gw_txn *t)
{
	int fd = gw_lock_table();

	if (fd < 0)
		return fd;
	for (unsigned i = 0; i < t->span; i++)
		t->node[i].staged = t->node[i].written = false;
	t->dirfd = fd;
	t->auto_before = gw_read_auto();
	return 0;
}

/* Opens nodeN for writing now, so that a missing file or a missing
 * privilege shows before any weight is written. */
int gw_txn_stage(struct gw_txn *t, unsigned node, unsigned weight)
{
	unsigned old;
	int rc;

	if (node >= t->nnodes)
		return -EINVAL;
	reach(t, node);
	rc = gw_read(node, &old);
	if (rc < 0)
		return rc;
	t->node[node].fd = gw_open_node(node, O_WRONLY | O_CLOEXEC);
	if (t->node[node].fd < 0)
		return t->node[node].fd;
	t->node[node].old = (uint8_t)old;
	t->node[node].new = (uint8_t)weight;
	t->node[node].staged = true;
	return 0;
}

/* Closes what is staged and lets the directory go. The leases stay as they
 * are: a job's, made shared, outlive it. */
void gw_txn_end(struct gw_txn *t)
{
	for (unsigned i = 0; i < t->span; i++) {
		if (t->node[i].fd >= 0)
			close(t->node[i].fd);
		t->node[i].fd = -1;
	}
	if (t->dirfd >= 0)
		close(t->dirfd);
	t->dirfd = -1;
}

/* What failed ends the attempt: no lease, nothing staged, no lock. */
static int abandon(struct gw_txn *t, int rc)
{
	lease_drop(&t->lease);
	gw_txn_end(t);
	return rc;
}

/* With no_write, NODE's weight must already be ASK's: decided under the
 * directory lock, so no other run changes it between this and the lease. */
static int check_no_write(const struct gw_txn *t, unsigned node, struct lease_ask ask)
{
	unsigned cur;

	if (!t->no_write || ask.kind != LEASE_WEIGHT || gw_read(node, &cur) < 0)
		return 0;	/* a weight file that cannot be read: lease_node() says why */
	return cur == ask.weight ? 0 : -EROFS;
}

/* One try: the directory lock, then node by node the leases, and the
 * writes they need staged. */
static int attempt(struct gw_txn *t, struct lease_conflict *c, unsigned *failed_node)
{
	int rc = gw_txn_begin(t);

	if (rc < 0)
		return rc;
	/* --no-global-weights writes nothing, not even that. */
	if (!t->no_write && t->settled.state != SETTLE_DONE) {
		(void)settle_table(&t->settled);
		t->auto_before = gw_read_auto();
	}
	for (unsigned n = 0; n < t->span; n++) {
		unsigned held = 0;

		if (t->node[n].ask.kind == LEASE_NOT_ASKED)
			continue;
		rc = check_no_write(t, n, t->node[n].ask);
		if (rc == 0)
			rc = lease_node(&t->lease, n, t->node[n].ask, t->opt.force, c, &held);
		if (rc > 0)
			rc = gw_txn_stage(t, n, t->node[n].ask.weight);
		if (rc < 0) {
			*failed_node = n;
			return abandon(t, rc);
		}
	}
	if (t->beyond) {
		*failed_node = t->beyond;
		return abandon(t, -ENOENT);
	}
	return 0;
}

/* NODE as gw_txn_check() sees it: -EROFS where --no-global-weights
 * forbids its change, -EBUSY with *c where a live lease holds the weight it
 * would change (without --force or --wait, as attempt() refuses); *WRITE:
 * its weight is to be written. */
static int check_node(const struct gw_txn *t, unsigned node, struct lease_conflict *c, bool *write)
{
	struct lease_ask ask = t->node[node].ask;
	unsigned cur;
	int rc;

	*write = false;
	if (ask.kind != LEASE_WEIGHT || gw_read(node, &cur) < 0 || cur == ask.weight)
		return 0;
	if (t->no_write)
		return -EROFS;
	*write = true;
	if (t->opt.force || t->opt.wait)
		return 0;
	rc = holders_of_node(node, &c->who);
	if (rc < 0 || !c->who.count)
		return rc < 0 ? rc : 0;
	c->node = node;
	c->held = cur;
	c->want = ask.weight;
	return -EBUSY;
}

int gw_txn_check(const struct gw_txn *t, struct lease_conflict *c, unsigned *failed_node)
{
	unsigned first_denied = t->span;

	for (unsigned n = 0; n < t->span; n++) {
		bool write;
		int rc = check_node(t, n, c, &write);

		if (rc < 0) {
			*failed_node = n;
			return rc;
		}
		if (write && first_denied == t->span && !gw_writable(n))
			first_denied = n;
	}
	if (t->beyond) {
		*failed_node = t->beyond;
		return -ENOENT;
	}
	if (first_denied == t->span)
		return 0;
	*failed_node = first_denied;
	return -EACCES;
}

static unsigned long now_ms(void)
{
	struct timespec ts;

	sys_clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)ts.tv_sec * 1000 + (unsigned long)ts.tv_nsec / 1000000;
}

/* Takes the directory lock and the leases the run asks for, staging the
 * writes they need; nothing is written yet. On success the directory lock is
 * still held. -EBUSY with *c: a live lease is in the way (with --wait:
 * still, after wait_secs). */
int gw_txn_acquire(struct gw_txn *t, struct lease_conflict *c, unsigned *failed_node)
{
	const struct timespec poll = { 0, LEASE_POLL_MS * 1000000L };
	unsigned long start = now_ms();
	struct lease *l = &t->lease;
	unsigned ended = 0;

	for (;;) {
		int rc = attempt(t, c, failed_node);
		bool timed_out;

		l->said.waited_ms = (unsigned)(now_ms() - start);
		if (rc == 0)
			rc = lease_name_overridden(l);
		if (rc != -EBUSY)
			return rc;
		timed_out = !t->opt.wait ||
			    (t->opt.wait_secs && l->said.waited_ms >= t->opt.wait_secs * 1000UL);
		if (timed_out || !l->said.waited) {
			rc = holders_of_node(c->node, &c->who);
			if (rc < 0)
				return rc;
			/* Nobody holds it any more: the lease ended since; try again. */
			if (!c->who.count && ++ended < LEASE_ENDED_RETRIES)
				continue;
		}
		if (timed_out)
			return -EBUSY;
		if (!l->said.waited)
			l->said.waited_for = *c;
		l->said.waited = true;
		nanosleep(&poll, NULL);
	}
}

/* Puts back every node written; restoring auto mode recomputes the same
 * weights the kernel had before. Best effort: it is already the error path. */
static void rollback(struct gw_txn *t)
{
	bool any = false;

	for (unsigned i = 0; i < t->span; i++) {
		if (!t->node[i].written)
			continue;
		(void)gw_write(t->node[i].fd, i, t->node[i].old);
		t->node[i].written = false;
		any = true;
	}
	if (any && t->auto_before == GW_AUTO_ON)
		(void)gw_enable_auto();
	if (t->baseline_made)
		baseline_remove();
	t->baseline_made = false;
}

static bool any_staged(const struct gw_txn *t)
{
	for (unsigned n = 0; n < t->span; n++)
		if (t->node[n].staged)
			return true;
	return false;
}

/* Before a job's first write: the table as it is, unless a baseline is
 * there already (an earlier job's, still needed). */
static void save_baseline(struct gw_txn *t)
{
	int rc;

	if (t->role != GW_BASELINE_SAVE || !any_staged(t))
		return;
	rc = baseline_save();
	t->baseline_made = rc > 0;
	t->baseline_err = rc < 0 ? rc : 0;
}

/* After an admin's write or --keep-weights: the nodes written are, from now
 * on, as they were; so is the auto switch as the writes left it. */
static void redefine_baseline(struct gw_txn *t)
{
	struct baseline b;
	int rc;

	if (t->role != GW_BASELINE_REDEFINE || !gw_txn_any_written(t))
		return;
	rc = baseline_read(&b);
	if (rc > 0) {
		for (unsigned n = 0; n < t->span && n < b.count; n++)
			if (t->node[n].written)
				b.weight[n] = t->node[n].new;
		b.auto_mode = gw_read_auto();
		rc = baseline_write(&b);
	}
	baseline_free(&b);
	t->baseline_err = rc < 0 ? rc : 0;
}

/* Writes every staged node. On the first failure (*failed_node) what was
 * written goes back, the leases go and the directory is let go. */
int gw_txn_commit(struct gw_txn *t, unsigned *failed_node)
{
	save_baseline(t);
	/* A job's change that could not be put back after it is no change. */
	if (t->baseline_err < 0)
		return abandon(t, -ENOTRECOVERABLE);
	for (unsigned i = 0; i < t->span; i++) {
		int rc;

		if (!t->node[i].staged)
			continue;
		rc = gw_write(t->node[i].fd, i, t->node[i].new);
		if (rc < 0) {
			*failed_node = i;
			rollback(t);
			return abandon(t, rc);
		}
		t->node[i].written = true;
	}
	lease_clear_overridden(&t->lease);
	redefine_baseline(t);
	return 0;
}

/* The whole change: leases, writes, then the leases a job keeps made shared
 * and the rest dropped, before the directory lock is let go (gw_txn_end() or
 * gw_txn_undo()), so the next run never mistakes a finished change for a
 * lease. */
int gw_txn_change(struct gw_txn *t, struct lease_conflict *c, unsigned *failed_node)
{
	int rc = gw_txn_acquire(t, c, failed_node);

	if (rc < 0)
		return rc;
	rc = gw_txn_commit(t, failed_node);
	if (rc < 0)
		return rc;
	if (t->keep)
		lease_keep(&t->lease);
	else
		lease_drop(&t->lease);
	return 0;
}

/* Before the directory lock is let go: everything back as it was. */
void gw_txn_undo(struct gw_txn *t)
{
	rollback(t);
	abandon(t, 0);
}

bool gw_txn_any_written(const struct gw_txn *t)
{
	for (unsigned n = 0; n < t->span; n++)
		if (t->node[n].written)
			return true;
	return false;
}

/* "node0 1->9, node1 1->1": the staged nodes (also after gw_txn_end()). */
void gw_txn_describe(const struct gw_txn *t, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < t->span && used < len; i++) {
		if (!t->node[i].staged)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%snode%u %u->%u",
					 used ? ", " : "", i, t->node[i].old, t->node[i].new);
	}
}

/* "0:1,1:1": the weights T asks for (WANTED) or, for those nodes, the table's now. */
static void format_weights(const struct gw_txn *t, bool wanted, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned n = 0; n < t->span && used < len; n++) {
		unsigned w;

		if (!gw_txn_asks_weight(t, n, &w) || (!wanted && gw_read(n, &w) < 0))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%u:%u", used ? "," : "", n, w);
	}
}

void gw_txn_say(const struct gw_txn *t, struct gw_txn_said *s)
{
	gw_txn_describe(t, s->changed, sizeof(s->changed));
	s->auto_was_on = t->auto_before == GW_AUTO_ON;
	s->restores = t->role == GW_BASELINE_SAVE;
	s->keep = t->keep;
	s->no_write = t->no_write;
	s->opt = t->opt;
	s->lease = t->lease.said;
	s->settled = t->settled;
	s->asked = false;
	s->want = s->now = 0;
	s->wanted[0] = s->have[0] = '\0';
}

/* The table is read again here, so that a refusal for want of privilege
 * says what it holds now. */
void gw_txn_say_refused(const struct gw_txn *t, unsigned node, struct gw_txn_said *s)
{
	gw_txn_say(t, s);
	s->asked = gw_txn_asks_weight(t, node, &s->want);
	if (!s->asked)
		return;
	(void)gw_read(node, &s->now);
	format_weights(t, true, s->wanted, sizeof(s->wanted));
	format_weights(t, false, s->have, sizeof(s->have));
}

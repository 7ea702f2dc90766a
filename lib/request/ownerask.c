// SPDX-License-Identifier: GPL-2.0-or-later
/* The weights through the table's owner (numactl2d), where it listens:
 * the service alone writes the table, holds the weights for this process
 * (the job once it execs) and puts them back when it ends. Root's change
 * without a job, and --keep-weights, stay (OWNER_KEEP). Where no service
 * listens, the direct path decides as before: root writes, others get the
 * weights in effect. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error/error.h"
#include "libnumactl2.h"
#include "owner/server.h"
#include "owner/wire.h"
#include "request/plan.h"
#include "syscalls.h"
#include "weights/table.h"

static bool release(struct plan *pl, struct job_end *out);

/* What a wait for another job's weights may take, and the answer's margin. */
static int wait_ms(const struct lease_options *o)
{
	if (!o->wait)
		return 0;
	if (!o->wait_secs || o->wait_secs >= OWNER_WAIT_MAX_MS / 1000)
		return OWNER_WAIT_MAX_MS;
	return (int)o->wait_secs * 1000;
}

/* The ask for R's weights: 0, or -ENOENT when it asks no node (-w alone
 * over nodes without a weight file: nothing to hold). */
static int fill_ask(const struct request *r, struct owner_ask *k)
{
	const struct policy *p = r->policy;
	bool any = false;

	memset(k, 0, sizeof(*k));
	k->version = OWNER_WIRE_VERSION;
	k->op = OWNER_LEASE;
	k->flags = p->has_weights ? 0 : OWNER_AS_IS;
	if (geteuid() == 0 && (r->keep_weights || !r->job))
		k->flags |= OWNER_KEEP;
	/* Without a job nothing needs the weights afterwards, nor holds them. */
	if (geteuid() == 0 && !r->job)
		k->flags |= OWNER_NO_JOB;
	if (r->lease.force)
		k->flags |= OWNER_FORCE;
	if (r->no_global)
		k->flags |= OWNER_NO_WRITE;
	k->wait_ms = (uint32_t)wait_ms(&r->lease);
	for (int n = nc2_nodes_first(p->nodes); n >= 0 && n < OWNER_NODES;
	     n = nc2_nodes_next(p->nodes, (unsigned)n + 1)) {
		unsigned w;

		/* -w alone takes the weights as they are: none where none is. */
		if (!p->has_weights && gw_read((unsigned)n, &w) < 0)
			continue;
		k->weight[n] = p->has_weights ? (uint8_t)nc2_policy_weight(p, (unsigned)n) : 1;
		any = true;
	}
	return any ? 0 : -ENOENT;
}

/* What the service changed, as a change of numactl2's own is said: whether
 * anything was written. */
static bool say_change(const struct owner_answer *a, unsigned flags, struct table_said *s)
{
	size_t at = 0;

	memset(s, 0, sizeof(*s));
	for (unsigned n = 0; n < OWNER_NODES && at < sizeof(s->changed); n++)
		if (a->now[n] && a->now[n] != a->was[n])
			at += (size_t)snprintf(s->changed + at, sizeof(s->changed) - at,
					       "%snode%u %u->%u", at ? ", " : "", n, a->was[n],
					       a->now[n]);
	s->restores = at > 0 && !(flags & OWNER_KEEP);
	s->keep = flags & OWNER_KEEP;
	s->auto_was_on = a->auto_off != OWNER_AUTO_UNTOUCHED;
	s->auto_until_reboot = a->auto_off == OWNER_AUTO_OFF_UNTIL_REBOOT;
	return at > 0;
}

static void granted(const struct request *r, struct plan *pl, const struct owner_ask *k,
		    const struct owner_answer *a)
{
	pl->owner_wrote = say_change(a, k->flags, &pl->owner_said);
	/* Without a job there is no after to speak of. */
	if (!r->job)
		pl->owner_said.keep = false;
	pl->owner_kept = k->flags & OWNER_KEEP;
	pl->owner_auto_off = a->auto_off != OWNER_AUTO_UNTOUCHED;
	memcpy(pl->grant->was, a->was, OWNER_NODES);
	memcpy(pl->grant->now, a->now, OWNER_NODES);
	pl->owned = !(k->flags & OWNER_NO_JOB);
}

static const enum owner_refusal said_of[] = {
	[OWNER_REFUSED] = OWNER_SAID_RULE, [OWNER_CONFLICT] = OWNER_SAID_HELD,
	[OWNER_LIMIT] = OWNER_SAID_LIMIT, [OWNER_BAD_ASK] = OWNER_SAID_BAD,
	[OWNER_UNSAVED] = OWNER_SAID_UNSAVED, [OWNER_WRITE_FAILED] = OWNER_SAID_UNWRITTEN,
	[OWNER_NOT_HOLDER] = OWNER_SAID_BAD, [OWNER_BUSY] = OWNER_SAID_LIMIT,
	[OWNER_AUTO_LOST] = OWNER_SAID_AUTO_LOST,
};

static int refused(struct nc2_error *e, const struct owner_ask *k, const struct owner_answer *a,
		   int rc, bool here)
{
	struct owner_refused *o = &e->owner;

	memset(o, 0, sizeof(*o));
	o->by_service = !here;
	if (rc == 0 && a->verdict == OWNER_WOULD_WRITE)
		return error_set(e, REQ_NO_GLOBAL_WRITE, 0);
	(void)error_set_node(e, REQ_OWNER, rc < 0 ? rc : a->err, a->node);
	if (rc < 0) {
		o->said = OWNER_SAID_NOTHING;
		return -1;
	}
	o->said = a->verdict < sizeof(said_of) / sizeof(said_of[0]) &&
		  a->verdict != OWNER_GRANTED ? said_of[a->verdict] : OWNER_SAID_BAD;
	o->pid = a->pid;
	o->uid = a->uid;
	o->held = a->was[a->node];
	o->want = k->weight[a->node];
	o->waited = a->verdict == OWNER_CONFLICT ? k->wait_ms / 1000 : 0;
	o->auto_stays_off = a->auto_off != OWNER_AUTO_UNTOUCHED;
	o->auto_until_reboot = a->auto_off == OWNER_AUTO_OFF_UNTIL_REBOOT;
	snprintf(o->text, sizeof(o->text), "%s", a->text);
	return -1;
}

/* numactl2d where it listens; where none does, root's own owner (the
 * service's code in this process, on its state file: lib/owner/once.c).
 * -ENOENT: neither, for a user who is not root; *HERE: root's own. */
static int call_owner(const struct owner_ask *k, int pidfd, int timeout_ms,
		      struct owner_answer *a, bool *here)
{
	int got = owner_call(k, pidfd, timeout_ms, a);

	*here = false;
	if (got != -ENOENT && got != -ECONNREFUSED)
		return got;
	if (geteuid() != 0)
		return -ENOENT;
	*here = true;
	got = owner_call_here(k, pidfd, a);
	/* Root's own owner that cannot work is an answer, not "no owner". */
	return got == -ENOENT ? -ENOLCK : got;
}

/* The ask, sent: 1 when an owner answered (or failed to: GOT), 0 when
 * there is none (a user who is not root, no service). DRY: its verdict
 * alone. */
static int ask_owner(const struct request *r, bool dry, struct owner_ask *k,
		     struct owner_answer *a, int *got, bool *here)
{
	int pidfd;

	/* A user's change without a job would end with this process: the
	 * direct path says what the table holds. */
	if (geteuid() != 0 && !r->job)
		return 0;
	if (fill_ask(r, k) < 0)
		return 0;
	pidfd = sys_pidfd_open(getpid(), 0);
	if (pidfd < 0)
		return 0;
	if (dry)
		k->flags |= OWNER_DRY;
	*got = call_owner(k, pidfd, dry ? OWNER_ASK_MS * 2 : (int)k->wait_ms + OWNER_ASK_MS * 2, a,
			  here);
	close(pidfd);
	return *got != -ENOENT;
}

/* --dry-run where the service listens: 1 and its verdict in *RC (-1 with E
 * as the run would say it), 0 when none listens. A change that would turn
 * the kernel's auto weights off until reboot is noted in PL. */
int request_dry_owner(const struct request *r, struct plan *pl, struct nc2_error *e, int *rc)
{
	struct owner_ask k;
	struct owner_answer a;
	bool here;
	int got;

	if (!ask_owner(r, true, &k, &a, &got, &here))
		return 0;
	*rc = got == 0 && a.verdict == OWNER_GRANTED ? 0 : refused(e, &k, &a, got, here);
	pl->dry_auto_gone = *rc == 0 && a.auto_off == OWNER_AUTO_OFF_UNTIL_REBOOT;
	return 1;
}

int request_ask_owner(const struct request *r, struct plan *pl, struct nc2_error *e, int *rc)
{
	struct owner_ask k;
	struct owner_answer a;
	int got;

	if (!pl->grant && !(pl->grant = malloc(sizeof(*pl->grant)))) {
		*rc = error_set(e, REQ_NOMEM_WEIGHTS, ENOMEM);
		return 1;
	}
	if (!ask_owner(r, false, &k, &a, &got, &pl->owner_here))
		return 0;
	pl->table_taken = true;
	pl->owner_pid = getpid();
	if (got == 0 && a.verdict == OWNER_GRANTED) {
		granted(r, pl, &k, &a);
		*rc = 0;
	} else {
		*rc = refused(e, &k, &a, got, pl->owner_here);
	}
	return 1;
}

/* The admin's change: weights that stay (OWNER_KEEP), asked for this
 * process, which ends right after: no job holds them (OWNER_NO_JOB). */
static void fill_admin(enum admin_op op, const struct weight_list *wl,
		       const struct lease_options *o, struct owner_ask *k)
{
	unsigned count = gw_node_count();
	bool has[OWNER_NODES];

	memset(k, 0, sizeof(*k));
	k->version = OWNER_WIRE_VERSION;
	k->op = op == ADMIN_AUTO ? OWNER_AUTO : OWNER_LEASE;
	k->flags = OWNER_KEEP | OWNER_NO_JOB | (o->force ? OWNER_FORCE : 0);
	k->wait_ms = (uint32_t)wait_ms(o);
	if (op == ADMIN_SET)
		for (unsigned n = 0; n <= wl->max_node && n < OWNER_NODES; n++)
			k->weight[n] = wl->weight[n];
	if (op == ADMIN_RESET && gw_nodes(has, count < OWNER_NODES ? count : OWNER_NODES) == 0)
		for (unsigned n = 0; n < count && n < OWNER_NODES; n++)
			k->weight[n] = has[n];
}

/* What the kernel lacks for OP: a fault, or 0. */
static enum nc2_fault admin_unsupported(enum admin_op op)
{
	if (!gw_present())
		return REQ_NO_GLOBAL_TABLE;
	if (op == ADMIN_AUTO && gw_read_auto() == GW_AUTO_ABSENT)
		return REQ_NO_AUTO_WEIGHTS;
	return 0;
}

/* The admin's ask, with FLAGS besides: 0 when granted, with its answer in
 * A, or -1 and E says why. */
static int admin_ask(enum admin_op op, const struct weight_list *wl,
		     const struct lease_options *o, uint32_t flags, struct owner_answer *a,
		     struct nc2_error *e)
{
	enum nc2_fault unsupported = admin_unsupported(op);
	struct owner_ask k;
	int pidfd;
	bool here;
	int got;

	error_clear(e);
	memset(a, 0, sizeof(*a));
	if (unsupported)
		return error_set(e, unsupported, 0);
	pidfd = sys_pidfd_open(getpid(), 0);
	fill_admin(op, wl, o, &k);
	k.flags |= flags;
	got = pidfd < 0 ? -errno : call_owner(&k, pidfd, (int)k.wait_ms + OWNER_ASK_MS * 2, a, &here);
	if (pidfd >= 0)
		close(pidfd);
	if (got == -ENOENT) {
		/* A user who is not root, and no numactl2d to ask. */
		memset(&e->table, 0, sizeof(e->table));
		return error_set(e, REQ_GLOBAL_REFUSED, 0);
	}
	if (got < 0 || a->verdict != OWNER_GRANTED)
		return refused(e, &k, a, got, here);
	return 0;
}

int nc2_request_admin_owner(enum admin_op op, const struct weight_list *wl,
			const struct lease_options *o, struct table_said *said,
			struct nc2_error *e)
{
	struct owner_answer a;

	memset(said, 0, sizeof(*said));
	if (admin_ask(op, wl, o, 0, &a, e) < 0)
		return -1;
	(void)say_change(&a, OWNER_KEEP, said);
	/* An admin's change is no job's: nothing to say of after. */
	said->keep = false;
	return 0;
}

int nc2_request_admin_dry(enum admin_op op, const struct weight_list *wl,
		      const struct lease_options *o, struct nc2_error *e)
{
	struct owner_answer a;

	return admin_ask(op, wl, o, OWNER_DRY, &a, e);
}

/* --weights=auto for a user who cannot read HMAT: the service's rows give
 * the weights root gets. Where they do not, AW is read again as it was. */
int request_owner_rows(const struct request *r, struct auto_weights *aw)
{
	struct owner_rows *rows = malloc(sizeof(*rows));
	unsigned bad_node;
	int rc = rows ? owner_rows_read(OWNER_ASK_MS * 2, rows) : -ENOMEM;

	if (rc == 0) {
		memset(aw, 0, sizeof(*aw));
		rc = auto_weights_read_rows(r->policy->nodes, r->cpunodes, r->cpus, &rows->rows, aw,
					    &bad_node);
		if (rc < 0) {
			memset(aw, 0, sizeof(*aw));
			(void)auto_weights_read(r->policy->nodes, r->cpunodes, r->cpus, aw, &bad_node);
		}
	}
	aw->via_owner = rc == 0;
	free(rows);
	return rc;
}

static void add_node(char *buf, size_t len, const char *fmt, unsigned node, unsigned a, unsigned b)
{
	size_t at = strlen(buf);

	if (at)
		at += (size_t)snprintf(buf + at, len - at, ", ");
	if (at < len)
		snprintf(buf + at, len - at, fmt, node, a, b);
}

/* What the release A did to each node this run changed: back as it was,
 * or left as it is (another job holds it, or it was changed since). */
static void say_released(const struct plan *pl, const struct owner_answer *a,
			 struct job_end *out)
{
	for (unsigned n = 0; n < OWNER_NODES; n++) {
		if (!pl->grant->now[n] || pl->grant->now[n] == pl->grant->was[n])
			continue;
		if (a->now[n] == pl->grant->was[n])
			add_node(out->put_back, sizeof(out->put_back), "node%u %u->%u", n,
				 pl->grant->now[n], a->now[n]);
		else
			add_node(out->left, sizeof(out->left), "node%u at %u (was %u: another job "
				 "holds it, or it changed since)", n, a->now[n], pl->grant->was[n]);
	}
}

/* A release the owner did not answer (GOT, A): a job's change it wrote
 * stays until the owner finds the job ended. A job the owner no longer
 * holds was put back at its end (OWNER_NOT_HOLDER); a kept change is
 * undone apart (unkeep()). */
static void release_unanswered(struct plan *pl, int got, const struct owner_answer *a)
{
	if (!pl->owner_wrote || pl->owner_kept || (got == 0 && a->verdict == OWNER_NOT_HOLDER))
		return;
	snprintf(pl->owner_stays, sizeof(pl->owner_stays), "what this run changed stays until "
		 "the table's owner finds the job ended (it did not answer: %s)",
		 strerror(got < 0 ? -got : a->err ? a->err : EPROTO));
}

/* The job never ran, or --restore-weights at its end: the owner puts back
 * what it alone held for it, before answering; OUT (or NULL) says what,
 * and the plan's owner_stays what could not go back. */
static bool release(struct plan *pl, struct job_end *out)
{
	struct owner_ask k = { .version = OWNER_WIRE_VERSION, .op = OWNER_RELEASE };
	struct owner_answer a;
	bool here;
	int got;

	if (!pl->owned)
		return pl->owner_wrote;
	pl->owned = false;
	k.pid = (uint32_t)pl->owner_pid;
	got = call_owner(&k, -1, OWNER_ASK_MS * 2, &a, &here);
	if (got < 0 || a.verdict != OWNER_RELEASED) {
		release_unanswered(pl, got, &a);
		return pl->owner_wrote;
	}
	snprintf(pl->owner_stays, sizeof(pl->owner_stays), "%s", a.text);
	if (out)
		say_released(pl, &a, out);
	return pl->owner_wrote;
}

bool request_release_owner(struct plan *pl)
{
	return release(pl, NULL);
}

/* An ask of this process's own, answered: 0, or -errno (-EPROTO: it was
 * not granted; A says why). */
static int ask_here(struct owner_ask *k, struct owner_answer *a)
{
	int pidfd = sys_pidfd_open(getpid(), 0);
	bool here;
	int got;

	if (pidfd < 0)
		return -errno;
	got = call_owner(k, pidfd, OWNER_ASK_MS * 2, a, &here);
	close(pidfd);
	if (got == 0 && a->verdict != OWNER_GRANTED)
		return -EPROTO;
	return got;
}

/* The hold a granted ask of ask_here() left for this process, given back:
 * a kept change's hold only decided whether it could be made. */
static void drop_own_hold(void)
{
	struct owner_ask k = { .version = OWNER_WIRE_VERSION, .op = OWNER_RELEASE,
			       .pid = (uint32_t)getpid() };
	struct owner_answer a;
	bool here;

	(void)call_owner(&k, -1, OWNER_ASK_MS * 2, &a, &here);
}

/* The kernel's auto weights, which the kept change switched off, on again:
 * what keeps them off is said in PL->owner_stays. */
static void unkeep_auto(struct plan *pl)
{
	struct owner_ask k = { .version = OWNER_WIRE_VERSION, .op = OWNER_AUTO };
	struct owner_answer a;
	int rc = ask_here(&k, &a);
	char why[160];

	if (rc == 0)
		return;
	if (rc == -EPROTO && a.verdict == OWNER_CONFLICT)
		snprintf(why, sizeof(why), "PID %u (%.64s) holds node %u", a.pid, a.text, a.node);
	else if (rc == -EPROTO && a.err == ENODEV)
		snprintf(why, sizeof(why), "the kernel cannot turn them back on: no node has "
			 "bandwidth data");
	else
		snprintf(why, sizeof(why), "%s", strerror(rc == -EPROTO ? a.err : -rc));
	snprintf(pl->owner_stays, sizeof(pl->owner_stays), "the kernel's auto weights stay off "
		 "(%.150s)", why);
}

/* A change that stays (no job, or --keep-weights), undone because the run
 * failed after it: the nodes it wrote asked back at what they were, and
 * the auto switch it turned off on again; what could not go back is said
 * in PL->owner_stays, the nodes put back in OUT (or NULL). */
static void unkeep(struct plan *pl, struct job_end *out)
{
	struct owner_ask k = { .version = OWNER_WIRE_VERSION, .op = OWNER_LEASE,
			       .flags = OWNER_KEEP | OWNER_NO_JOB };
	struct owner_answer a;
	int rc;

	for (unsigned n = 0; n < OWNER_NODES; n++)
		if (pl->grant->now[n] && pl->grant->now[n] != pl->grant->was[n])
			k.weight[n] = pl->grant->was[n];
	rc = ask_here(&k, &a);
	if (rc < 0) {
		snprintf(pl->owner_stays, sizeof(pl->owner_stays), "the weights it changed stay "
			 "(the table's owner did not put them back: %.120s)",
			 rc == -EPROTO && a.text[0] ? a.text :
			 strerror(rc == -EPROTO ? a.err : -rc));
		return;
	}
	drop_own_hold();
	for (unsigned n = 0; out && n < OWNER_NODES; n++)
		if (k.weight[n])
			add_node(out->put_back, sizeof(out->put_back), "node%u %u->%u", n,
				 pl->grant->now[n], k.weight[n]);
	if (pl->owner_auto_off)
		unkeep_auto(pl);
}

bool request_undo_owner(struct plan *pl, struct job_end *out)
{
	bool wrote = pl->owner_wrote;

	pl->owner_stays[0] = '\0';
	/* The hold first: this run's own would be in the way of its undo. */
	(void)release(pl, NULL);
	if (wrote && pl->owner_kept)
		unkeep(pl, out);
	pl->owner_wrote = false;
	return wrote;
}

void request_release_said(struct plan *pl, struct job_end *out)
{
	(void)release(pl, out);
}

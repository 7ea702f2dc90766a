// SPDX-License-Identifier: GPL-2.0-or-later
/* The owner's book: per node, how many grants hold it and at which weight,
 * and what it was before the owner wrote it. A node goes back to that
 * weight once no grant holds it; the kernel's auto switch goes back on
 * once no node is changed. Writes are all-or-nothing: a failed one undoes
 * the others of the same ask. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "owner/book.h"
#include "weights/table.h"

int book_init(struct owner_book *b)
{
	memset(b, 0, sizeof(*b));
	b->count = gw_node_count();
	b->has = calloc(b->count, sizeof(*b->has));
	b->holders = calloc(b->count, sizeof(*b->holders));
	b->held = calloc(b->count, 1);
	b->base = calloc(b->count, 1);
	b->changed = calloc(b->count, sizeof(*b->changed));
	b->base_auto = GW_AUTO_ABSENT;
	if (!b->has || !b->holders || !b->held || !b->base || !b->changed) {
		book_free(b);
		return -ENOMEM;
	}
	return gw_nodes(b->has, b->count);
}

void grant_free(struct grant *g)
{
	if (g->pidfd >= 0)
		close(g->pidfd);
	free(g->hold);
	free(g->line);
	free(g);
}

void book_free(struct owner_book *b)
{
	for (unsigned i = 0; i < b->ngrants; i++)
		grant_free(b->grant[i]);
	free(b->grant);
	free(b->has);
	free(b->holders);
	free(b->held);
	free(b->base);
	free(b->changed);
	memset(b, 0, sizeof(*b));
}

int book_plan_alloc(const struct owner_book *b, struct book_plan *p)
{
	p->changes = calloc(b->count, sizeof(*p->changes));
	p->was = calloc(b->count, 1);
	p->want = calloc(b->count, 1);
	p->held = calloc(b->count, 1);
	if (p->changes && p->was && p->want && p->held)
		return 0;
	book_plan_free(p);
	return -ENOMEM;
}

void book_plan_free(struct book_plan *p)
{
	free(p->changes);
	free(p->was);
	free(p->want);
	free(p->held);
	memset(p, 0, sizeof(*p));
}

/* G's weight for NODE, 0 where it holds none: its list is short (the
 * nodes of one job). */
uint8_t grant_weight(const struct grant *g, unsigned node)
{
	for (unsigned i = 0; i < g->nholds; i++)
		if (g->hold[i].node == node)
			return g->hold[i].weight;
	return 0;
}

static const struct grant *holder_of(const struct owner_book *b, unsigned node)
{
	for (unsigned i = 0; i < b->ngrants; i++)
		if (grant_weight(b->grant[i], node))
			return b->grant[i];
	return NULL;
}

/* -EBUSY when a grant holds an asked node at another weight (NODE, HOLDER);
 * -ENOENT when an asked node has no weight file. */
int book_conflict(const struct owner_book *b, const uint8_t *ask, unsigned *node,
		  const struct grant **holder)
{
	for (unsigned n = 0; n < b->count; n++) {
		if (!ask[n])
			continue;
		*node = n;
		if (!b->has[n])
			return -ENOENT;
		if (b->holders[n] && ask[n] != b->held[n]) {
			*holder = holder_of(b, n);
			return -EBUSY;
		}
	}
	return 0;
}

/* G's line in the state file no longer says what it holds. */
static void grant_line_drop(struct grant *g)
{
	free(g->line);
	g->line = NULL;
}

/* Every holder of NODE holds W from now on (root's --force, or its undo).
 * How many holds changed. */
unsigned book_hold_as(struct owner_book *b, unsigned node, uint8_t w)
{
	unsigned k = 0;

	for (unsigned i = 0; i < b->ngrants; i++) {
		struct grant *g = b->grant[i];

		for (unsigned h = 0; h < g->nholds; h++)
			if (g->hold[h].node == node && g->hold[h].weight != w) {
				g->hold[h].weight = w;
				grant_line_drop(g);
				k++;
			}
	}
	b->held[node] = w;
	return k;
}

/* Root's --force: every holder of an asked node holds the weight asked from
 * now on. How many holds changed. */
unsigned book_override(struct owner_book *b, const uint8_t *ask)
{
	unsigned k = 0;

	for (unsigned n = 0; n < b->count; n++)
		if (ask[n] && b->holders[n] && b->held[n] != ask[n])
			k += book_hold_as(b, n, ask[n]);
	return k;
}

/* What ASK would write: each asked node the table does not hold at that
 * weight. AS_IS: the weights held or in the table, whatever they are.
 * FORCE: ASK over the weights held (book_override(), at the commit). */
int book_plan(const struct owner_book *b, const uint8_t *ask, bool as_is, bool force,
	      struct book_plan *p, unsigned *node)
{
	for (unsigned n = 0; n < b->count; n++) {
		unsigned now;
		int rc;

		p->changes[n] = false;
		p->was[n] = p->want[n] = 0;
		if (!ask[n])
			continue;
		*node = n;
		rc = gw_read(n, &now);
		if (rc < 0)
			return rc;
		p->was[n] = (uint8_t)nc2_weight_effective(now);
		p->want[n] = b->holders[n] && !force ? b->held[n] : as_is ? p->was[n] : ask[n];
		p->changes[n] = p->want[n] != p->was[n];
	}
	return 0;
}

bool book_any_changed(const struct owner_book *b)
{
	for (unsigned n = 0; n < b->count; n++)
		if (b->changed[n])
			return true;
	return false;
}

/* Root's change that stays: each node it asks is, from now on, as it
 * leaves it, even one a job holds (the weight it holds stays when that job
 * ends), and the kernel's auto mode does not come back over it. */
static void stage_kept(struct owner_book *b, const struct book_plan *p)
{
	for (unsigned n = 0; n < b->count; n++)
		if (p->want[n])
			b->changed[n] = false;
	b->base_auto = GW_AUTO_ABSENT;
}

/* Before the write, so that the state saved says how to put it back: each
 * node's weight before, and the auto switch before the first change. KEEP:
 * the change stays (root's --keep-weights): what it writes is the new
 * weight to go back to. */
void book_stage(struct owner_book *b, const struct book_plan *p, bool keep)
{
	bool first = !book_any_changed(b);

	if (keep) {
		stage_kept(b, p);
		return;
	}
	for (unsigned n = 0; n < b->count; n++) {
		if (!p->changes[n] || b->changed[n])
			continue;
		if (first) {
			b->base_auto = gw_read_auto();
			first = false;
		}
		b->base[n] = p->was[n];
		b->changed[n] = true;
	}
}

static int write_node(unsigned n, unsigned w)
{
	int fd = gw_open_node(n, O_WRONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return fd;
	rc = gw_write(fd, n, w);
	close(fd);
	return rc;
}

/* Every change of P, or none: on a failure the nodes written go back. */
int book_write(const struct owner_book *b, const struct book_plan *p, unsigned *node)
{
	for (unsigned n = 0; n < b->count; n++) {
		int rc;

		if (!p->changes[n])
			continue;
		rc = write_node(n, p->want[n]);
		if (rc == 0)
			continue;
		*node = n;
		for (unsigned m = 0; m < n; m++)
			if (p->changes[m])
				(void)write_node(m, p->was[m]);
		return rc;
	}
	return 0;
}

/* G's list of holds: each node WEIGHT gives (0: none). */
static int grant_set(const struct owner_book *b, struct grant *g, const uint8_t *weight)
{
	unsigned k = 0;

	for (unsigned n = 0; n < b->count; n++)
		k += weight[n] != 0;
	free(g->hold);
	grant_line_drop(g);
	g->nholds = 0;
	/* A grant of no node (a state file's line with none) holds nothing:
	 * one slot all the same, as malloc(0) may be NULL. */
	g->hold = malloc((k ? k : 1) * sizeof(*g->hold));
	if (!g->hold)
		return -ENOMEM;
	for (unsigned n = 0; n < b->count; n++)
		if (weight[n])
			g->hold[g->nholds++] = (struct grant_hold){ (uint16_t)n, weight[n] };
	return 0;
}

/* G holds WEIGHT (per node, 0 for none) from now on. */
int book_add(struct owner_book *b, struct grant *g, const uint8_t *weight)
{
	if (b->ngrants == b->cap) {
		unsigned cap = b->cap ? b->cap * 2 : 64;
		struct grant **grown = realloc(b->grant, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		b->grant = grown;
		b->cap = cap;
	}
	if (grant_set(b, g, weight) < 0)
		return -ENOMEM;
	for (unsigned h = 0; h < g->nholds; h++) {
		b->holders[g->hold[h].node]++;
		b->held[g->hold[h].node] = g->hold[h].weight;
	}
	b->grant[b->ngrants++] = g;
	return 0;
}

/* Per node, the largest weight UID's jobs hold there, into HELD. */
void book_user_weights(const struct owner_book *b, uid_t uid, uint8_t *held)
{
	memset(held, 0, b->count);
	for (unsigned i = 0; i < b->ngrants; i++) {
		const struct grant *g = b->grant[i];

		if (g->uid != uid)
			continue;
		for (unsigned h = 0; h < g->nholds; h++)
			if (g->hold[h].weight > held[g->hold[h].node])
				held[g->hold[h].node] = g->hold[h].weight;
	}
}

unsigned book_user_grants(const struct owner_book *b, uid_t uid)
{
	unsigned k = 0;

	for (unsigned i = 0; i < b->ngrants; i++)
		k += b->grant[i]->uid == uid;
	return k;
}

/* The grant of the job whose pid is PID: its index, or -1. */
int book_find(const struct owner_book *b, pid_t pid)
{
	for (unsigned i = 0; i < b->ngrants; i++)
		if (b->grant[i]->pid == pid)
			return (int)i;
	return -1;
}

/* printf's FMT appended to out->stays, "; " between two. */
__attribute__((format(printf, 2, 3)))
static void say_stays(struct book_putback *out, const char *fmt, ...)
{
	size_t at = strlen(out->stays);
	va_list ap;

	if (at && at < sizeof(out->stays))
		at += (size_t)snprintf(out->stays + at, sizeof(out->stays) - at, "; ");
	if (at >= sizeof(out->stays))
		return;
	va_start(ap, fmt);
	vsnprintf(out->stays + at, sizeof(out->stays) - at, fmt, ap);
	va_end(ap);
}

/* Node n could not go back to its weight before (rc): what it holds now. */
static void node_stays(struct book_putback *out, const struct owner_book *b, unsigned n, int rc)
{
	unsigned now;

	if (gw_read(n, &now) == 0)
		say_stays(out, "node %u stays %u (not back to %u: %s)", n, nc2_weight_effective(now),
			  b->base[n], strerror(-rc));
	else
		say_stays(out, "node %u stays changed (not back to %u: %s)", n, b->base[n],
			  strerror(-rc));
}

/* With no node changed, the kernel's auto switch as it was; what keeps it
 * off is said. */
static void settle_auto(struct owner_book *b, struct book_putback *out)
{
	int rc;

	if (b->base_auto != GW_AUTO_ON)
		return;
	if (out->failed) {
		say_stays(out, "the kernel's auto weights stay off until those nodes are back");
		return;
	}
	if (book_any_changed(b))
		return;
	rc = gw_enable_auto();
	out->auto_err = rc == 0 ? 1 : rc;
	b->base_auto = GW_AUTO_ABSENT;
	if (rc == -ENODEV)
		say_stays(out, "the kernel's auto weights stay off (the kernel cannot turn them "
			  "back on: no node has bandwidth data)");
	else if (rc < 0)
		say_stays(out, "the kernel's auto weights stay off (%s)", strerror(-rc));
}

/* Every changed node no grant holds goes back; then, with none changed,
 * the kernel's auto switch as it was. What failed is counted and said
 * (out->stays), never dropped: the service logs it. */
void book_settle(struct owner_book *b, struct book_putback *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	for (unsigned n = 0; n < b->count; n++) {
		if (!b->changed[n] || b->holders[n])
			continue;
		rc = write_node(n, b->base[n]);
		if (rc == 0) {
			b->changed[n] = false;
			out->written++;
			continue;
		}
		node_stays(out, b, n, rc);
		out->failed++;
	}
	settle_auto(b, out);
}

/* Grant I no longer holds anything (book_settle() then puts back what it
 * alone held). The grant itself is the caller's to free: the service frees
 * it once no event of this round can name it. */
struct grant *book_remove(struct owner_book *b, unsigned i)
{
	struct grant *g = b->grant[i];

	for (unsigned h = 0; h < g->nholds; h++)
		b->holders[g->hold[h].node]--;
	b->grant[i] = b->grant[--b->ngrants];
	return g;
}

/* Which grant G is: its index, or -1 once it holds nothing. */
int book_index(const struct owner_book *b, const struct grant *g)
{
	for (unsigned i = 0; i < b->ngrants; i++)
		if (b->grant[i] == g)
			return (int)i;
	return -1;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* A user who is not root, where no numactl2d listens: only the table's
 * owner writes the table or holds weights, and there is none to ask. The
 * weights asked must be those in effect; -w alone takes them as they are.
 * Nothing is held: root may change them while the job runs. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "error/error.h"
#include "libnumactl2.h"
#include "request/plan.h"
#include "weights/table.h"

static void add(char *buf, size_t len, unsigned node, unsigned weight)
{
	size_t at = strlen(buf);

	snprintf(buf + at, len - at, "%s%u:%u", at ? "," : "", node, weight);
}

/* The first node whose weight in the table is not the one asked, into T
 * (with every weight asked and the table's): the node, -1 for none, or
 * -2 - node for a node the table cannot read. */
static int first_other(const struct policy *p, struct table_said *t)
{
	int other = -1;

	for (int n = nc2_nodes_first(p->nodes); n >= 0; n = nc2_nodes_next(p->nodes, (unsigned)n + 1)) {
		unsigned w, want = nc2_policy_weight(p, (unsigned)n);

		if (gw_read((unsigned)n, &w) < 0)
			return -2 - n;
		w = nc2_weight_effective(w);
		add(t->wanted, sizeof(t->wanted), (unsigned)n, want);
		add(t->have, sizeof(t->have), (unsigned)n, w);
		if (w != want && other < 0) {
			other = n;
			t->want = want;
			t->now = w;
		}
	}
	return other;
}

int request_in_effect(const struct request *r, struct nc2_error *e)
{
	struct table_said *t = &e->table;
	int node;

	if (!r->policy->has_weights)
		return 0;
	memset(t, 0, sizeof(*t));
	node = first_other(r->policy, t);
	if (node == -1)
		return 0;
	t->asked = node >= 0;
	t->keep = r->job;
	if (r->no_global)
		return error_set(e, REQ_NO_GLOBAL_WRITE, 0);
	if (node < 0)
		return error_set_node(e, REQ_NO_GLOBAL_WEIGHT, 0, (unsigned)(-2 - node));
	return error_set_node(e, REQ_GLOBAL_REFUSED, 0, (unsigned)node);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* --dry-run's lines of what the library would do, written to the FILE * a
 * front end gives: a plan's weights, where they go and the holders in their
 * way, the libnuma check it did not run, --weights=auto's bandwidths; and
 * what --set or --reset-global-weights would write. */
#include <errno.h>
#include <stdio.h>

#include "bandwidth/autoweights.h"
#include "error/error.h"
#include "job/libnumacheck.h"
#include "libnumactl2.h"
#include "owner/autoback.h"
#include "owner/wire.h"
#include "print/planprint.h"
#include "weights/target.h"
#include "weights/view.h"

struct holder_print {
	FILE *out;
	const struct policy *p;
};

/* Holder A's weights on the nodes of the set, and whether this run would
 * clash with them. */
static void print_holder(const struct owner_answer *a, void *arg)
{
	const struct holder_print *h = arg;

	for (int n = nc2_nodes_first(h->p->nodes); n >= 0 && n < OWNER_NODES;
	     n = nc2_nodes_next(h->p->nodes, (unsigned)n + 1)) {
		unsigned held = a->was[n];
		unsigned want = h->p->has_weights ? nc2_policy_weight(h->p, (unsigned)n) : held;

		if (held)
			fprintf(h->out, "holder: node %d weight %u pid %u command %s (%s)\n", n,
				held, a->pid, a->text, want == held ? "shared with this run" :
				"in the way: this run needs another weight");
	}
}

static void print_holders(FILE *out, const struct policy *p)
{
	struct holder_print h = { .out = out, .p = p };

	(void)owner_each_holder(print_holder, &h);
}

static void print_target(FILE *out, const struct policy *p, const struct plan_lines *pl)
{
	if (p->task_local)
		fprintf(out, "weights go to: %s, this program's own\n",
			weights_target_name(WEIGHTS_TASK_LOCAL));
	else if (pl->why == WHY_ONE_NODE)
		fprintf(out, "weights go to: nowhere: one node needs none, and the global table "
			"is left as it is\n");
	else if (p->has_weights)
		fprintf(out, "weights go to: %s, which every weighted-interleave task uses\n",
			weights_target_name(WEIGHTS_GLOBAL));
	else
		fprintf(out, "weights go to: none changed; the weights in effect are used\n");
}

static int print_weights(FILE *out, const struct policy *p, const struct plan_lines *pl)
{
	struct weights_view v;

	if (weights_view_read(&v) < 0)
		return -ENOMEM;
	fprintf(out, "weights:");
	for (int n = nc2_nodes_first(p->nodes); n >= 0; n = nc2_nodes_next(p->nodes, (unsigned)n + 1)) {
		int w = weights_view_weight(&v, (unsigned)n);

		if (p->has_weights)
			w = (int)nc2_policy_weight(p, (unsigned)n);
		fprintf(out, " %d:%d", n, w < 0 ? 1 : w);
	}
	fprintf(out, "\n");
	print_target(out, p, pl);
	if (pl->table_change && v.present)
		print_holders(out, p);
	weights_view_free(&v);
	return 0;
}

/* A change the run may make (root's, kept) that turns the kernel's auto
 * weights off where Linux cannot turn them back on (lib/owner/grant.c). */
static void print_auto_gone(FILE *out)
{
	fprintf(out, "kernel auto weights: switched off until reboot by this change (no node "
		"has access0 bandwidth to turn them back on)\n");
}

/* The libnuma check's question that --dry-run does not ask (resolve.c). */
static void print_libnuma(FILE *out, const struct policy *p, const struct plan_lines *pl)
{
	const struct libnuma_finding *f = pl->libnuma;

	if (!f || !p->task_local || f->verdict != LIBNUMA_NOT_ASKED)
		return;
	fprintf(out, "libnuma check: not run (--dry-run runs nothing); the run asks %s, the "
		"loader of %s, which libnuma it loads, and with libnuma 2.0.15-2.0.17 the "
		"weights go to the global table instead\n", f->lib, f->prog);
}

int plan_print_weights(FILE *out, const struct request *r, const struct plan_lines *pl,
		       struct nc2_error *e)
{
	const struct policy *p = r->policy;

	if (pl->measured)
		fprintf(out, "weights: measured when it runs, from the CPUs it runs on (--measure "
			"shows them now)\n");
	else if (p->mode == MPOL_WEIGHTED_INTERLEAVE && print_weights(out, p, pl) < 0)
		return error_set(e, NC2_LEASES_UNLISTED, ENOMEM);
	if (pl->auto_gone)
		print_auto_gone(out);
	print_libnuma(out, p, pl);
	if (pl->aw)
		auto_weights_print(out, pl->aw);
	return 0;
}

/* Would --set-global-weights=WL (NULL: --reset-global-weights, 1 on every
 * node) write a node of the table V? */
static bool admin_writes(const struct weights_view *v, const struct weight_list *wl)
{
	for (unsigned n = 0; n < v->nnodes; n++) {
		unsigned want = !wl ? 1 : n <= wl->max_node ? wl->weight[n] : 0;
		int now = weights_view_weight(v, n);

		if (want && now >= 0 && nc2_weight_effective((unsigned)now) != want)
			return true;
	}
	return false;
}

int nc2_admin_print_set(FILE *out, const struct weight_list *wl, struct nc2_error *e)
{
	unsigned named = wl ? wl->max_node + 1 : 0;
	struct weights_view v;
	bool auto_gone;

	if (weights_view_read(&v) < 0)
		return error_set(e, NC2_LEASES_UNLISTED, ENOMEM);
	auto_gone = admin_writes(&v, wl) && auto_lost_by_write(v.nnodes);
	if (wl)
		v.nnodes = 0;	/* a set names its nodes; a reset puts 1 in every one */
	fprintf(out, "would set global interleave weights:");
	for (unsigned n = 0; n < named || n < v.nnodes; n++) {
		if (n < named && wl->weight[n])
			fprintf(out, " %u:%u", n, wl->weight[n]);
		else if (weights_view_weight(&v, n) >= 0)
			fprintf(out, " %u:1", n);
	}
	fprintf(out, "\n");
	if (auto_gone)
		print_auto_gone(out);
	weights_view_free(&v);
	return 0;
}

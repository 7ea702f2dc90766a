// SPDX-License-Identifier: GPL-2.0-or-later
/* --show: the calling task's policy and bindings, in numactl's lines, and
 * the weights in effect; --pid --show's lines for another process; written
 * to the FILE * a front end gives. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "error/error.h"
#include "libnumactl2.h"
#include "policy/mpol2.h"
#include "policy/policy.h"
#include "owner/wire.h"
#include "print/show.h"
#include "syscalls.h"
#include "weights/view.h"

static int print_physcpubind(FILE *out, struct nc2_error *e)
{
	int ncpus = numa_num_configured_cpus();

	for (;;) {
		struct bitmask *cpus = numa_bitmask_alloc((unsigned)ncpus);

		if (numa_sched_getaffinity(0, cpus) < 0) {
			int rc = -errno;

			numa_bitmask_free(cpus);
			if (rc == -EINVAL && ncpus < 1024 * 1024) {
				ncpus *= 2;
				continue;
			}
			return error_set_call(e, "sched_getaffinity", rc);
		}
		nc2_nodes_fprint(out, "physcpubind", cpus);
		numa_bitmask_free(cpus);
		return 0;
	}
}

/* The weights in effect for the nodes of the mask: the task's own where
 * get_mempolicy2 says it has them, else the global ones, which is what
 * numactl 2.0.19 prints too. */
static void print_weights(FILE *out, const struct bitmask *mask, const struct mpol2_state *own,
			  const struct weights_view *v)
{
	enum gw_auto mode = own ? GW_AUTO_ABSENT : v->mode;

	fprintf(out, "interleaveweights:");
	for (int n = nc2_nodes_first(mask); n >= 0; n = nc2_nodes_next(mask, (unsigned)n + 1)) {
		if (own)
			fprintf(out, " %u", own->weight[n]);
		else if (weights_view_weight(v, (unsigned)n) >= 0)
			fprintf(out, " %d", weights_view_weight(v, (unsigned)n));
	}
	fprintf(out, "\nweightsource: %s%s\n", own ? "task-local" : "global",
		mode == GW_AUTO_ON ? " auto" : mode == GW_AUTO_OFF ? " manual" : "");
}

static int print_pid_weights(FILE *out, const struct mpol2_state *s)
{
	struct weights_view v;

	if (weights_view_read(&v) < 0)
		return -ENOMEM;
	print_weights(out, s->nodes, s->own_weights ? s : NULL, &v);
	weights_view_free(&v);
	return 0;
}

int show_print_pid(FILE *out, pid_t pid, const struct mpol2_state *s)
{
	fprintf(out, "pid: %d\n", (int)pid);
	fprintf(out, "policy: %s\n", nc2_policy_name(s->mode).s);
	if (s->home_node >= 0)
		fprintf(out, "homenode: %d\n", s->home_node);
	switch (s->mode) {
	case MPOL_INTERLEAVE:
	case MPOL_WEIGHTED_INTERLEAVE:
		nc2_nodes_fprint(out, "interleavemask", s->nodes);
		if (s->mode == MPOL_WEIGHTED_INTERLEAVE)
			return print_pid_weights(out, s);
		break;
	case MPOL_BIND:
		nc2_nodes_fprint(out, "membind", s->nodes);
		break;
	case MPOL_PREFERRED:
	case MPOL_PREFERRED_MANY:
		nc2_nodes_fprint(out, "preferred", s->nodes);
		break;
	}
	return 0;
}

/* numactl prints nothing after "preferred node: " under local: kept, since
 * scripts written against numactl see exactly that. */
static void print_preferred_node(FILE *out, int mode, const struct bitmask *preferred,
				 const struct bitmask *membind, int next)
{
	fprintf(out, "preferred node: ");
	switch (mode) {
	case MPOL_PREFERRED:
		fprintf(out, "%d\n", numa_bitmask_weight(preferred) ? nc2_nodes_first(preferred) : 0);
		break;
	case MPOL_DEFAULT:
		fprintf(out, "current\n");
		break;
	case MPOL_INTERLEAVE:
	case MPOL_WEIGHTED_INTERLEAVE:
		fprintf(out, "%d (interleave next)\n", next);
		break;
	case MPOL_BIND:
		fprintf(out, "%d\n", nc2_nodes_first(membind));
		break;
	case MPOL_PREFERRED_MANY:
		fprintf(out, "%d (preferred-many)\n", next);
		break;
	}
}

/* What --show reads before it prints a line: the policy, the bindings,
 * get_mempolicy2's view where the kernel has it, the table and its holders. */
struct task_view {
	int mode, next;
	struct bitmask *mask, *cpubind, *preferred, *membind;
	struct mpol2_state state;
	bool has_state;
	struct weights_view table;
};

static void task_view_free(struct task_view *t)
{
	weights_view_free(&t->table);
	numa_bitmask_free(t->mask);
	numa_bitmask_free(t->cpubind);
	numa_bitmask_free(t->preferred);
	numa_bitmask_free(t->membind);
	if (t->has_state) {
		numa_bitmask_free(t->state.nodes);
		free(t->state.weight);
	}
}

static int task_view_read(struct task_view *t, struct nc2_error *e)
{
	*t = (struct task_view){ .mode = MPOL_DEFAULT, .mask = numa_allocate_nodemask() };
	if (get_mempolicy(&t->mode, t->mask->maskp, t->mask->size + 1, NULL, 0) < 0)
		return error_set_call(e, "get_mempolicy", errno);
	t->mode &= ~MPOL_MODE_FLAGS;
	t->cpubind = numa_get_run_node_mask();
	t->preferred = numa_preferred_many();
	t->membind = numa_get_membind();
	t->next = numa_get_interleave_node();
	if (nc2_mpol2_present()) {
		int rc;

		t->state.nodes = numa_allocate_nodemask();
		t->has_state = true;
		rc = mpol2_get_task(MPOL2_SELF, &t->state);
		if (rc < 0)
			return error_set_call(e, "get_mempolicy2", rc);
	}
	if (weights_view_read(&t->table) < 0)
		return error_set(e, NC2_LEASES_UNLISTED, ENOMEM);
	return 0;
}

static int print_task(FILE *out, const struct task_view *t, struct nc2_error *e)
{
	const struct mpol2_state *own = t->has_state && t->state.own_weights ? &t->state : NULL;
	int rc;

	fprintf(out, "policy: %s\n", nc2_policy_name(t->mode).s);
	if (t->has_state && t->state.home_node >= 0)
		fprintf(out, "homenode: %d\n", t->state.home_node);
	print_preferred_node(out, t->mode, t->preferred, t->membind, t->next);
	if (t->mode == MPOL_INTERLEAVE || t->mode == MPOL_WEIGHTED_INTERLEAVE) {
		nc2_nodes_fprint(out, "interleavemask", t->mask);
		if (t->mode == MPOL_WEIGHTED_INTERLEAVE)
			print_weights(out, t->mask, own, &t->table);
		fprintf(out, "interleavenode: %d\n", t->next);
	}
	rc = print_physcpubind(out, e);
	if (rc < 0)
		return rc;
	nc2_nodes_fprint(out, "cpubind", t->cpubind);
	nc2_nodes_fprint(out, "nodebind", t->cpubind);
	nc2_nodes_fprint(out, "membind", t->membind);
	nc2_nodes_fprint(out, "preferred", t->preferred);
	(void)owner_print_holders(out, false);
	return 0;
}

static void print_json_nodes(FILE *out, const char *name, const struct bitmask *mask)
{
	const char *sep = "";

	fprintf(out, "  \"%s\": [", name);
	for (int n = nc2_nodes_first(mask); n >= 0; n = nc2_nodes_next(mask, (unsigned)n + 1)) {
		fprintf(out, "%s%d", sep, n);
		sep = ", ";
	}
	fputs("],\n", out);
}

/* The weights in effect for the mask's nodes, as print_weights() says them. */
static void print_json_weights(FILE *out, const struct task_view *t)
{
	const struct mpol2_state *own = t->has_state && t->state.own_weights ? &t->state : NULL;
	const char *sep = "";

	fputs("  \"interleaveweights\": {", out);
	for (int n = nc2_nodes_first(t->mask); n >= 0; n = nc2_nodes_next(t->mask, (unsigned)n + 1)) {
		int w = own ? own->weight[n] : weights_view_weight(&t->table, (unsigned)n);

		if (w >= 0)
			fprintf(out, "%s\"%d\": %d", sep, n, w);
		sep = w >= 0 ? ", " : sep;
	}
	fprintf(out, "},\n  \"weightsource\": \"%s\",\n", own ? "task-local" : "global");
}

static void print_json_table(FILE *out, const struct weights_view *v)
{
	const char *sep = "";

	fputs("  \"globalweights\": {", out);
	for (unsigned n = 0; n < v->nnodes; n++) {
		if (v->weight[n] < 0)
			continue;
		fprintf(out, "%s\"%u\": %d", sep, n, v->weight[n]);
		sep = ", ";
	}
	fputs("},\n", out);
}

static void print_task_json(FILE *out, const struct task_view *t)
{
	fprintf(out, "{\n  \"policy\": \"%s\",\n", nc2_policy_name(t->mode).s);
	if (t->mode == MPOL_INTERLEAVE || t->mode == MPOL_WEIGHTED_INTERLEAVE)
		print_json_nodes(out, "interleavemask", t->mask);
	if (t->mode == MPOL_WEIGHTED_INTERLEAVE)
		print_json_weights(out, t);
	print_json_nodes(out, "cpubind", t->cpubind);
	print_json_nodes(out, "membind", t->membind);
	print_json_nodes(out, "preferred", t->preferred);
	print_json_table(out, &t->table);
	fputs("  ", out);
	(void)owner_print_holders(out, true);
	fputs("\n}\n", out);
}

/* --show --json: the same view for scripts; numactl2d's holders with it. */
int nc2_show_print_json(FILE *out, struct nc2_error *e)
{
	struct task_view t;
	int rc;

	if (numa_available() < 0) {
		fputs("{\"numa\": false}\n", out);
		return error_set(e, NC2_NO_NUMA, 0);
	}
	rc = task_view_read(&t, e);
	if (rc == 0)
		print_task_json(out, &t);
	task_view_free(&t);
	return rc;
}

int nc2_show_print(FILE *out, struct nc2_error *e)
{
	struct task_view t;
	int rc;

	if (numa_available() < 0) {
		rc = print_physcpubind(out, e);
		if (rc < 0)
			return rc;
		fprintf(out, "No NUMA support available on this system.\n");
		return error_set(e, NC2_NO_NUMA, 0);
	}
	rc = task_view_read(&t, e);
	if (rc == 0)
		rc = print_task(out, &t, e);
	task_view_free(&t);
	return rc;
}

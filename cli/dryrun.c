// SPDX-License-Identifier: GPL-2.0-or-later
/* --dry-run: what a run would do, on stdout; nothing is changed. */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/dryrun.h"
#include "cli/exec.h"
#include "libnumactl2.h"

/* The table and the live leases on NODES (NULL: every node), or exit 1. */
static void table_read_or_exit(const struct bitmask *nodes, struct weights_view *v)
{
	if (weights_view_read(nodes, v) < 0)
		errx(1, "cannot list the leases: out of memory");
}

/* The live leases on the nodes of the set, and whether this run would clash. */
static void print_leases(const struct policy *p, const struct weights_view *v)
{
	for (unsigned i = 0; i < v->nleases; i++) {
		const struct weights_lease *l = &v->lease[i];
		unsigned want = !p->has_weights ? l->weight : policy_weight(p, l->node);

		printf("lease: node %u weight %u pids %s (%s)\n", l->node, l->weight, l->pids,
		       want == l->weight ? "shared with this run" :
					   "in the way: this run needs another weight");
	}
}

static void print_weights(const struct policy *p)
{
	struct weights_view v;

	table_read_or_exit(p->nodes, &v);
	printf("weights:");
	for (int n = nodes_first(p->nodes); n >= 0; n = nodes_next(p->nodes, (unsigned)n + 1)) {
		int w = weights_view_weight(&v, (unsigned)n);

		if (p->has_weights)
			w = (int)policy_weight(p, (unsigned)n);
		printf(" %d:%d", n, w < 0 ? 1 : w);
	}
	printf("\n");
	if (p->task_local)
		printf("weights go to: %s, this program's own\n",
		       weights_target_name(WEIGHTS_TASK_LOCAL));
	else if (p->has_weights)
		printf("weights go to: %s, which every weighted-interleave task uses\n",
		       weights_target_name(WEIGHTS_GLOBAL));
	else
		printf("weights go to: none changed; the weights in effect are used\n");
	if (!p->task_local && v.present)
		print_leases(p, &v);
	weights_view_free(&v);
}

/* The libnuma check's question that --dry-run does not ask (check.c). */
static void print_libnuma(const struct ctl *ctl)
{
	const struct libnuma_finding *f = &ctl->plan.libnuma;

	if (!ctl->plan.libnuma_checked || !ctl->policy.task_local ||
	    f->verdict != LIBNUMA_NOT_ASKED)
		return;
	printf("libnuma check: not run (--dry-run runs nothing); the run asks %s, the loader "
	       "of %s, which libnuma it loads, and with libnuma 2.0.15-2.0.17 the weights go "
	       "to the global table instead\n", f->lib, f->prog);
}

/* The command as the exec would find it: a dry run fails where the run
 * would (127: not found, 126: found but not runnable). */
static void check_command(const struct ctl *ctl)
{
	int rc = prog_exec_error(ctl->command[0], ctl->env);

	if (rc < 0)
		exec_failed(ctl->command[0], -rc, ctl->bare_optional);
}

static void print_global_op(const struct ctl *ctl)
{
	unsigned named = ctl->global_op == GLOBAL_SET ? ctl->weights.max_node + 1 : 0;
	struct weights_view v;

	if (ctl->global_op == GLOBAL_AUTO) {
		printf("would turn on the kernel's auto interleave weights\n");
		return;
	}
	table_read_or_exit(NULL, &v);
	if (ctl->global_op != GLOBAL_RESET)
		v.nnodes = 0;	/* a set names its nodes; a reset puts 1 in every one */
	printf("would set global interleave weights:");
	for (unsigned n = 0; n < named || n < v.nnodes; n++) {
		if (n < named && ctl->weights.weight[n])
			printf(" %u:%u", n, ctl->weights.weight[n]);
		else if (weights_view_weight(&v, n) >= 0)
			printf(" %u:1", n);
	}
	printf("\n");
	weights_view_free(&v);
}

int dry_run(const struct ctl *ctl)
{
	const struct policy *p = &ctl->policy;

	if (ctl->global_op != GLOBAL_NONE) {
		print_global_op(ctl);
		return 0;
	}
	if (ctl->command)
		check_command(ctl);
	printf("policy: %s%s\n", p->mode == POLICY_NONE ? "default (unchanged)" : policy_name(p->mode),
	       p->flags & MPOL_F_NUMA_BALANCING ? " (balancing)" : "");
	if (p->nodes)
		nodes_fprint(stdout, "nodes", p->nodes);
	if (ctl->weights_measured)
		printf("weights: measured when it runs, from the CPUs it runs on (--measure shows them now)\n");
	else if (p->mode == MPOL_WEIGHTED_INTERLEAVE)
		print_weights(p);
	print_libnuma(ctl);
	if (ctl->plan.auto_weights)
		request_print_auto_weights(stdout, &ctl->plan);
	if (ctl->cpunodes)
		nodes_fprint(stdout, "cpunodebind", ctl->cpunodes);
	if (ctl->cpus)
		nodes_fprint(stdout, "physcpubind", ctl->cpus);
	if (p->home_node >= 0)
		printf("home node: %d\n", p->home_node);
	if (ctl->use_shm)
		printf("region: %s %s, offset %llu, length %llu\n", ctl->shm.file ? "file" : "shm",
		       ctl->shm.file ? ctl->shm.file : ctl->shm.sysv_keyfile, ctl->shm.offset,
		       ctl->shm.length);
	if (ctl->report != REPORT_NONE)
		printf("report: %s, to %s\n", ctl->report == REPORT_JSON ? "json" : "table",
		       ctl->report_file ? ctl->report_file : "stderr");
	if (ctl->command) {
		printf("command:");
		for (char **a = ctl->command; *a; a++)
			printf(" %s", *a);
		printf("\n");
	}
	if (p->has_weights)
		printf("why the weights go there: %s\n", request_why(ctl->plan.why));
	return 0;
}

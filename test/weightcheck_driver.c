// SPDX-License-Identifier: GPL-2.0-or-later
/* Feeds numa_maps lines (stdin) to weights_line_kept() for a weighted
 * interleave over the weights given, and prints "kept" or "lost: POLICY"
 * for each line; "asked: N:W,..." first.
 *   weightcheck_driver WEIGHTS     (a --weights list: "0:3,1:1") */
#include <stdio.h>
#include <stdlib.h>

#include "job/weightcheck.h"
#include "policy/policy.h"
#include "syscalls.h"

/* The policy --weighted-interleave over the listed nodes with --weights. */
static int policy_of(const char *arg, struct policy *p, struct weight_list *wl)
{
	struct parse_err e;

	if (nc2_parse_weight_list(arg, wl, &e) < 0)
		return -1;
	p->mode = MPOL_WEIGHTED_INTERLEAVE;
	p->has_weights = p->task_local = true;
	p->nodes = numa_bitmask_alloc(wl->max_node + 1);
	for (unsigned n = 0; n <= wl->max_node; n++)
		if (wl->weight[n])
			numa_bitmask_setbit(p->nodes, n);
	p->weight = wl->weight;
	p->nweights = wl->max_node + 1;
	return 0;
}

int main(int argc, char **argv)
{
	static struct weight_list wl;
	static struct weights_check c;
	struct policy p = { 0 };
	char *line = NULL, seen[96];
	size_t size = 0;

	if (argc != 2 || policy_of(argv[1], &p, &wl) < 0) {
		fprintf(stderr, "usage: weightcheck_driver WEIGHTS\n");
		return 2;
	}
	weights_check_init(&c, &p);
	printf("asked: ");
	weights_check_print_asked(stdout, &c);
	putchar('\n');
	while (getline(&line, &size, stdin) > 0) {
		if (weights_line_kept(line, &p, seen, sizeof(seen)))
			printf("kept\n");
		else
			printf("lost: %s\n", seen);
	}
	free(line);
	numa_bitmask_free(p.nodes);
	nc2_weight_list_free(&wl);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* --show: the calling task's policy and bindings, in numactl's lines. */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "libnumactl2.h"
#include "cli/show.h"
#include "syscalls.h"

/* numactl's printmask() on stdout, for --show and --dry-run. */
void nodes_print(const char *name, const struct bitmask *mask)
{
	nodes_fprint(stdout, name, mask);
}

/* After numactl's lines, so that scripts reading them see no change: one
 * line per node that a live job leases. */
void show_leases(const struct weights_view *v)
{
	for (unsigned i = 0; i < v->nleases; i++)
		printf("interleave weight lease: node %u weight %u pids %s\n", v->lease[i].node,
		       v->lease[i].weight, v->lease[i].pids);
}

/* The table and its leases, read once for --show and --dry-run. */
void table_read(const struct bitmask *lease_nodes, struct weights_view *v)
{
	if (weights_view_read(lease_nodes, v) < 0)
		errx(1, "cannot list the leases: out of memory");
}

static void show_physcpubind(void)
{
	int ncpus = numa_num_configured_cpus();

	for (;;) {
		struct bitmask *cpus = numa_bitmask_alloc((unsigned)ncpus);

		if (numa_sched_getaffinity(0, cpus) < 0) {
			numa_bitmask_free(cpus);
			if (errno == EINVAL && ncpus < 1024 * 1024) {
				ncpus *= 2;
				continue;
			}
			err(1, "sched_getaffinity");
		}
		nodes_print("physcpubind", cpus);
		numa_bitmask_free(cpus);
		return;
	}
}

/* The weights in effect for the nodes of the mask: the task's own where
 * get_mempolicy2 says it has them, else the global ones, which is what
 * numactl 2.0.19 prints too. */
void show_weights(const struct bitmask *mask, const struct mpol2_state *own,
		  const struct weights_view *v)
{
	enum gw_auto mode = own ? GW_AUTO_ABSENT : v->mode;

	printf("interleaveweights:");
	for (int n = nodes_first(mask); n >= 0; n = nodes_next(mask, (unsigned)n + 1)) {
		if (own)
			printf(" %u", own->weight[n]);
		else if (weights_view_weight(v, (unsigned)n) >= 0)
			printf(" %d", weights_view_weight(v, (unsigned)n));
	}
	printf("\nweightsource: %s%s\n", own ? "task-local" : "global",
	       mode == GW_AUTO_ON ? " auto" : mode == GW_AUTO_OFF ? " manual" : "");
}

/* get_mempolicy2's view, where the kernel has it: NULL elsewhere. */
static const struct mpol2_state *task_state(void)
{
	static struct mpol2_state s;

	if (!mpol2_present())
		return NULL;
	s.nodes = numa_allocate_nodemask();
	if (mpol2_get_task(MPOL2_SELF, &s) < 0)
		err(1, "get_mempolicy2");
	return &s;
}

/* numactl prints nothing after "preferred node: " under local: kept, since
 * scripts written against numactl see exactly that. */
static void show_preferred_node(int mode, const struct bitmask *preferred,
				const struct bitmask *membind, int next)
{
	printf("preferred node: ");
	switch (mode) {
	case MPOL_PREFERRED:
		printf("%d\n", numa_bitmask_weight(preferred) ? nodes_first(preferred) : 0);
		break;
	case MPOL_DEFAULT:
		printf("current\n");
		break;
	case MPOL_INTERLEAVE:
	case MPOL_WEIGHTED_INTERLEAVE:
		printf("%d (interleave next)\n", next);
		break;
	case MPOL_BIND:
		printf("%d\n", nodes_first(membind));
		break;
	case MPOL_PREFERRED_MANY:
		printf("%d (preferred-many)\n", next);
		break;
	}
}

int show_policy(void)
{
	struct bitmask *mask, *cpubind, *preferred, *membind;
	const struct mpol2_state *state;
	struct weights_view table;
	int mode = MPOL_DEFAULT, next;

	if (numa_available() < 0) {
		show_physcpubind();
		printf("No NUMA support available on this system.\n");
		return 1;
	}
	mask = numa_allocate_nodemask();
	if (get_mempolicy(&mode, mask->maskp, mask->size + 1, NULL, 0) < 0)
		err(1, "get_mempolicy");
	mode &= ~MPOL_MODE_FLAGS;
	cpubind = numa_get_run_node_mask();
	preferred = numa_preferred_many();
	membind = numa_get_membind();
	next = numa_get_interleave_node();

	state = task_state();
	table_read(NULL, &table);
	printf("policy: %s\n", policy_name(mode));
	if (state && state->home_node >= 0)
		printf("homenode: %d\n", state->home_node);
	show_preferred_node(mode, preferred, membind, next);
	if (mode == MPOL_INTERLEAVE || mode == MPOL_WEIGHTED_INTERLEAVE) {
		nodes_print("interleavemask", mask);
		if (mode == MPOL_WEIGHTED_INTERLEAVE)
			show_weights(mask, state && state->own_weights ? state : NULL, &table);
		printf("interleavenode: %d\n", next);
	}
	show_physcpubind();
	nodes_print("cpubind", cpubind);
	nodes_print("nodebind", cpubind);
	nodes_print("membind", membind);
	nodes_print("preferred", preferred);
	show_leases(&table);
	weights_view_free(&table);
	numa_bitmask_free(mask);
	numa_bitmask_free(cpubind);
	numa_bitmask_free(preferred);
	numa_bitmask_free(membind);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A memory policy as the user asked for it: the type and the weight it
 * gives a node, shared by policy.c (which sets it) and mpol2.c (which sets
 * it with task-local weights), so that neither header includes the other's. */
#ifndef NUMACTL2_SPEC_H
#define NUMACTL2_SPEC_H

#include <stdbool.h>
#include <stdint.h>
#include <numa.h>

#include "parse.h"

#define POLICY_NONE (-1)

struct policy {
	int mode;			/* MPOL_*, or POLICY_NONE */
	unsigned flags;			/* MPOL_F_NUMA_BALANCING */
	struct bitmask *nodes;		/* NULL for local */
	const char *option;		/* the option that asked for it, for messages */
	bool has_weights;		/* --weights given */
	bool task_local;		/* the weights travel with the policy (mpol2.c) */
	int home_node;			/* --home-node, -1 for none */
	uint8_t *weight;		/* by node, when has_weights (policy_weights_alloc) */
	unsigned nweights;		/* entries in weight: nodes->size */
};

/* The weight P gives node N: 1 where it names none. */
static inline unsigned policy_weight(const struct policy *p, unsigned n)
{
	return weight_effective(n < p->nweights ? p->weight[n] : 0);
}

#endif

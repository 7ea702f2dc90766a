/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A memory policy as the user asked for it: the type and the weight it
 * gives a node, shared by policy.c (which sets it) and mpol2.c (which sets
 * it with task-local weights), so that neither header includes the other's. */
#ifndef NUMACTL2_SPEC_H
#define NUMACTL2_SPEC_H

#include <stdbool.h>
#include <stdint.h>
#include <numa.h>
#include <numaif.h>

#include "parse.h"

/* The kernel's modes and flags that Debian 12's <numaif.h> (libnuma
 * 2.0.16) does not name yet. */
#ifndef MPOL_DEFAULT
#define MPOL_DEFAULT 0
#endif
#ifndef MPOL_PREFERRED_MANY
#define MPOL_PREFERRED_MANY 5
#endif
#ifndef MPOL_WEIGHTED_INTERLEAVE
#define MPOL_WEIGHTED_INTERLEAVE 6
#endif
#ifndef MPOL_F_STATIC_NODES
#define MPOL_F_STATIC_NODES (1 << 15)
#endif
#ifndef MPOL_F_RELATIVE_NODES
#define MPOL_F_RELATIVE_NODES (1 << 14)
#endif
#ifndef MPOL_F_NUMA_BALANCING
#define MPOL_F_NUMA_BALANCING (1 << 13)
#endif
#define MPOL_MODE_FLAGS \
	(MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES | MPOL_F_NUMA_BALANCING)

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

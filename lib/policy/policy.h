/* A memory policy as the user asked for it, and the calls that set it
 * on the task (set_mempolicy) or on a range (mbind). */
#ifndef NUMACTL2_POLICY_H
#define NUMACTL2_POLICY_H

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
	uint8_t weight[PARSE_MAX_NODES]; /* for each node of nodes, when has_weights */
};

const char *policy_name(int mode);
int policy_set_task(const struct policy *p);
int policy_set_range(const struct policy *p, void *addr, unsigned long len, unsigned mbind_flags);
bool kernel_has_weighted_interleave(void);

#endif

/* Task-local weights through the project's kernel calls (kernel/):
 * set_mempolicy2, get_mempolicy2 and mbind2, used only where the running
 * kernel lists them in MPOL2_SYSCALLS_FILE. */
#ifndef NUMACTL2_MPOL2_H
#define NUMACTL2_MPOL2_H

#include <stdbool.h>
#include <stdint.h>
#include <numa.h>

#include "parse.h"
#include "policy/spec.h"

/* A policy as get_mempolicy2 reports it. */
struct mpol2_state {
	int mode;
	int home_node;			/* -1: none */
	bool own_weights;		/* the policy's weights, not the global table's */
	struct bitmask *nodes;
	uint8_t *weight;		/* by node, nodes->size of them (malloc'd) */
};

bool mpol2_present(void);
int mpol2_set_task(const struct policy *p);
int mpol2_set_range(const struct policy *p, void *addr, unsigned long len, unsigned mbind_flags);
int mpol2_get_task(struct mpol2_state *s);

#endif

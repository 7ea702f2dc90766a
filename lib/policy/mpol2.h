/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Task-local weights through the project's kernel calls (kernel/):
 * set_mempolicy2, get_mempolicy2 and mbind2, used only where the running
 * kernel lists them for this build's ABI in MPOL2_SYSCALLS_FILE. */
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
	unsigned mode_flags;		/* MPOL_F_STATIC_NODES, _RELATIVE_NODES, _NUMA_BALANCING */
	int home_node;			/* -1: none */
	bool own_weights;		/* the policy's weights (some nonzero), not the global table's */
	struct bitmask *nodes;
	uint8_t *weight;		/* by node, nodes->size of them (malloc'd) */
};

/* The calls' numbers for one ABI; -1 where not listed. */
struct mpol2_numbers {
	long set, get, mbind;
};

/* Reads MPOL2_SYSCALLS_FILE's text (split in place): "name abi number"
 * lines, the numbers of ABI's lines kept. Pure; true only when all three
 * calls are listed for ABI. A line of another shape (the older "name
 * number" list included) makes the whole list unknown: no calls. */
bool mpol2_parse_syscalls(char *buf, const char *abi, struct mpol2_numbers *nr);

bool mpol2_present(void);
int mpol2_set_task(const struct policy *p);
int mpol2_set_range(const struct policy *p, void *addr, unsigned long len, unsigned mbind_flags);
int mpol2_get_task(struct mpol2_state *s);

/* For policy/remote.c, which makes the same calls for another task: the
 * numbers of this build's ABI, NULL when the kernel does not list them. */
const struct mpol2_numbers *mpol2_numbers(void);

/* Whether get_mempolicy2's N weights at W are the policy's own: all zero
 * means it follows the global table. */
bool mpol2_own_weights(const uint8_t *w, unsigned n);

#endif

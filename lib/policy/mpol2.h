/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Task-local weights through the project's kernel calls (kernel/):
 * set_mempolicy2, get_mempolicy2 and mbind2, used only where the running
 * kernel lists them for this build's ABI in MPOL2_SYSCALLS_FILE. */
#ifndef NUMACTL2_MPOL2_H
#define NUMACTL2_MPOL2_H

#include <stdbool.h>
#include <stdint.h>
#include <numa.h>

#include "libnumactl2.h"
#include "parse.h"

/* The calls' numbers for one ABI; -1 where not listed. */
struct mpol2_numbers {
	long set, get, mbind;
};

/* Reads MPOL2_SYSCALLS_FILE's text (split in place): "name abi number"
 * lines, the numbers of ABI's lines kept. Pure; true only when all three
 * calls are listed for ABI. A line of another shape (the older "name
 * number" list included) makes the whole list unknown: no calls. */
bool mpol2_parse_syscalls(char *buf, const char *abi, struct mpol2_numbers *nr);

/* The task the calls act on: the calling one, or the task of a pidfd
 * (policy/remote.c's; a process's pidfd names its main thread). */
/* A policy as get_mempolicy2 reports it. */
struct mpol2_state {
	int mode;
	unsigned mode_flags;		/* MPOL_F_STATIC_NODES, _RELATIVE_NODES, _NUMA_BALANCING */
	int home_node;			/* -1: none */
	bool own_weights;		/* the policy's weights (some nonzero), not the global table's */
	struct bitmask *nodes;
	uint8_t *weight;		/* by node, nodes->size of them (malloc'd) */
};

#define MPOL2_SELF (-1)

int mpol2_set_range(const struct policy *p, void *addr, unsigned long len, unsigned mbind_flags);

/* Whether get_mempolicy2's N weights at W are the policy's own: all zero
 * means it follows the global table. */
bool mpol2_own_weights(const uint8_t *w, unsigned n);

/* P becomes the policy of the task (PIDFD, or -1: the caller), its weights its
 * own (none: it follows the global table). Another task installs it when
 * it next returns to user space; pages placed stay. 0, or -errno: -ENOSYS
 * when the kernel does not list the calls; for a pidfd -EPERM not allowed,
 * -ESRCH exited, -E2BIG (or -EINVAL for the flag) from a kernel whose
 * calls cannot act on another task. */
int mpol2_set_task(int pidfd, const struct policy *p);

/* The policy of the task (PIDFD, or -1: the caller) into S: S->nodes allocated
 * by the caller, S->weight malloc'd here. The same errors. */
int mpol2_get_task(int pidfd, struct mpol2_state *s);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* numactl2 --pid --migrate: the node each present page of a process goes
 * to under its new policy. Pure: no system state. */
#ifndef NUMACTL2_MIGPLAN_H
#define NUMACTL2_MIGPLAN_H

#include <stddef.h>

/* The policy pages are placed by, and where its round robin is. */
struct migplan {
	int mode;		/* MPOL_INTERLEAVE, _WEIGHTED_INTERLEAVE, _BIND,
				 * _PREFERRED or _PREFERRED_MANY */
	unsigned n;		/* nodes in node[], ascending */
	int *node;
	unsigned *weight;	/* each node's share of a round: 1 but for
				 * weighted interleave */
	unsigned at;		/* the node whose turn it is: node[at] */
	unsigned left;		/* pages its turn has left */
	unsigned long block;	/* the block the last target was for */
	int block_to;		/* its node; -1 before the first */
};

/* Starts a plan for MODE over the N nodes of NODE (ascending), with
 * WEIGHT[i] for NODE[i] (weighted interleave only; NULL elsewhere, 0 is 1).
 * The plan points at both arrays: they outlive it. -EINVAL for a mode that
 * names no node (default, local) or for no node at all. */
int migplan_init(struct migplan *p, int mode, int *node, unsigned *weight, unsigned n);

/* The round robin from its first node again: a new mapping starts there. */
void migplan_restart(struct migplan *p);

/* For each of N pages in ascending address order, on node NOW[i] (< 0: not
 * present), the node it belongs on: TO[i], -1 for a page not present. The
 * pages come in blocks, BLOCK[i] naming page i's (a page of its own, or a
 * transparent huge page's 2 MiB, which moves whole): the first present
 * page of a block decides for all of it. A block of interleave or weighted
 * interleave takes the next turn of the round robin; of bind and
 * preferred-many it stays where it is on a node of the mask, else takes
 * the next turn (weight 1 each); of preferred it goes to the node. The
 * round robin, and a block, go on from one call to the next. */
void migplan_targets(struct migplan *p, const int *now, const unsigned long *block, int *to,
		     size_t n);

#endif

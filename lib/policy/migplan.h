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
};

/* Starts a plan for MODE over the N nodes of NODE (ascending), with
 * WEIGHT[i] for NODE[i] (weighted interleave only; NULL elsewhere, 0 is 1).
 * The plan points at both arrays: they outlive it. -EINVAL for a mode that
 * names no node (default, local) or for no node at all. */
int migplan_init(struct migplan *p, int mode, int *node, unsigned *weight, unsigned n);

/* For each of N pages in ascending address order, on node NOW[i] (< 0: not
 * present), the node it belongs on: TO[i], -1 for a page not present. A
 * page of interleave or weighted interleave takes the next turn of the
 * round robin; of bind and preferred-many it stays where it is on a node of
 * the mask, else takes the next turn (weight 1 each); of preferred it goes
 * to the node. The round robin goes on from one call to the next. */
void migplan_targets(struct migplan *p, const int *now, int *to, size_t n);

#endif

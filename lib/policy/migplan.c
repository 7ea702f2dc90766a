// SPDX-License-Identifier: GPL-2.0-or-later
/* numactl2 --pid --migrate: which node each page of a process goes to
 * under its new policy, in the order of its addresses: the weighted round
 * robin the kernel places new pages by, started at the policy's first node. */
#include <errno.h>

#include "libnumactl2.h"
#include "policy/migplan.h"

int migplan_init(struct migplan *p, int mode, int *node, unsigned *weight, unsigned n)
{
	if (n == 0 || (mode != MPOL_INTERLEAVE && mode != MPOL_WEIGHTED_INTERLEAVE &&
		       mode != MPOL_BIND && mode != MPOL_PREFERRED && mode != MPOL_PREFERRED_MANY))
		return -EINVAL;
	p->mode = mode;
	p->node = node;
	p->weight = weight;
	p->n = n;
	migplan_restart(p);
	return 0;
}

static unsigned turn_weight(const struct migplan *p, unsigned i)
{
	if (p->mode != MPOL_WEIGHTED_INTERLEAVE || !p->weight || !p->weight[i])
		return 1;
	return p->weight[i];
}

void migplan_restart(struct migplan *p)
{
	p->at = 0;
	p->left = 0;
	p->block_to = -1;
}

/* The node whose turn it is, one page of its turn used. */
static int next_turn(struct migplan *p)
{
	int node;

	if (p->left == 0)
		p->left = turn_weight(p, p->at);
	node = p->node[p->at];
	if (--p->left == 0)
		p->at = (p->at + 1) % p->n;
	return node;
}

static int in_mask(const struct migplan *p, int node)
{
	for (unsigned i = 0; i < p->n; i++)
		if (p->node[i] == node)
			return 1;
	return 0;
}

static int target(struct migplan *p, int now)
{
	if (now < 0)
		return -1;
	switch (p->mode) {
	case MPOL_PREFERRED:
		return p->node[0];
	case MPOL_BIND:
	case MPOL_PREFERRED_MANY:
		if (in_mask(p, now))
			return now;
		return next_turn(p);
	default:
		return next_turn(p);
	}
}

void migplan_targets(struct migplan *p, const int *now, const unsigned long *block, int *to,
		     size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (now[i] < 0) {
			to[i] = -1;
			continue;
		}
		if (p->block_to < 0 || block[i] != p->block) {
			p->block = block[i];
			p->block_to = target(p, now[i]);
		}
		to[i] = p->block_to;
	}
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* --weights=auto: each node's bandwidth from the firmware (nodeperf.c),
 * and the weights ours and the kernel's rounding give for it. */
#include <errno.h>

#include "bandwidth/autoweights.h"
#include "bandwidth/nodeperf.h"
#include "policy/nodes.h"

int auto_weights_read_hmat(const struct bitmask *nodes, struct auto_weights *aw,
			   unsigned *bad_node)
{
	aw->n = 0;
	for (int node = nodes_first(nodes); node >= 0; node = nodes_next(nodes, (unsigned)node + 1)) {
		unsigned long mbps;
		int access;

		if (aw->n == BW_MAX_NODES)
			return -E2BIG;
		access = nodeperf_bandwidth((unsigned)node, &mbps);
		if (access < 0) {
			*bad_node = (unsigned)node;
			return access;
		}
		aw->node[aw->n] = (unsigned)node;
		aw->bw[aw->n] = (double)mbps;
		aw->access[aw->n++] = access;
	}
	return 0;
}

/* The kernel's weights are always at its own budget of 32, whatever ours is. */
int auto_weights_choose(struct auto_weights *aw, unsigned budget)
{
	int rc = bw_choose_weights(aw->bw, aw->n, budget, aw->w, &aw->choice);

	if (rc < 0)
		return rc;
	aw->budget = budget;
	return bw_kernel_weights(aw->bw, aw->n, BW_BUDGET_DEFAULT, aw->kernel);
}

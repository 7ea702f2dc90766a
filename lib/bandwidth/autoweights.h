/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --weights=auto: weights for the nodes of the interleave set from their
 * bandwidth, with the kernel's own auto weights beside them for --dry-run. */
#ifndef NUMACTL2_AUTOWEIGHTS_H
#define NUMACTL2_AUTOWEIGHTS_H

#include <stdint.h>
#include <stdio.h>
#include <numa.h>

#include "bandwidth/bwsum.h"
#include "bandwidth/kernelrule.h"

struct auto_weights {
	unsigned n;				/* nodes of the interleave set */
	unsigned node[BW_MAX_NODES];
	double bw[BW_MAX_NODES];		/* MB/s */
	int access[BW_MAX_NODES];		/* HMAT access class it came from */
	unsigned budget;			/* or BW_BUDGET_CHOOSE */
	uint8_t w[BW_MAX_NODES];		/* numactl2's */
	struct bw_choice choice;		/* w's sum and why */
	uint8_t kernel[BW_MAX_NODES];		/* the kernel's rule, weightiness 32 */
};

/* Fills node[], bw[] and access[] from sysfs. Returns 0, -E2BIG (more than
 * BW_MAX_NODES nodes) or -ENODATA (*bad_node has no bandwidth). */
int auto_weights_read_hmat(const struct bitmask *nodes, struct auto_weights *aw,
			   unsigned *bad_node);
/* From bw[]: w[] at budget (BW_BUDGET_CHOOSE: the sum chosen too, see
 * bw_choose_weights()), and kernel[]. Returns 0 or -EINVAL (budget < n). */
int auto_weights_choose(struct auto_weights *aw, unsigned budget);

/* --dry-run's lines for aw, after auto_weights_choose(), to f (autoprint.c). */
void auto_weights_print(FILE *f, const struct auto_weights *aw);

#endif

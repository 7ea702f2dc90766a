/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --weights=auto's weight sum: choosing it, and the nodes that cannot help
 * (bwsum.c). Pure. */
#ifndef NUMACTL2_BWSUM_H
#define NUMACTL2_BWSUM_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "bandwidth/bwweights.h"
#include "libnumactl2.h"

/* The share of the nodes' combined bandwidth that a chosen sum must model. */
#define BW_SUM_GOAL 0.99

/* --weights=auto's weights. With a budget (1-255), bw_optimal_weights() at
 * it. With BW_BUDGET_CHOOSE, the sum too: the optimum at 32 where its T
 * reaches BW_SUM_GOAL of sum bw; else, with every weight at most 255, the
 * optimum of the smallest sum that reaches the goal (of that sum plus one
 * where its optimum models more: one step, no further) or, where none does, of
 * the smallest sum that reaches the highest T of all. Such a sum may exceed
 * 255. Returns 0 or -EINVAL (bad input as above, or budget < n). */
int bw_choose_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w,
		      struct bw_choice *c);

/* Which nodes --weights=auto is better without. A node can only help
 * if its bandwidth adds more to the modelled T than the rounding of its
 * weight (at least one slot of every round, which the faster nodes wait
 * for) costs. Precisely: the slowest k nodes (k >= 1; the higher index
 * first among equal bandwidths) cannot help when bw_choose_weights() at the
 * same budget over the other nodes models at least the T (within BW_TIE)
 * that it models over all of them. Of such k, the one whose T is highest,
 * and the largest k among equal T, is left out: keep[i] says which nodes
 * remain and *t is their T. A faster node in place of a slower one never
 * lowers a T, so the fastest nodes are the ones to keep. Returns k (0: every
 * node helps) or -EINVAL (bad input, or a budget below n). */
int bw_leave_out(const double *bw, unsigned n, unsigned budget, bool *keep, double *t);

#endif

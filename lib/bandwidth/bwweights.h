/* SPDX-License-Identifier: GPL-2.0-or-later */
/* numactl2's rounding of bandwidths into weights at a given budget, and
 * the search over sums it shares with bwsum.c (bwweights.c). Pure. */
#ifndef NUMACTL2_BWWEIGHTS_H
#define NUMACTL2_BWWEIGHTS_H

#include <stdint.h>

#include "bandwidth/bwmodel.h"

/* The kernel's own budget for its auto weights ("weightiness" in mm/mempolicy.c). */
#define BW_BUDGET_DEFAULT 32

/* Weights w[0..n-1] (each >= 1, sum <= budget) that maximise the modelled
 * throughput T(w) = min_i(bw[i] * S / w[i]), S = sum w; ties broken toward the
 * smallest sum, then toward the highest node limits bw[i] * S / w[i], smallest
 * first (leximin: 4:2:1:1 before 1:4:2:1 for 200/100/50/25 at 8), then
 * lexicographically. Two throughputs within a relative
 * BW_TIE (far above rounding, far below any real difference) are a tie.
 * Returns 0, or -EINVAL (n == 0, n > 64, budget < n, budget > 255, a bandwidth
 * <= 0 or not finite). */
int bw_optimal_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w);

/* What bw_choose_weights() shares with bw_optimal_weights() (bwweights.c),
 * over every sum from n to n * 255 with each weight at most 255: the
 * smallest sum whose best T reaches t (0 if none does), the highest T of any
 * sum, and the weights of sum s (n <= s <= n * 255) that
 * bw_optimal_weights() would give were s its optimum. */
unsigned bw_smallest_sum_reaching(const double *bw, unsigned n, double t);
double bw_best_throughput(const double *bw, unsigned n);
void bw_fill_sum(const double *bw, unsigned n, unsigned s, uint8_t *w);

#endif

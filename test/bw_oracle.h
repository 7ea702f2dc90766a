/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The exhaustive search that bw_optimal_weights() must agree with: every
 * weight vector of the budget, tried one by one. Test and bench builds only. */
#ifndef NUMACTL2_BW_ORACLE_H
#define NUMACTL2_BW_ORACLE_H

#include <stdint.h>

/* The same contract as bw_optimal_weights(), for valid input only. */
void bw_oracle_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w);

/* The same as bw_choose_weights() with BW_BUDGET_CHOOSE, for valid input
 * only; slow beyond 4 nodes and sums of a few hundred. */
void bw_oracle_choose(const double *bw, unsigned n, uint8_t *w);

#endif

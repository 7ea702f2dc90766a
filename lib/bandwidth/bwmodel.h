/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The model every rounding of bandwidths into weights is judged by, and
 * what the roundings share (bwmodel.c). Pure: no I/O, no exit.
 *
 * The model: with weights w and S = sum w, a bandwidth-bound job that
 * streams over its pages moves S pages per cycle, w[i] of them on node i, so
 * node i alone limits the whole to bw[i] * S / w[i]:
 *	T(w) = min_i(bw[i] * S / w[i]),  at most sum bw (when w is proportional to bw).
 * T / sum bw is the weights' modelled efficiency. */
#ifndef NUMACTL2_BWMODEL_H
#define NUMACTL2_BWMODEL_H

#include <stdbool.h>
#include <stdint.h>
#include "libnumactl2.h"

/* Two throughputs within a relative BW_TIE (far above rounding, far below
 * any real difference) are a tie. */
#define BW_TIE 1e-9

/* T(w) in the unit of bw. */
double bw_modelled_throughput(const double *bw, unsigned n, const uint8_t *w);

/* What every rounding shares (bwmodel.c): the input check (n nodes, 1-64;
 * min_budget <= budget <= 255; bandwidths finite and above 0) and dividing
 * weights by their gcd. */
bool bw_input_valid(const double *bw, unsigned n, unsigned budget, unsigned min_budget);
void bw_divide_by_gcd(unsigned *v, unsigned n);

/* min and max of two bandwidths or throughputs, all finite (bw_input_valid):
 * libm's fmin and fmax would link libm into numactl2, whose loading alone
 * costs 24,396 instructions at every start (9.3% of numactl2 -i all
 * /bin/true, bench/overhead). */
static inline double bw_min(double a, double b)
{
	return a < b ? a : b;
}

static inline double bw_max(double a, double b)
{
	return a > b ? a : b;
}

/* One term of T, written once so that the search and the oracle round alike. */
static inline double bw_node_limit(double bw, unsigned sum, unsigned w)
{
	return bw * (double)sum / (double)w;
}

#endif

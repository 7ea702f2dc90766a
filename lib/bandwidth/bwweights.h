/* Interleave weights from node bandwidths: numactl2's rounding, and the
 * kernel's for comparison (HMSDK's is only the tests', test/bw_hmsdk.h).
 * Pure: no I/O, no exit.
 *
 * The model: with weights w and S = sum w, a bandwidth-bound job that
 * streams over its pages moves S pages per cycle, w[i] of them on node i, so
 * node i alone limits the whole to bw[i] * S / w[i]:
 *	T(w) = min_i(bw[i] * S / w[i]),  at most sum bw (when w is proportional to bw).
 * T / sum bw is the weights' modelled efficiency. */
#ifndef NUMACTL2_BWWEIGHTS_H
#define NUMACTL2_BWWEIGHTS_H

#include <stdbool.h>
#include <stdint.h>

#define BW_MAX_NODES 64
/* The kernel's own budget for its auto weights ("weightiness" in mm/mempolicy.c). */
#define BW_BUDGET_DEFAULT 32
/* Weights are u8 in the kernel (1-255): a budget of at most 255 keeps every
 * weight in range whatever the number of nodes. */
#define BW_WEIGHT_MAX 255
#define BW_BUDGET_MAX BW_WEIGHT_MAX

/* Weights w[0..n-1] (each >= 1, sum <= budget) that maximise the modelled
 * throughput T(w) = min_i(bw[i] * S / w[i]), S = sum w; ties broken toward the
 * smallest sum, then toward the highest node limits bw[i] * S / w[i], smallest
 * first (leximin: 4:2:1:1 before 1:4:2:1 for 200/100/50/25 at 8), then
 * lexicographically. Two throughputs within a relative
 * BW_TIE (far above rounding, far below any real difference) are a tie.
 * Returns 0, or -EINVAL (n == 0, n > 64, budget < n, budget > 255, a bandwidth
 * <= 0 or not finite). */
int bw_optimal_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w);
#define BW_TIE 1e-9

/* T(w) in the unit of bw. */
double bw_modelled_throughput(const double *bw, unsigned n, const uint8_t *w);

/* The kernel's auto weights (6.16+, mm/mempolicy.c reduce_interleave_weights()
 * with weightiness = budget): floor(budget * bw / sum bw), at least 1, divided
 * by their gcd. bw in MB/s, as HMAT reports it. Returns 0 or -EINVAL (as above). */
int bw_kernel_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w);

/* What every rounding shares (bwmodel.c): the input check (n nodes, 1-64;
 * min_budget <= budget <= 255; bandwidths finite and above 0) and dividing
 * weights by their gcd. */
bool bw_input_valid(const double *bw, unsigned n, unsigned budget, unsigned min_budget);
void bw_divide_by_gcd(unsigned *v, unsigned n);

/* One term of T, written once so that the search and the oracle round alike. */
static inline double bw_node_limit(double bw, unsigned sum, unsigned w)
{
	return bw * (double)sum / (double)w;
}

#endif

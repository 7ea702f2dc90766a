/* Interleave weights from node bandwidths (see bwweights.h for the model).
 *
 * Why the search below is exact. Fix the sum S. Weights with sum S reach
 * min_i(bw[i] / w[i]) >= t exactly when 1 <= w[i] <= bw[i] / t for every i, so
 * they exist if and only if t <= min bw and at least S of the quotients
 * bw[i] / k (k = 1, 2, ...) are >= t. The best t for S is therefore
 * min(q(S), min bw), q(S) being the S-th largest quotient, which water-filling
 * (give the next unit to the node with the largest bw[i] / (k[i] + 1), the
 * D'Hondt rule) yields after S steps. One pass over S = 1..budget gives the
 * best throughput S * t for every S, hence the optimum and the smallest S that
 * reaches it; of that sum, the weights whose node limits are highest,
 * smallest first, follow from the same rule started at all ones.
 * O(budget * n): about 16000 steps at most. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>

#include "bandwidth/bwweights.h"

/* best[S] = the highest T of any weights summing to S, for S = n..budget. */
static void best_per_sum(const double *bw, unsigned n, unsigned budget, double *best)
{
	unsigned k[BW_MAX_NODES] = { 0 };
	double bmin = INFINITY;

	for (unsigned i = 0; i < n; i++)
		bmin = fmin(bmin, bw[i]);
	for (unsigned s = 1; s <= budget; s++) {
		unsigned pick = 0;

		for (unsigned i = 1; i < n; i++)
			if (bw[i] * (k[pick] + 1) > bw[pick] * (k[i] + 1))
				pick = i;
		k[pick]++;
		/* q(s) = bw[pick] / k[pick]; capped at min bw, where every node keeps 1. */
		if (s >= n)
			best[s] = bw[pick] / k[pick] < bmin ? bw_node_limit(bw[pick], s, k[pick]) :
							       bw_node_limit(bmin, s, 1);
	}
}

/* -1, 0 or 1 as a is below, within BW_TIE of, or above b. */
static int compare(double a, double b)
{
	return a < b * (1 - BW_TIE) ? -1 : a > b * (1 + BW_TIE);
}

/* Should the next unit go to node i rather than to pick? The one whose limit
 * stays highest (D'Hondt); on a tie the one whose limit is lower now, so
 * the higher one is kept; then the later node, so that the weights stay
 * lexicographically smallest. */
static bool takes_unit(const double *bw, const uint8_t *w, unsigned i, unsigned pick)
{
	int after = compare(bw[i] / (w[i] + 1), bw[pick] / (w[pick] + 1));

	return after > 0 || (after == 0 && compare(bw[i] / w[i], bw[pick] / w[pick]) <= 0);
}

/* Of the weights with sum s, those that keep the node limits highest,
 * smallest first (leximin), one unit at a time from all ones; this also
 * reaches the best T of that sum. */
static void leximin_fill(const double *bw, unsigned n, unsigned s, uint8_t *w)
{
	for (unsigned i = 0; i < n; i++)
		w[i] = 1;
	for (unsigned left = s - n; left > 0; left--) {
		unsigned pick = 0;

		for (unsigned i = 1; i < n; i++)
			if (takes_unit(bw, w, i, pick))
				pick = i;
		w[pick]++;
	}
}

int bw_optimal_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w)
{
	double best[BW_BUDGET_MAX + 1] = { 0 }, top = 0, floor_t;
	unsigned s;

	if (!bw_input_valid(bw, n, budget, n))
		return -EINVAL;
	best_per_sum(bw, n, budget, best);
	for (s = n; s <= budget; s++)
		top = fmax(top, best[s]);
	floor_t = top * (1 - BW_TIE);
	for (s = n; best[s] < floor_t; s++)
		;
	leximin_fill(bw, n, s, w);
	return 0;
}

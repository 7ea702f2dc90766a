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
#include <limits.h>
#include <math.h>
#include <stdbool.h>

#include "bwweights.h"

static bool valid_input(const double *bw, unsigned n, unsigned budget, unsigned min_budget)
{
	if (n == 0 || n > BW_MAX_NODES || budget < min_budget || budget > BW_BUDGET_MAX)
		return false;
	for (unsigned i = 0; i < n; i++)
		if (!(bw[i] > 0) || !isfinite(bw[i]))
			return false;
	return true;
}

/* One term of T, written once so that the search and the oracle round alike. */
static double node_limit(double bw, unsigned sum, unsigned w)
{
	return bw * (double)sum / (double)w;
}

double bw_modelled_throughput(const double *bw, unsigned n, const uint8_t *w)
{
	unsigned sum = 0;
	double t = INFINITY;

	for (unsigned i = 0; i < n; i++)
		sum += w[i];
	for (unsigned i = 0; i < n; i++)
		t = fmin(t, node_limit(bw[i], sum, w[i]));
	return t;
}

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
			best[s] = bw[pick] / k[pick] < bmin ? node_limit(bw[pick], s, k[pick]) :
							       node_limit(bmin, s, 1);
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
	double best[BW_BUDGET_MAX + 1], top = 0, floor_t;
	unsigned s;

	if (!valid_input(bw, n, budget, n))
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

static unsigned gcd(unsigned a, unsigned b)
{
	while (b) {
		unsigned r = a % b;

		a = b;
		b = r;
	}
	return a;
}

static void divide_by_gcd(unsigned *v, unsigned n)
{
	unsigned g = 0;

	for (unsigned i = 0; i < n; i++)
		g = gcd(g, v[i]);
	for (unsigned i = 0; i < n; i++)
		v[i] /= g;
}

/* Linux 6.16+, mm/mempolicy.c, reduce_interleave_weights(): for each node
 * with memory, weightiness (32) * bw / sum_bw when that is above 1, else 1
 * ("round the weight up to 1"), then "1:2 is strictly better than 16:32":
 * every weight divided by their gcd. bw is min(read, write) bandwidth of
 * access class 1 (mempolicy_set_node_perf(), ACCESS_COORDINATE_CPU). */
int bw_kernel_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w)
{
	unsigned v[BW_MAX_NODES];
	double sum = 0;

	if (!valid_input(bw, n, budget, 1))
		return -EINVAL;
	for (unsigned i = 0; i < n; i++)
		sum += bw[i];
	for (unsigned i = 0; i < n; i++)
		v[i] = (unsigned)fmax(floor(budget * bw[i] / sum), 1);
	divide_by_gcd(v, n);
	for (unsigned i = 0; i < n; i++)
		w[i] = (uint8_t)v[i];
	return 0;
}

/* skhynix/hmsdk tools/iw_ratio.py, get_iw_ratio(), SOFT_MAX_RATIO_VAL = 10:
 * bwactl.py first truncates MLC's MB/s to int. */
#define HMSDK_SOFT_MAX 10.0

static bool hmsdk_halve(double *d, unsigned n)
{
	double max = 0;

	for (unsigned i = 0; i < n; i++)
		max = fmax(max, d[i]);
	if (max <= HMSDK_SOFT_MAX)
		return false;
	for (unsigned i = 0; i < n; i++)
		if (d[i] / 2 <= 1)
			return false;
	for (unsigned i = 0; i < n; i++)
		d[i] /= 2;
	return true;
}

int bw_hmsdk_weights(const double *bw, unsigned n, uint8_t *w)
{
	double d[BW_MAX_NODES];
	unsigned v[BW_MAX_NODES];

	if (!valid_input(bw, n, 1, 1))
		return -EINVAL;
	for (unsigned i = 0; i < n; i++) {
		d[i] = trunc(bw[i]);
		if (d[i] < 1)
			return -EINVAL;
	}
	while (hmsdk_halve(d, n))
		;
	/* Python's round() rounds half to even, as nearbyint() does by default.
	 * The halving stops at the smallest value, so the largest is bounded
	 * only by the bandwidths' ratio. */
	for (unsigned i = 0; i < n; i++)
		if (nearbyint(d[i]) > UINT_MAX / 2)
			return -ERANGE;
	for (unsigned i = 0; i < n; i++)
		v[i] = (unsigned)nearbyint(d[i]);
	divide_by_gcd(v, n);
	for (unsigned i = 0; i < n; i++) {
		if (v[i] > BW_WEIGHT_MAX)
			return -ERANGE;
		w[i] = (uint8_t)v[i];
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Interleave weights from node bandwidths (see bwweights.h for the model):
 * the best weights of a sum, and of any sum up to a budget.
 *
 * Why the search below is exact. Fix the sum S. Weights with sum S reach
 * min_i(bw[i] / w[i]) >= t exactly when 1 <= w[i] <= min(255, bw[i] / t) for
 * every i, so they exist if and only if t <= min bw and at least S of the
 * quotients bw[i] / k (k = 1, 2, ..., 255) are >= t. The best t for S is
 * therefore min(q(S), min bw), q(S) being the S-th largest quotient, which
 * water-filling (give the next unit to the node with the largest
 * bw[i] / (k[i] + 1) among those below 255, the D'Hondt rule) yields after S
 * steps. One pass over S = 1..budget gives the best throughput S * t for
 * every S, hence the optimum and the smallest S that reaches it; of that
 * sum, the weights whose node limits are highest, smallest first, follow
 * from the same rule started at all ones.
 * O(budget * n): about 16000 steps at a budget of 255, a million for 64
 * nodes at every sum up to 64 * 255. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>

#include "bandwidth/bwweights.h"

/* Water-filling: k[i] units on node i after s steps. */
struct fill {
	const double *bw;
	unsigned n, s, k[BW_MAX_NODES];
	double bmin;
};

static void fill_start(struct fill *f, const double *bw, unsigned n)
{
	*f = (struct fill){ .bw = bw, .n = n, .bmin = INFINITY };
	for (unsigned i = 0; i < n; i++)
		f->bmin = bw_min(f->bmin, bw[i]);
}

/* One more unit. Returns the highest T of any weights summing to the new
 * f->s (meaningful from s = n on), or 0 when every node holds 255. */
static double fill_next(struct fill *f)
{
	const double *bw = f->bw;
	unsigned pick = f->n;

	for (unsigned i = 0; i < f->n; i++)
		if (f->k[i] < BW_WEIGHT_MAX &&
		    (pick == f->n || bw[i] * (f->k[pick] + 1) > bw[pick] * (f->k[i] + 1)))
			pick = i;
	if (pick == f->n)
		return 0;
	f->k[pick]++;
	f->s++;
	/* q(s) = bw[pick] / k[pick]; capped at min bw, where every node keeps 1. */
	return bw[pick] / f->k[pick] < f->bmin ? bw_node_limit(bw[pick], f->s, f->k[pick]) :
						  bw_node_limit(f->bmin, f->s, 1);
}

unsigned bw_smallest_sum_reaching(const double *bw, unsigned n, double t)
{
	struct fill f;
	double best;

	fill_start(&f, bw, n);
	while ((best = fill_next(&f)) > 0)
		if (f.s >= n && best >= t)
			return f.s;
	return 0;
}

double bw_best_throughput(const double *bw, unsigned n)
{
	struct fill f;
	double best, top = 0;

	fill_start(&f, bw, n);
	while ((best = fill_next(&f)) > 0)
		if (f.s >= n)
			top = bw_max(top, best);
	return top;
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
void bw_fill_sum(const double *bw, unsigned n, unsigned s, uint8_t *w)
{
	for (unsigned i = 0; i < n; i++)
		w[i] = 1;
	for (unsigned left = s - n; left > 0; left--) {
		unsigned pick = n;

		for (unsigned i = 0; i < n; i++)
			if (w[i] < BW_WEIGHT_MAX && (pick == n || takes_unit(bw, w, i, pick)))
				pick = i;
		w[pick]++;
	}
}

int bw_optimal_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w)
{
	double best[BW_BUDGET_MAX + 1] = { 0 }, top = 0, floor_t;
	struct fill f;
	unsigned s;

	if (!bw_input_valid(bw, n, budget, n))
		return -EINVAL;
	fill_start(&f, bw, n);
	for (s = 1; s <= budget; s++)
		best[s] = fill_next(&f);
	for (s = n; s <= budget; s++)
		top = bw_max(top, best[s]);
	floor_t = top * (1 - BW_TIE);
	for (s = n; best[s] < floor_t; s++)
		;
	bw_fill_sum(bw, n, s, w);
	return 0;
}

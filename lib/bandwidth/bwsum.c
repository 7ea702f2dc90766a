// SPDX-License-Identifier: GPL-2.0-or-later
/* --weights=auto's weight sum: the kernel's 32 where that is close enough
 * to the nodes' bandwidth in the model, else the smallest sum that is (see
 * bw_choose_weights() in bwweights.h), and which nodes cannot help. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>

#include "bandwidth/bwsum.h"

static double sum_of(const double *bw, unsigned n)
{
	double total = 0;

	for (unsigned i = 0; i < n; i++)
		total += bw[i];
	return total;
}

/* The best T of any weights summing to s (bw_fill_sum() reaches it). */
static double best_at(const double *bw, unsigned n, unsigned s)
{
	uint8_t w[BW_MAX_NODES];

	bw_fill_sum(bw, n, s, w);
	return bw_modelled_throughput(bw, n, w);
}

/* Past 32: the goal's smallest sum, or one more where that models more
 * (300/60/6/2: 150:30:3:1, exact, over 150:30:2:1 at 99.4%); else the best
 * T's smallest sum. */
static void choose_sum(const double *bw, unsigned n, struct bw_choice *c)
{
	double goal = BW_SUM_GOAL * sum_of(bw, n), top = bw_best_throughput(bw, n);

	c->why = top >= goal * (1 - BW_TIE) ? BW_SUM_REACHED : BW_SUM_BEST;
	c->sum = bw_smallest_sum_reaching(bw, n, bw_min(goal, top) * (1 - BW_TIE));
	if (c->why == BW_SUM_REACHED && c->sum + 1 <= n * BW_WEIGHT_MAX &&
	    best_at(bw, n, c->sum + 1) > best_at(bw, n, c->sum) * (1 + BW_TIE)) {
		c->sum++;
		c->stepped = true;
	}
}

static void finish(const double *bw, unsigned n, const uint8_t *w, struct bw_choice *c)
{
	c->total = sum_of(bw, n);
	c->sum = 0;
	for (unsigned i = 0; i < n; i++)
		c->sum += w[i];
	c->t = bw_modelled_throughput(bw, n, w);
}

int bw_choose_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w,
		      struct bw_choice *c)
{
	*c = (struct bw_choice){ .why = BW_SUM_BUDGET };
	if (budget != BW_BUDGET_CHOOSE) {
		int rc = bw_optimal_weights(bw, n, budget, w);

		if (rc == 0)
			finish(bw, n, w, c);
		return rc;
	}
	if (!bw_input_valid(bw, n, 1, 1))
		return -EINVAL;
	if (n <= BW_BUDGET_DEFAULT) {
		bw_optimal_weights(bw, n, BW_BUDGET_DEFAULT, w);
		c->t_default = bw_modelled_throughput(bw, n, w);
		c->why = BW_SUM_KEPT;
	}
	if (c->t_default < BW_SUM_GOAL * sum_of(bw, n) * (1 - BW_TIE)) {
		choose_sum(bw, n, c);
		bw_fill_sum(bw, n, c->sum, w);
	}
	finish(bw, n, w, c);
	return 0;
}

/* order[] = the node indices, fastest first (the lower index on a tie). */
static void by_bandwidth(const double *bw, unsigned n, unsigned *order)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned j = i;

		for (; j > 0 && bw[order[j - 1]] < bw[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
}

/* The T of bw_choose_weights() over the m fastest nodes. */
static double fastest_throughput(const double *bw, const unsigned *order, unsigned m,
				 unsigned budget)
{
	double sub[BW_MAX_NODES];
	uint8_t w[BW_MAX_NODES];
	struct bw_choice c;

	for (unsigned i = 0; i < m; i++)
		sub[i] = bw[order[i]];
	return bw_choose_weights(sub, m, budget, w, &c) == 0 ? c.t : 0;
}

int bw_leave_out(const double *bw, unsigned n, unsigned budget, bool *keep, double *t)
{
	unsigned order[BW_MAX_NODES] = { 0 }, best_m = n;

	if (!bw_input_valid(bw, n, 1, 1) || (budget != BW_BUDGET_CHOOSE && budget < n))
		return -EINVAL;
	by_bandwidth(bw, n, order);
	*t = fastest_throughput(bw, order, n, budget);
	for (unsigned m = n - 1; m >= 1; m--) {
		double tm = fastest_throughput(bw, order, m, budget);

		if (tm >= *t * (1 - BW_TIE)) {
			*t = bw_max(*t, tm);
			best_m = m;
		}
	}
	for (unsigned i = 0; i < n; i++)
		keep[order[i]] = i < best_m;
	return (int)(n - best_m);
}

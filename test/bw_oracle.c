// SPDX-License-Identifier: GPL-2.0-or-later
/* Exhaustive search over every w with w[i] >= 1 and sum <= budget, in
 * lexicographic order: C(budget, n) vectors (10.5 million for 8 nodes at 32).
 * Pass one finds the highest T; pass two takes, among the weights within
 * BW_TIE of it, the smallest sum, then the highest node limits smallest first
 * (leximin: their sorted bw[i] / w[i] compared in order), and of those the
 * first met, which is the lexicographically smallest.
 *
 * The chosen sum (bw_oracle_choose) cannot walk every w up to 255 per node
 * (255^4 for 4 nodes), so its pass one is a dynamic programme over the nodes
 * that still tries every weight of every node: the highest min(bw[i] / w[i])
 * of the first j nodes summing to s is the best over w[j - 1] of
 * min(bw[j - 1] / w[j - 1], that of the first j - 1 nodes summing to
 * s - w[j - 1]), exact for a max-min. Pass two walks every w of the chosen
 * sum whose T is within BW_TIE of that sum's best. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "test/bw_oracle.h"
#include "bandwidth/bwsum.h"

struct search {
	const double *bw;
	unsigned n, budget;
	bool choosing;		/* pass two */
	double top, floor_t;
	unsigned best_sum;
	uint8_t cur[BW_MAX_NODES], best[BW_MAX_NODES];
	double best_limits[BW_MAX_NODES];	/* sorted bw / w of best */
};

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void sorted_limits(const struct search *s, double *limits)
{
	for (unsigned i = 0; i < s->n; i++)
		limits[i] = s->bw[i] / s->cur[i];
	qsort(limits, s->n, sizeof(*limits), by_value);
}

/* cur against best at the same sum: higher at the first limit that differs
 * by more than BW_TIE. */
static bool leximin_better(const struct search *s, const double *limits)
{
	for (unsigned i = 0; i < s->n; i++) {
		if (limits[i] > s->best_limits[i] * (1 + BW_TIE))
			return true;
		if (limits[i] < s->best_limits[i] * (1 - BW_TIE))
			return false;
	}
	return false;
}

/* T = sum * min(bw[i] / w[i]): bw_modelled_throughput() up to rounding,
 * which BW_TIE absorbs, at one multiplication per vector. */
static void visit(struct search *s, unsigned sum, double min_ratio)
{
	double t = min_ratio * sum;

	if (!s->choosing) {
		if (t > s->top)
			s->top = t;
		return;
	}
	double limits[BW_MAX_NODES];

	if (t < s->floor_t || sum > s->best_sum)
		return;
	sorted_limits(s, limits);
	if (sum < s->best_sum || leximin_better(s, limits)) {
		s->best_sum = sum;
		memcpy(s->best, s->cur, s->n);
		memcpy(s->best_limits, limits, s->n * sizeof(*limits));
	}
}

/* Node i onwards; nodes 0..i-1 took sum, with min(bw / w) = min_ratio. */
static void walk(struct search *s, unsigned i, unsigned sum, double min_ratio)
{
	if (i == s->n) {
		visit(s, sum, min_ratio);
		return;
	}
	for (unsigned w = 1; sum + w + (s->n - i - 1) <= s->budget; w++) {
		double r = s->bw[i] / w;

		s->cur[i] = (uint8_t)w;
		walk(s, i + 1, sum + w, r < min_ratio ? r : min_ratio);
	}
}

/* Pass two at the one sum s->budget: every w of that sum, each weight at most
 * 255, whose T can still reach floor_t (min_ratio only falls as nodes are
 * added, and bw[i] / w falls as w grows). */
static void walk_sum(struct search *s, unsigned i, unsigned sum, double min_ratio)
{
	unsigned left = s->budget - sum;

	if (i == s->n - 1) {
		if (left > BW_WEIGHT_MAX)
			return;
		s->cur[i] = (uint8_t)left;
		visit(s, s->budget, fmin(min_ratio, s->bw[i] / left));
		return;
	}
	for (unsigned w = 1; w <= BW_WEIGHT_MAX && sum + w + (s->n - i - 1) <= s->budget; w++) {
		double r = fmin(min_ratio, s->bw[i] / w);

		if (r * s->budget < s->floor_t)
			break;
		s->cur[i] = (uint8_t)w;
		walk_sum(s, i + 1, sum + w, r);
	}
}

/* best[s] = the highest T of any w summing to s (n <= s <= n * 255). */
static void best_per_sum(const double *bw, unsigned n, double *best)
{
	static double row[BW_MAX_NODES * BW_WEIGHT_MAX + 1], next[BW_MAX_NODES * BW_WEIGHT_MAX + 1];
	unsigned top = n * BW_WEIGHT_MAX;

	for (unsigned s = 0; s <= top; s++)
		row[s] = s == 0 ? INFINITY : 0;
	for (unsigned j = 0; j < n; j++) {
		for (unsigned s = 0; s <= top; s++) {
			next[s] = 0;
			for (unsigned w = 1; w <= BW_WEIGHT_MAX && w <= s; w++)
				next[s] = fmax(next[s], fmin(bw[j] / w, row[s - w]));
		}
		memcpy(row, next, (top + 1) * sizeof(*row));
	}
	for (unsigned s = n; s <= top; s++)
		best[s] = row[s] * s;
}

/* The smallest sum whose best T reaches min(goal, the highest T). */
static unsigned oracle_sum(const double *bw, unsigned n, double goal, double *best)
{
	double top = 0, target;
	unsigned s;

	best_per_sum(bw, n, best);
	for (s = n; s <= n * BW_WEIGHT_MAX; s++)
		top = fmax(top, best[s]);
	target = fmin(goal, top) * (1 - BW_TIE);
	for (s = n; best[s] < target; s++)
		;
	/* One step above the goal's smallest sum where it models more. */
	if (top >= goal * (1 - BW_TIE) && s < n * BW_WEIGHT_MAX && best[s + 1] > best[s] * (1 + BW_TIE))
		s++;
	return s;
}

void bw_oracle_choose(const double *bw, unsigned n, uint8_t *w)
{
	static double best[BW_MAX_NODES * BW_WEIGHT_MAX + 1];
	struct search s = { .bw = bw, .n = n, .best_sum = ~0U, .choosing = true };
	double total = 0;

	for (unsigned i = 0; i < n; i++)
		total += bw[i];
	if (n <= BW_BUDGET_DEFAULT) {
		bw_oracle_weights(bw, n, BW_BUDGET_DEFAULT, w);
		if (bw_modelled_throughput(bw, n, w) >= BW_SUM_GOAL * total * (1 - BW_TIE))
			return;
	}
	s.budget = oracle_sum(bw, n, BW_SUM_GOAL * total, best);
	s.floor_t = best[s.budget] * (1 - BW_TIE);
	walk_sum(&s, 0, 0, INFINITY);
	memcpy(w, s.best, n);
}

void bw_oracle_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w)
{
	struct search s = { .bw = bw, .n = n, .budget = budget, .best_sum = ~0U };

	walk(&s, 0, 0, INFINITY);
	s.choosing = true;
	s.floor_t = s.top * (1 - BW_TIE);
	walk(&s, 0, 0, INFINITY);
	memcpy(w, s.best, n);
}

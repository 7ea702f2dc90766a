/* Exhaustive search over every w with w[i] >= 1 and sum <= budget, in
 * lexicographic order: C(budget, n) vectors (10.5 million for 8 nodes at 32).
 * Pass one finds the highest T; pass two takes, among the weights within
 * BW_TIE of it, the smallest sum, then the highest node limits smallest first
 * (leximin: their sorted bw[i] / w[i] compared in order), and of those the
 * first met, which is the lexicographically smallest. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "test/bw_oracle.h"
#include "bandwidth/bwweights.h"

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

void bw_oracle_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w)
{
	struct search s = { .bw = bw, .n = n, .budget = budget, .best_sum = ~0U };

	walk(&s, 0, 0, INFINITY);
	s.choosing = true;
	s.floor_t = s.top * (1 - BW_TIE);
	walk(&s, 0, 0, INFINITY);
	memcpy(w, s.best, n);
}

/* Exhaustive search over every w with w[i] >= 1 and sum <= budget, in
 * lexicographic order: C(budget, n) vectors (10.5 million for 8 nodes at 32).
 * Pass one finds the highest T; pass two takes, among the weights within
 * BW_TIE of it, the smallest sum, and of those the first met, which is the
 * lexicographically smallest. */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "bw_oracle.h"
#include "bwweights.h"

struct search {
	const double *bw;
	unsigned n, budget;
	bool choosing;		/* pass two */
	double top, floor_t;
	unsigned best_sum;
	uint8_t cur[BW_MAX_NODES], best[BW_MAX_NODES];
};

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
	if (t >= s->floor_t && sum < s->best_sum) {
		s->best_sum = sum;
		memcpy(s->best, s->cur, s->n);
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

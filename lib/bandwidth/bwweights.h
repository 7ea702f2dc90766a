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
#include <limits.h>
#include <stdint.h>

#define BW_MAX_NODES 64
/* The kernel's own budget for its auto weights ("weightiness" in mm/mempolicy.c). */
#define BW_BUDGET_DEFAULT 32
/* Weights are u8 in the kernel (1-255): a budget of at most 255 keeps every
 * weight in range whatever the number of nodes. Only the budget is bounded
 * so: a sum that bw_choose_weights() chooses may reach n * 255. */
#define BW_WEIGHT_MAX 255
#define BW_BUDGET_MAX BW_WEIGHT_MAX
/* bw_choose_weights() without a budget: it chooses the sum. Not 0, which
 * callers take for "not given". */
#define BW_BUDGET_CHOOSE UINT_MAX
/* The share of the nodes' combined bandwidth that a chosen sum must model. */
#define BW_SUM_GOAL 0.99

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

/* Why bw_choose_weights() took its sum. */
enum bw_sum_reason {
	BW_SUM_KEPT,		/* the optimum at 32 reaches the goal: today's weights */
	BW_SUM_REACHED,		/* the smallest sum whose optimum reaches the goal */
	BW_SUM_BEST,		/* the goal is out of reach: the best with weights <= 255 */
	BW_SUM_BUDGET,		/* a budget was given: bw_optimal_weights() at it */
};

struct bw_choice {
	enum bw_sum_reason why;
	unsigned sum;		/* of w */
	double total;		/* sum bw */
	double t;		/* T(w) */
	double t_default;	/* T of the optimum at 32; 0 with a budget or more than 32 nodes */
};

/* --weights=auto's weights. With a budget (1-255), bw_optimal_weights() at
 * it. With BW_BUDGET_CHOOSE, the sum too: the optimum at 32 where its T
 * reaches BW_SUM_GOAL of sum bw; else, with every weight at most 255, the
 * optimum of the smallest sum that reaches the goal or, where none does, of
 * the smallest sum that reaches the highest T of all. Such a sum may exceed
 * 255. Returns 0 or -EINVAL (bad input as above, or budget < n). */
int bw_choose_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w,
		      struct bw_choice *c);

/* Which nodes --weights=auto is better without. A node can only help
 * if its bandwidth adds more to the modelled T than the rounding of its
 * weight (at least one slot of every round, which the faster nodes wait
 * for) costs. Precisely: the slowest k nodes (k >= 1; the higher index
 * first among equal bandwidths) cannot help when bw_choose_weights() at the
 * same budget over the other nodes models at least the T (within BW_TIE)
 * that it models over all of them. Of such k, the one whose T is highest,
 * and the largest k among equal T, is left out: keep[i] says which nodes
 * remain and *t is their T. A faster node in place of a slower one never
 * lowers a T, so the fastest nodes are the ones to keep. Returns k (0: every
 * node helps) or -EINVAL (bad input, or a budget below n). */
int bw_leave_out(const double *bw, unsigned n, unsigned budget, bool *keep, double *t);

/* T(w) in the unit of bw. */
double bw_modelled_throughput(const double *bw, unsigned n, const uint8_t *w);

/* The kernel's auto weights (6.16+, mm/mempolicy.c reduce_interleave_weights()
 * with weightiness = budget): floor(budget * bw / sum bw), at least 1, divided
 * by their gcd. bw in MB/s, as HMAT reports it. Returns 0 or -EINVAL (as above). */
int bw_kernel_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w);

/* What bw_choose_weights() shares with bw_optimal_weights() (bwweights.c),
 * over every sum from n to n * 255 with each weight at most 255: the
 * smallest sum whose best T reaches t (0 if none does), the highest T of any
 * sum, and the weights of sum s (n <= s <= n * 255) that
 * bw_optimal_weights() would give were s its optimum. */
unsigned bw_smallest_sum_reaching(const double *bw, unsigned n, double t);
double bw_best_throughput(const double *bw, unsigned n);
void bw_fill_sum(const double *bw, unsigned n, unsigned s, uint8_t *w);

/* What every rounding shares (bwmodel.c): the input check (n nodes, 1-64;
 * min_budget <= budget <= 255; bandwidths finite and above 0) and dividing
 * weights by their gcd. */
bool bw_input_valid(const double *bw, unsigned n, unsigned budget, unsigned min_budget);
void bw_divide_by_gcd(unsigned *v, unsigned n);

/* min and max of two bandwidths or throughputs, all finite (bw_input_valid):
 * libm's fmin and fmax would link libm into numactl2, whose loading alone
 * costs more instructions at every start than numactl spends up to its exec. */
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

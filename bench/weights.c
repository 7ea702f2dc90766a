// SPDX-License-Identifier: GPL-2.0-or-later
/* bench/weights [BUDGET]: the modelled efficiency (T / sum of bandwidths, see
 * bwweights.h) of 1:1, the kernel's auto weights (at BUDGET, default 32),
 * HMSDK's rounding, numactl2's rounding at BUDGET and numactl2's default
 * (bw_choose_weights(): the sum chosen too), each at its own sum, for the
 * seed's figures, the test guest's HMAT table, the slow-node tables
 * and seeded random tables, plus the default's time to compute.
 *
 * Checks, exit 1 if one fails:
 * - at equal sums: numactl2's rounding at each other method's sum (the
 *   optimum up to it, or of exactly it beyond 255) reaches that method;
 * - at their own sums: numactl2's default is below another method only if
 *   that method uses a larger sum (a less even spread of a small
 *   allocation) and the default reaches the 99% goal: the trade the default
 *   makes on purpose, listed as "trade" lines; any other shortfall fails;
 * - numactl2 at BUDGET and its default equal the exhaustive oracles. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test/bw_oracle.h"
#include "test/bw_random.h"
#include "test/bw_hmsdk.h"
#include "bandwidth/bwsum.h"
#include "bandwidth/kernelrule.h"

enum method { ONE_TO_ONE, KERNEL, HMSDK, NUMACTL2, DEFAULT, METHODS };
static const char *const method_name[METHODS] = { "1:1", "kernel", "HMSDK", "numactl2",
						  "default" };

/* Beyond this many nodes the chosen sum's oracle is too slow to run. */
#define ORACLE_CHOOSE_NODES 6

struct table {
	const char *name;
	unsigned n;
	double bw[BW_MAX_NODES];	/* MB/s */
};

/* The seed cover letter (001): STREAM on DDR5 + one CXL expander, DRAM-only
 * and CXL-only best rates; MLC on DRAM + CXL expanders, DRAM only, and the
 * CXL share as weighted total minus DRAM only. The guest: test/vm's HMAT. */
static const struct table named[] = {
	{ "guest HMAT 200/100/50/25", 4, { 200000, 100000, 50000, 25000 } },
	{ "seed STREAM triad", 2, { 208524, 24485 } },
	{ "seed STREAM copy", 2, { 200923, 22210 } },
	{ "seed MLC W2 (2:1 r:w)", 2, { 298800, 113700 } },
	{ "seed MLC W5 (1:1 r:w)", 2, { 273200, 109500 } },
	{ "slow nodes 250/20/7/3", 4, { 250000, 20000, 7000, 3000 } },
	{ "slow nodes 300/5/5/5", 4, { 300000, 5000, 5000, 5000 } },
	{ "slow nodes 180/25/25/2", 4, { 180000, 25000, 25000, 2000 } },
	{ "one step up 300/60/6/2", 4, { 300000, 60000, 6000, 2000 } },
	{ "one socket 200/80/60/20", 4, { 200000, 80000, 60000, 20000 } },
};

struct result {
	bool ok;		/* the method gave weights */
	uint8_t w[BW_MAX_NODES];
	unsigned sum;
	double eff;
};

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void finish(const struct table *t, struct result *r)
{
	double total = 0;

	r->sum = 0;
	for (unsigned i = 0; i < t->n; i++) {
		total += t->bw[i];
		r->sum += r->w[i];
	}
	r->eff = r->ok ? 100 * bw_modelled_throughput(t->bw, t->n, r->w) / total : 0;
}

static bool default_weights(const struct table *t, uint8_t *w)
{
	struct bw_choice c;

	return bw_choose_weights(t->bw, t->n, BW_BUDGET_CHOOSE, w, &c) == 0;
}

static void run_methods(const struct table *t, unsigned budget, struct result *r)
{
	memset(r[ONE_TO_ONE].w, 1, t->n);
	r[ONE_TO_ONE].ok = true;
	r[KERNEL].ok = bw_kernel_weights(t->bw, t->n, budget, r[KERNEL].w) == 0;
	r[HMSDK].ok = bw_hmsdk_weights(t->bw, t->n, r[HMSDK].w) == 0;
	r[NUMACTL2].ok = bw_optimal_weights(t->bw, t->n, budget, r[NUMACTL2].w) == 0;
	r[DEFAULT].ok = default_weights(t, r[DEFAULT].w);
	for (int m = 0; m < METHODS; m++)
		finish(t, &r[m]);
}

/* One bw_choose_weights() call in microseconds: the mean over reps calls,
 * the best of 5 such batches (the machine is shared). */
static double time_default(const struct table *t, unsigned reps)
{
	uint8_t w[BW_MAX_NODES];
	double best = INFINITY;

	for (int batch = 0; batch < 5; batch++) {
		double start = now_us();

		for (unsigned i = 0; i < reps; i++)
			default_weights(t, w);
		best = fmin(best, (now_us() - start) / reps);
	}
	return best;
}

static void print_weights(const struct result *r, unsigned n)
{
	char buf[BW_MAX_NODES * 4 + 1] = "";
	size_t len = 0;

	for (unsigned i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%u", i ? ":" : "", r->w[i]);
	printf(" %-18s", buf);
}

struct totals {
	double eff[METHODS];
	unsigned count[METHODS];
	unsigned equal_sums, own_sums, trades, kept, tables, largest_sum;
	char largest[40];
};

/* numactl2's rounding at exactly sum s (beyond 255, where no budget goes),
 * or the best up to it. */
static void numactl2_at(const struct table *t, unsigned s, struct result *mine)
{
	mine->ok = true;
	if (s > BW_BUDGET_MAX)
		bw_fill_sum(t->bw, t->n, s, mine->w);
	else
		bw_optimal_weights(t->bw, t->n, s, mine->w);
	finish(t, mine);
}

/* At m's own sum (or the budget, if more), numactl2 reaches m. */
static bool check_equal_sum(const struct table *t, unsigned budget, const struct result *r,
			    int m, struct totals *tot)
{
	struct result mine;
	unsigned b = r[m].sum > budget ? r[m].sum : budget;

	numactl2_at(t, b, &mine);
	tot->equal_sums++;
	if (b > budget) {
		printf("  %-24s at %s's sum %u: numactl2 %.2f%%", "", method_name[m], b, mine.eff);
		print_weights(&mine, t->n);
		printf("\n");
	}
	if (mine.eff >= r[m].eff * (1 - BW_TIE))
		return true;
	printf("FAIL %s: numactl2 %.3f%% below %s %.3f%% at sum %u\n", t->name, mine.eff,
	       method_name[m], r[m].eff, b);
	return false;
}

/* At their own sums: the default is below m only where m's sum is larger
 * and the default reaches the goal. */
static bool check_own_sum(const struct table *t, const struct result *r, int m,
			  struct totals *tot)
{
	const struct result *d = &r[DEFAULT];

	tot->own_sums++;
	if (d->eff >= r[m].eff * (1 - BW_TIE))
		return true;
	if (r[m].sum > d->sum && d->eff >= 100 * BW_SUM_GOAL * (1 - BW_TIE)) {
		printf("  trade %s: %s %.2f%% at sum %u, the default %.2f%% at sum %u\n", t->name,
		       method_name[m], r[m].eff, r[m].sum, d->eff, d->sum);
		tot->trades++;
		return true;
	}
	printf("FAIL %s: the default %.3f%% (sum %u) below %s %.3f%% (sum %u)\n", t->name,
	       d->eff, d->sum, method_name[m], r[m].eff, r[m].sum);
	return false;
}

static bool check_others(const struct table *t, unsigned budget, const struct result *r,
			 struct totals *tot)
{
	bool good = true;

	for (int m = ONE_TO_ONE; m < DEFAULT; m++) {
		if (!r[m].ok)
			continue;
		if (m != NUMACTL2)
			good = check_equal_sum(t, budget, r, m, tot) && good;
		good = check_own_sum(t, r, m, tot) && good;
	}
	return good;
}

static bool check_oracle(const struct table *t, unsigned budget, const struct result *r)
{
	uint8_t o[BW_MAX_NODES];
	bool good = true;

	bw_oracle_weights(t->bw, t->n, budget, o);
	if (memcmp(o, r[NUMACTL2].w, t->n) != 0) {
		printf("FAIL %s: numactl2's weights differ from the exhaustive optimum\n", t->name);
		good = false;
	}
	if (t->n > ORACLE_CHOOSE_NODES)
		return good;
	bw_oracle_choose(t->bw, t->n, o);
	if (memcmp(o, r[DEFAULT].w, t->n) != 0) {
		printf("FAIL %s: the default's weights differ from the exhaustive choice\n", t->name);
		good = false;
	}
	return good;
}

static void print_row(const struct table *t, unsigned budget, const struct result *r, double us)
{
	printf("%-26s %2u", t->name, t->n);
	for (int m = 0; m < METHODS; m++) {
		if (!r[m].ok)
			printf(" %9s", "n/a");
		else
			printf(" %7.2f%%%c", r[m].eff, r[m].sum > budget ? '*' : ' ');
	}
	printf(" %4u", r[DEFAULT].sum);
	print_weights(&r[DEFAULT], t->n);
	printf(" %7.2f\n", us);
}

static void count_default(const struct table *t, unsigned budget, const struct result *r,
			  struct totals *tot)
{
	tot->tables++;
	tot->kept += memcmp(r[DEFAULT].w, r[NUMACTL2].w, t->n) == 0 && budget == BW_BUDGET_DEFAULT;
	if (r[DEFAULT].sum > tot->largest_sum) {
		tot->largest_sum = r[DEFAULT].sum;
		snprintf(tot->largest, sizeof(tot->largest), "%s", t->name);
	}
	for (int m = 0; m < METHODS; m++) {
		tot->eff[m] += r[m].eff;
		tot->count[m] += r[m].ok;
	}
}

static bool bench_table(const struct table *t, unsigned budget, struct totals *tot)
{
	struct result r[METHODS];
	bool good;

	run_methods(t, budget, r);
	print_row(t, budget, r, time_default(t, 200));
	good = check_others(t, budget, r, tot);
	if (t->n <= 8)
		good = check_oracle(t, budget, r) && good;
	count_default(t, budget, r, tot);
	return good;
}

static void print_header(unsigned budget)
{
	printf("modelled efficiency T / sum of bandwidths, each method at its own sum: the kernel's "
	       "and numactl2's at budget %u (* = the weights sum to more), the default's chosen\n",
	       budget);
	printf("%-26s %2s", "table", "n");
	for (int m = 0; m < METHODS; m++)
		printf(" %9s", method_name[m]);
	printf(" %4s %-18s %7s\n", "sum", " default weights", "us");
}

static void print_means(const struct totals *tot)
{
	printf("%-26s %2s", "mean of the random tables", "");
	for (int m = 0; m < METHODS; m++)
		printf(" %7.2f%% ", tot->count[m] ? tot->eff[m] / tot->count[m] : 0);
	printf(" (HMSDK over %u tables it could weight)\n", tot->count[HMSDK]);
}

static void add_totals(struct totals *all, const struct totals *t)
{
	all->equal_sums += t->equal_sums;
	all->own_sums += t->own_sums;
	all->trades += t->trades;
	all->kept += t->kept;
	all->tables += t->tables;
	if (t->largest_sum > all->largest_sum) {
		all->largest_sum = t->largest_sum;
		memcpy(all->largest, t->largest, sizeof(all->largest));
	}
}

static void print_summary(const struct totals *all)
{
	printf("summary: the default kept the optimum at %d on %u of %u tables; its largest sum "
	       "was %u (%s)\n", BW_BUDGET_DEFAULT, all->kept, all->tables, all->largest_sum,
	       all->largest);
	printf("summary: %u comparisons at equal sums, %u at own sums; %u trade(s): another "
	       "method higher at a larger sum where the default reaches %.0f%%\n",
	       all->equal_sums, all->own_sums, all->trades, 100 * BW_SUM_GOAL);
}

#define RANDOM_SEED 20260101
#define TABLES_PER_SIZE 3

static bool bench_random(unsigned budget, struct totals *all)
{
	struct totals tot = { 0 };
	uint64_t state = RANDOM_SEED;
	bool good = true;

	for (unsigned n = 2; n <= 8; n++) {
		for (unsigned k = 0; k < TABLES_PER_SIZE; k++) {
			struct table t = { .n = n };
			char name[32];

			snprintf(name, sizeof(name), "random %u nodes #%u", n, k);
			t.name = name;
			bw_random_table(&state, k, n, t.bw);
			if (n <= budget)
				good = bench_table(&t, budget, &tot) && good;
		}
	}
	print_means(&tot);
	add_totals(all, &tot);
	return good;
}

/* The largest input numactl2 takes: 64 nodes, every sum up to 64 * 255. */
static void bench_worst_time(void)
{
	uint64_t state = RANDOM_SEED;
	struct table t = { "64 nodes, default", BW_MAX_NODES, { 0 } };

	bw_random_table(&state, 0, t.n, t.bw);
	printf("the default's time for %s: %.2f us\n", t.name, time_default(&t, 5));
}

int main(int argc, char **argv)
{
	struct totals named_tot = { 0 };
	unsigned budget = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : BW_BUDGET_DEFAULT;
	bool good = true;

	if (budget < 2 || budget > BW_BUDGET_MAX) {
		fprintf(stderr, "bench/weights: budget 2-%d\n", BW_BUDGET_MAX);
		return 2;
	}
	print_header(budget);
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (named[i].n <= budget)
			good = bench_table(&named[i], budget, &named_tot) && good;
	good = bench_random(budget, &named_tot) && good;
	bench_worst_time();
	print_summary(&named_tot);
	printf("bench/weights: %s\n", good ? "numactl2's default is never below another method "
				       "(at equal sums; at own sums only as a trade) and equals the "
				       "exhaustive optimum" : "FAILED");
	return good ? 0 : 1;
}

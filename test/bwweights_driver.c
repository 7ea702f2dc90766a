// SPDX-License-Identifier: GPL-2.0-or-later
/* Runs bwweights.c for bats: one table given on the command line, or seeded
 * random tables checked against the exhaustive oracle. Test build only.
 *   bwweights_driver optimal|oracle|kernel|hmsdk BUDGET BW...
 *	prints the weights as W:W:... and their efficiency (T / sum bw) in %,
 *	or exits 1 with "error: " and the errno's message on stderr
 *   bwweights_driver choose BUDGET|auto BW...
 *	the same for bw_choose_weights() (auto: BW_BUDGET_CHOOSE), then the sum
 *	and why: "sum S kept|reached|best|budget"
 *   bwweights_driver oracle-choose auto BW...
 *	the oracle's weights for BW_BUDGET_CHOOSE, as optimal prints them
 *   bwweights_driver leave-out BUDGET|auto BW...
 *	bw_leave_out(): the indices of the nodes kept and their T, "keep 0,1 T"
 *   bwweights_driver dry-run BUDGET|auto BW...
 *	--dry-run's --weights=auto lines (auto_weights_print()) for nodes 0..n-1
 *	with these bandwidths (MB/s, from access1), where the host has one node
 *   bwweights_driver random SEED COUNT NMIN NMAX BUDGET|auto
 *	prints "N tables, N equal the oracle" and every table that does not */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/bw_oracle.h"
#include "test/bw_random.h"
#include "test/bw_hmsdk.h"
#include "bandwidth/autoweights.h"

static unsigned number(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno || v > 1000000) {
		fprintf(stderr, "bad number '%s'\n", s);
		exit(2);
	}
	return (unsigned)v;
}

/* A budget, or "auto" for BW_BUDGET_CHOOSE. */
static unsigned budget_arg(const char *s)
{
	return strcmp(s, "auto") == 0 ? BW_BUDGET_CHOOSE : number(s);
}

static double efficiency(const double *bw, unsigned n, const uint8_t *w)
{
	double sum = 0;

	for (unsigned i = 0; i < n; i++)
		sum += bw[i];
	return 100 * bw_modelled_throughput(bw, n, w) / sum;
}

static void print_weights(const double *bw, unsigned n, const uint8_t *w)
{
	for (unsigned i = 0; i < n; i++)
		printf("%s%u", i ? ":" : "", w[i]);
	printf(" %.3f%%\n", efficiency(bw, n, w));
}

static const char *const reason[] = {
	[BW_SUM_KEPT] = "kept", [BW_SUM_REACHED] = "reached", [BW_SUM_BEST] = "best",
	[BW_SUM_BUDGET] = "budget",
};

static int choose(const double *bw, unsigned n, unsigned budget)
{
	uint8_t w[BW_MAX_NODES + 1];
	struct bw_choice c;
	int rc = bw_choose_weights(bw, n, budget, w, &c);

	if (rc < 0)
		return fprintf(stderr, "error: %s\n", strerror(-rc)), 1;
	for (unsigned i = 0; i < n; i++)
		printf("%s%u", i ? ":" : "", w[i]);
	printf(" %.3f%% sum %u %s\n", 100 * c.t / c.total, c.sum, reason[c.why]);
	return 0;
}

static int leave_out(const double *bw, unsigned n, unsigned budget)
{
	bool keep[BW_MAX_NODES + 1];
	double t;
	int rc = bw_leave_out(bw, n, budget, keep, &t);
	const char *sep = "";

	if (rc < 0)
		return fprintf(stderr, "error: %s\n", strerror(-rc)), 1;
	printf("keep ");
	for (unsigned i = 0; i < n; i++)
		if (keep[i]) {
			printf("%s%u", sep, i);
			sep = ",";
		}
	printf(" %.1f\n", t);
	return 0;
}

static int dry_run(const double *bw, unsigned n, unsigned budget)
{
	static struct auto_weights aw;
	int rc;

	aw.n = n;
	aw.source = AUTO_NEAREST;
	aw.hmat_rc = -ENOENT;
	aw.init = (struct initiators){ .from = INIT_AFFINITY, .n = 1, .cpus = { 1 }, .total = 1 };
	for (unsigned i = 0; i < n; i++) {
		aw.node[i] = i;
		aw.bw[i] = aw.kbw[i] = bw[i];
		aw.access[i] = 1;
		aw.local[i] = true;
	}
	rc = auto_weights_choose(&aw, budget);
	if (rc < 0)
		return fprintf(stderr, "error: %s\n", strerror(-rc)), 1;
	auto_weights_print(stdout, &aw);
	return 0;
}

static int one_table(const char *method, unsigned budget, int argc, char **argv)
{
	double bw[BW_MAX_NODES + 1];
	uint8_t w[BW_MAX_NODES + 1];
	unsigned n = (unsigned)argc;
	int rc = 0;

	for (unsigned i = 0; i < n && i <= BW_MAX_NODES; i++)
		bw[i] = strtod(argv[i], NULL);
	if (n > BW_MAX_NODES + 1)
		n = BW_MAX_NODES + 1;
	if (strcmp(method, "choose") == 0)
		return choose(bw, n, budget);
	if (strcmp(method, "leave-out") == 0)
		return leave_out(bw, n, budget);
	if (strcmp(method, "dry-run") == 0)
		return dry_run(bw, n, budget);
	if (strcmp(method, "oracle-choose") == 0)
		bw_oracle_choose(bw, n, w);
	else if (strcmp(method, "optimal") == 0)
		rc = bw_optimal_weights(bw, n, budget, w);
	else if (strcmp(method, "kernel") == 0)
		rc = bw_kernel_weights(bw, n, budget, w);
	else if (strcmp(method, "hmsdk") == 0)
		rc = bw_hmsdk_weights(bw, n, w);
	else if (strcmp(method, "oracle") == 0)
		bw_oracle_weights(bw, n, budget, w);
	else
		return fprintf(stderr, "unknown method '%s'\n", method), 2;
	if (rc < 0)
		return fprintf(stderr, "error: %s\n", strerror(-rc)), 1;
	print_weights(bw, n, w);
	return 0;
}

static bool same(const uint8_t *a, const uint8_t *b, unsigned n)
{
	return memcmp(a, b, n) == 0;
}

static int random_tables(uint64_t seed, unsigned count, unsigned nmin, unsigned nmax,
			 unsigned budget)
{
	unsigned equal = 0;

	for (unsigned k = 0; k < count; k++) {
		unsigned n = nmin + k % (nmax - nmin + 1);
		double bw[BW_MAX_NODES];
		uint8_t w[BW_MAX_NODES], o[BW_MAX_NODES];

		int rc;

		bw_random_table(&seed, k, n, bw);
		if (budget == BW_BUDGET_CHOOSE) {
			struct bw_choice c;

			rc = bw_choose_weights(bw, n, budget, w, &c);
			bw_oracle_choose(bw, n, o);
		} else {
			rc = bw_optimal_weights(bw, n, budget, w);
			bw_oracle_weights(bw, n, budget, o);
		}
		if (rc == 0 && same(w, o, n)) {
			equal++;
			continue;
		}
		printf("table %u:", k);
		for (unsigned i = 0; i < n; i++)
			printf(" %.0f", bw[i]);
		if (rc < 0)
			printf("\n  optimal: error: %s\n", strerror(-rc));
		else {
			printf("\n  optimal: ");
			print_weights(bw, n, w);
		}
		printf("  oracle:  ");
		print_weights(bw, n, o);
	}
	printf("%u tables, %u equal the oracle\n", count, equal);
	return equal == count ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && strcmp(argv[1], "random") != 0)
		return one_table(argv[1], budget_arg(argv[2]), argc - 3, argv + 3);
	if (argc == 7)
		return random_tables(number(argv[2]), number(argv[3]), number(argv[4]),
				     number(argv[5]), budget_arg(argv[6]));
	fprintf(stderr, "usage: bwweights_driver optimal|oracle|kernel|hmsdk|choose|leave-out|dry-run "
			"BUDGET BW...\n"
			"       bwweights_driver oracle-choose auto BW...\n"
			"       bwweights_driver random SEED COUNT NMIN NMAX BUDGET|auto\n");
	return 2;
}

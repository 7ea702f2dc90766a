/* Runs bwweights.c for bats: one table given on the command line, or seeded
 * random tables checked against the exhaustive oracle. Test build only.
 *   bwweights_driver optimal|oracle|kernel|hmsdk BUDGET BW...
 *	prints the weights as W:W:... and their efficiency (T / sum bw) in %,
 *	or exits 1 with "error: " and the errno's message on stderr
 *   bwweights_driver random SEED COUNT NMIN NMAX BUDGET
 *	prints "N tables, N equal the oracle" and every table that does not */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/bw_oracle.h"
#include "test/bw_random.h"
#include "test/bw_hmsdk.h"

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
	if (strcmp(method, "optimal") == 0)
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
		rc = bw_optimal_weights(bw, n, budget, w);
		bw_oracle_weights(bw, n, budget, o);
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
		return one_table(argv[1], number(argv[2]), argc - 3, argv + 3);
	if (argc == 7)
		return random_tables(number(argv[2]), number(argv[3]), number(argv[4]),
				     number(argv[5]), number(argv[6]));
	fprintf(stderr, "usage: bwweights_driver optimal|oracle|kernel|hmsdk BUDGET BW...\n"
			"       bwweights_driver random SEED COUNT NMIN NMAX BUDGET\n");
	return 2;
}

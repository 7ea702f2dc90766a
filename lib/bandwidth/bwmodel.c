// SPDX-License-Identifier: GPL-2.0-or-later
/* The throughput model every rounding of bandwidths into weights is judged
 * by (bwweights.h), and the checks and gcd reduction the roundings share. */
#include <math.h>
#include <stdbool.h>

#include "bandwidth/bwmodel.h"

bool bw_input_valid(const double *bw, unsigned n, unsigned budget, unsigned min_budget)
{
	if (n == 0 || n > BW_MAX_NODES || budget < min_budget || budget > BW_BUDGET_MAX)
		return false;
	for (unsigned i = 0; i < n; i++)
		if (!(bw[i] > 0) || !isfinite(bw[i]))
			return false;
	return true;
}

double bw_modelled_throughput(const double *bw, unsigned n, const uint8_t *w)
{
	unsigned sum = 0;
	double t = INFINITY;

	for (unsigned i = 0; i < n; i++)
		sum += w[i];
	for (unsigned i = 0; i < n; i++)
		t = bw_min(t, bw_node_limit(bw[i], sum, w[i]));
	return t;
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

void bw_divide_by_gcd(unsigned *v, unsigned n)
{
	unsigned g = 0;

	for (unsigned i = 0; i < n; i++)
		g = gcd(g, v[i]);
	for (unsigned i = 0; i < n; i++)
		v[i] /= g;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* SK hynix HMSDK's rounding of bandwidths into weights, for the tests and
 * bench/weights to compare numactl2's with; never in numactl2 itself. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>

#include "test/bw_hmsdk.h"

/* skhynix/hmsdk tools/iw_ratio.py, get_iw_ratio(), SOFT_MAX_RATIO_VAL = 10:
 * bwactl.py first truncates MLC's MB/s to int. */
#define HMSDK_SOFT_MAX 10.0

static bool hmsdk_halve(double *d, unsigned n)
{
	double max = 0;

	for (unsigned i = 0; i < n; i++)
		max = fmax(max, d[i]);
	if (max <= HMSDK_SOFT_MAX)
		return false;
	for (unsigned i = 0; i < n; i++)
		if (d[i] / 2 <= 1)
			return false;
	for (unsigned i = 0; i < n; i++)
		d[i] /= 2;
	return true;
}

int bw_hmsdk_weights(const double *bw, unsigned n, uint8_t *w)
{
	double d[BW_MAX_NODES];
	unsigned v[BW_MAX_NODES];

	if (!bw_input_valid(bw, n, 1, 1))
		return -EINVAL;
	for (unsigned i = 0; i < n; i++) {
		d[i] = trunc(bw[i]);
		if (d[i] < 1)
			return -EINVAL;
	}
	while (hmsdk_halve(d, n))
		;
	/* Python's round() rounds half to even, as nearbyint() does by default.
	 * The halving stops at the smallest value, so the largest is bounded
	 * only by the bandwidths' ratio. */
	for (unsigned i = 0; i < n; i++)
		if (nearbyint(d[i]) > UINT_MAX / 2)
			return -ERANGE;
	for (unsigned i = 0; i < n; i++)
		v[i] = (unsigned)nearbyint(d[i]);
	bw_divide_by_gcd(v, n);
	for (unsigned i = 0; i < n; i++) {
		if (v[i] > BW_WEIGHT_MAX)
			return -ERANGE;
		w[i] = (uint8_t)v[i];
	}
	return 0;
}

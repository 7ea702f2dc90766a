// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel's own rounding of bandwidths into weights (6.16+ auto mode),
 * which --dry-run shows beside numactl2's. */
#include <errno.h>

#include "bandwidth/kernelrule.h"

/* Linux 6.16+, mm/mempolicy.c, reduce_interleave_weights(): for each node
 * with memory, weightiness (32) * bw / sum_bw when that is above 1, else 1
 * ("round the weight up to 1"), then "1:2 is strictly better than 16:32":
 * every weight divided by their gcd. bw is min(read, write) bandwidth of
 * access class 1 (mempolicy_set_node_perf(), ACCESS_COORDINATE_CPU). */
int bw_kernel_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w)
{
	unsigned v[BW_MAX_NODES];
	double sum = 0;

	if (!bw_input_valid(bw, n, budget, 1))
		return -EINVAL;
	for (unsigned i = 0; i < n; i++)
		sum += bw[i];
	/* The conversion truncates, which is floor() for these quotients (0 to
	 * budget): no libm in numactl2 (bwmodel.h). */
	for (unsigned i = 0; i < n; i++) {
		v[i] = (unsigned)(budget * bw[i] / sum);
		if (v[i] < 1)
			v[i] = 1;
	}
	bw_divide_by_gcd(v, n);
	for (unsigned i = 0; i < n; i++)
		w[i] = (uint8_t)v[i];
	return 0;
}

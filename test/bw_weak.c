// SPDX-License-Identifier: GPL-2.0-or-later
/* bench/weights with numactl2's rounding replaced by the kernel's: linked
 * with -Wl,--wrap=bw_optimal_weights (make build/release/bench/weights-weak), it must
 * fail. Test build only. */
#include "bandwidth/bwsum.h"
#include "bandwidth/kernelrule.h"

int __wrap_bw_optimal_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w);
int __wrap_bw_optimal_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w)
{
	return bw_kernel_weights(bw, n, budget, w);
}

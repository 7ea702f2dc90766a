/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's own rounding of bandwidths into weights (kernelrule.c). */
#ifndef NUMACTL2_KERNELRULE_H
#define NUMACTL2_KERNELRULE_H

#include <stdint.h>

#include "bandwidth/bwmodel.h"

/* The kernel's auto weights (6.16+, mm/mempolicy.c reduce_interleave_weights()
 * with weightiness = budget): floor(budget * bw / sum bw), at least 1, divided
 * by their gcd. bw in MB/s, as HMAT reports it. Returns 0 or -EINVAL (as above). */
int bw_kernel_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w);

#endif

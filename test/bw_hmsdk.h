/* SPDX-License-Identifier: GPL-2.0-or-later */
/* HMSDK's rounding, test/bw_hmsdk.c: for the tests and bench/weights only. */
#ifndef NUMACTL2_TEST_BW_HMSDK_H
#define NUMACTL2_TEST_BW_HMSDK_H

#include <stdint.h>

#include "bandwidth/bwweights.h"

/* SK hynix HMSDK's bwactl (tools/iw_ratio.py get_iw_ratio()): bandwidths in
 * whole MB/s, halved while the largest is above 10 unless a half would fall
 * to 1 or below, rounded half to even (Python's round), divided by their gcd.
 * It has no budget. Returns 0, -EINVAL (as above, or a bandwidth under 1 MB/s,
 * which bwactl refuses as weight 0) or -ERANGE (a weight above 255). */
int bw_hmsdk_weights(const double *bw, unsigned n, uint8_t *w);


#endif

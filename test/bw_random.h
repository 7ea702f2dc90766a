/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Seeded bandwidth tables for the oracle test and bench/weights. */
#ifndef NUMACTL2_BW_RANDOM_H
#define NUMACTL2_BW_RANDOM_H

#include <stdint.h>

/* n bandwidths in MB/s; table number k of a seed picks one of three shapes:
 * any value in 1-400 GB/s, small multiples of 12.5 GB/s (ties and exact
 * ratios), or one DRAM node with slower expanders (ratios up to 100). */
void bw_random_table(uint64_t *state, unsigned k, unsigned n, double *bw);
uint64_t bw_random_next(uint64_t *state);

#endif

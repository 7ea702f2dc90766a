// SPDX-License-Identifier: GPL-2.0-or-later
#include "test/bw_random.h"

/* splitmix64: the same tables for the same seed on every machine. */
uint64_t bw_random_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double uniform(uint64_t *state, unsigned lo, unsigned hi)
{
	return (double)(lo + bw_random_next(state) % (hi - lo + 1));
}

void bw_random_table(uint64_t *state, unsigned k, unsigned n, double *bw)
{
	for (unsigned i = 0; i < n; i++) {
		switch (k % 3) {
		case 0:
			bw[i] = uniform(state, 1000, 400000);
			break;
		case 1:
			bw[i] = 12500 * uniform(state, 1, 16);
			break;
		default:
			bw[i] = i == 0 ? uniform(state, 150000, 400000) : uniform(state, 4000, 120000);
			break;
		}
	}
}

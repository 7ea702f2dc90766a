/* bwweights.c with bw_optimal_weights() replaced by the kernel's rounding:
 * bench/weights built with this must fail. Test build only. */
#define bw_optimal_weights bw_optimal_weights_real
#include "bwweights.c"
#undef bw_optimal_weights

int bw_optimal_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w);
int bw_optimal_weights(const double *bw, unsigned n, unsigned budget, uint8_t *w)
{
	return bw_kernel_weights(bw, n, budget, w);
}

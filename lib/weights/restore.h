/* --restore-weights: the global weights a run changed go back when its job ends. */
#ifndef NUMACTL2_RESTORE_H
#define NUMACTL2_RESTORE_H

#include "weights/target.h"

void restore_weights(struct weights_change *wc);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --restore-weights: the global weights a run changed go back when its job
 * ends; what happened to each node is returned for the front end to say. */
#ifndef NUMACTL2_RESTORE_H
#define NUMACTL2_RESTORE_H

#include "libnumactl2.h"
#include "weights/target.h"

int restore_weights(struct weights_change *wc, struct restore_result *res);

#endif

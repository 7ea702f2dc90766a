/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --measure's room on the nodes, for the request's check before anything
 * is touched (lib/request/fill.c); the rest of measure.c is public. */
#ifndef NUMACTL2_MEASURE_H
#define NUMACTL2_MEASURE_H

#include "libnumactl2.h"

/* Refuses a size a node cannot hold now (more than its free memory); 0, or
 * -ENOMEM with *node set. */
int measure_check_size(const struct bitmask *nodes, unsigned long long size, unsigned *node);

#endif

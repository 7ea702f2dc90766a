/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --show: the task's policy and bindings in numactl's lines, the leases
 * held on the global weights, and numactl's printing of a node mask. */
#ifndef NUMACTL2_SHOW_H
#define NUMACTL2_SHOW_H

#include <numa.h>

#include "libnumactl2.h"

int show_policy(void);
/* The table and its leases (NULL: on every node), or exit 1. */
void table_read(const struct bitmask *lease_nodes, struct weights_view *v);
void show_leases(const struct weights_view *v);
/* numactl's printmask() on stdout: "name: 0 1 \n". */
void nodes_print(const char *name, const struct bitmask *mask);
/* "interleaveweights:" for the nodes of MASK, OWN's weights or (NULL) the
 * global table's in V, and "weightsource:" saying which. */
void show_weights(const struct bitmask *mask, const struct mpol2_state *own,
		  const struct weights_view *v);

#endif

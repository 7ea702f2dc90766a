/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which NUMA node each ACPI proximity domain became (srat.c). */
#ifndef NUMACTL2_SRAT_H
#define NUMACTL2_SRAT_H

#include <stdbool.h>
#include <stdint.h>

#include "bandwidth/bwmodel.h"

struct pd_map {
	bool from_srat;			/* else domain N is taken for node N */
	unsigned n;
	uint32_t pd[BW_MAX_NODES];	/* node i's proximity domain */
};

/* The kernel's numbering from SRAT: nodes in the order their domains first
 * appear among the enabled CPU and initiator entries, then among the
 * enabled memory entries. Without a readable SRAT, or where that order
 * names a node the system does not have, domain N is node N (from_srat
 * false). Returns 0 or -ENOMEM. */
int pd_map_read(struct pd_map *m);
/* The node of domain PD, or -1 when it has none. */
int pd_map_node(const struct pd_map *m, uint32_t pd);

#endif

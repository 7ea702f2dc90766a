/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The global table as --show, --dry-run and --hardware print it, read once
 * with its live leases (view.c). */
#ifndef NUMACTL2_VIEW_H
#define NUMACTL2_VIEW_H

#include <stdbool.h>
#include <stdio.h>
#include <numa.h>

#include "weights/table.h"

struct weights_lease {
	unsigned node, weight;
	char pids[256];			/* its holders, "123,456" */
};

struct weights_view {
	bool present;			/* the kernel has the table */
	enum gw_auto mode;		/* its auto switch (6.16+) */
	unsigned nnodes;		/* the nodes it can name */
	int *weight;			/* nnodes of them; -1: no file for the node */
	unsigned nleases;
	struct weights_lease *lease;	/* the live leases on the nodes asked */
};

/* The table and the live leases on LEASE_NODES (NULL: every node); 0 or
 * -ENOMEM. weights_view_free() after. */
int weights_view_read(const struct bitmask *lease_nodes, struct weights_view *v);
/* NODE's weight in V, -1 where it has none. */
int weights_view_weight(const struct weights_view *v, unsigned node);
/* After numactl's lines in --show and --hardware, so that scripts reading
 * them see no change: "interleave weight lease: node N weight W pids P". */
void weights_view_print_leases(FILE *out, const struct weights_view *v);
void weights_view_free(struct weights_view *v);

#endif

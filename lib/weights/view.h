/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The global table as --show, --dry-run and --hardware print it, read once
 * (view.c); its holders are its owner's to list (lib/owner/listprint.c). */
#ifndef NUMACTL2_VIEW_H
#define NUMACTL2_VIEW_H

#include <stdbool.h>
#include <stdio.h>
#include <numa.h>

#include "weights/table.h"

struct weights_view {
	bool present;			/* the kernel has the table */
	enum gw_auto mode;		/* its auto switch (6.16+) */
	unsigned nnodes;		/* the nodes it can name */
	int *weight;			/* nnodes of them; -1: no file for the node */
};

/* The table: 0 or -ENOMEM. weights_view_free() after. */
int weights_view_read(struct weights_view *v);
/* NODE's weight in V, -1 where it has none. */
int weights_view_weight(const struct weights_view *v, unsigned node);
void weights_view_free(struct weights_view *v);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Putting the global table back as it was (settle.c): at a job's end, at a
 * Slurm step's end, and first thing in any run that changes the table. */
#ifndef NUMACTL2_SETTLE_H
#define NUMACTL2_SETTLE_H

#include <stdbool.h>

#include "weights/holders.h"

/* What settle_table() found and did. */
enum settle_state {
	SETTLE_NONE,		/* no baseline: the table is as it was */
	SETTLE_HELD,		/* a live job leases a node that differs from it (who) */
	SETTLE_DONE,		/* put back (put_back, auto_*), the baseline gone */
	SETTLE_FAILED,		/* err; failed_node, or -1 for the baseline itself */
};

struct settle {
	enum settle_state state;
	unsigned held_node;		/* SETTLE_HELD: the first such node */
	struct lease_holders who;	/* and its holders */
	char put_back[512];		/* SETTLE_DONE: "node0 3->1, ...", or "" */
	bool auto_back;			/* the auto switch turned back on */
	int auto_err;			/* -errno: it stays off (-ENODEV: no bandwidth data) */
	int err;
	int failed_node;
};

int settle_table(struct settle *s);
int table_after_job(struct settle *s);

#endif

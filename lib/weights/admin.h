/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --set-global-weights, --reset-global-weights, --auto-global-weights:
 * changing the system-wide table without running anything. */
#ifndef NUMACTL2_ADMIN_H
#define NUMACTL2_ADMIN_H

#include "weights/txn.h"
#include "parse.h"

/* Where an operation stopped, when it returns < 0. */
enum admin_step {
	ADMIN_NO_TABLE = 1,	/* the kernel has no global weights */
	ADMIN_NO_NODES,		/* the table's directory cannot be read */
	ADMIN_NO_AUTO,		/* the kernel has no auto weights */
	ADMIN_CHANGE,		/* the leases or the writes (conflict, failed_node) */
	ADMIN_ENABLE_AUTO,	/* turning auto mode on */
};

struct admin_result {
	enum admin_step failed;
	/* What was asked and changed (old -> new, auto mode before), what
	 * --wait waited for and whom --force overrode, or why it was refused. */
	struct gw_txn_said said;
	struct lease_conflict conflict;	/* -EBUSY: the lease in the way */
	unsigned failed_node;
};

int admin_set_weights(const struct weight_list *wl, const struct lease_options *o,
		      struct admin_result *res);
int admin_reset_weights(const struct lease_options *o, struct admin_result *res);
int admin_auto_weights(const struct lease_options *o, struct admin_result *res);

#endif

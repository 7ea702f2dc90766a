/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where weighted-interleave weights go: the one place that chooses between
 * task-local weights (set_mempolicy2/mbind2, where the kernel lists them)
 * and the kernel's global table in sysfs, where a job holds leases. */
#ifndef NUMACTL2_WEIGHTS_H
#define NUMACTL2_WEIGHTS_H

#include <stdbool.h>

#include "libnumactl2.h"
#include "policy/policy.h"
#include "weights/txn.h"

enum weights_target { WEIGHTS_TASK_LOCAL, WEIGHTS_GLOBAL };



/* The global backend's state for one run. The caller fills txn.opt,
 * txn.keep (a command will run under the weights: keep the leases) and
 * txn.no_write (the weights must already hold);
 * weights_apply() the rest. */
struct weights_change {
	struct gw_txn txn;
	bool active;		/* the directory lock is held: weights_undo() can undo */
};

enum weights_target weights_target(bool global_forced);
bool weights_hold(const struct policy *p);
const char *weights_target_name(enum weights_target t);
int weights_apply(const struct policy *p, struct weights_change *c,
		  struct lease_conflict *conflict, unsigned *failed_node);
/* --dry-run: what weights_apply() would refuse (gw_txn_check()), with
 * nothing locked, leased or written; the caller frees c->txn. */
int weights_check(const struct policy *p, struct weights_change *c,
		  struct lease_conflict *conflict, unsigned *failed_node);
void weights_init(struct weights_change *c);
void weights_release(struct weights_change *c);
void weights_undo(struct weights_change *c);

#endif

/* Where weighted-interleave weights go: the one place that chooses between
 * task-local weights (set_mempolicy2/mbind2, where the kernel lists them)
 * and the kernel's global table in sysfs. */
#ifndef NUMACTL2_WEIGHTS_H
#define NUMACTL2_WEIGHTS_H

#include <stdbool.h>

#include "gweights.h"
#include "policy.h"

enum weights_target { WEIGHTS_TASK_LOCAL, WEIGHTS_GLOBAL };

struct weights_change {
	struct gw_txn gw;
	bool active;
};

enum weights_target weights_target(bool global_forced);
const char *weights_target_name(enum weights_target t);
int weights_apply(const struct policy *p, struct weights_change *c, unsigned *failed_node);
void weights_undo(struct weights_change *c);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where weighted-interleave weights go: the one place that chooses between
 * task-local weights (set_mempolicy2/mbind2, where the kernel lists them)
 * and the kernel's global table in sysfs, which its owner writes
 * (lib/owner). */
#ifndef NUMACTL2_WEIGHTS_H
#define NUMACTL2_WEIGHTS_H

#include <stdbool.h>

#include "libnumactl2.h"
#include "policy/policy.h"

enum weights_target { WEIGHTS_TASK_LOCAL, WEIGHTS_GLOBAL };

enum weights_target weights_target(bool global_forced);
bool weights_place_pages(const struct policy *p);
bool weights_hold(const struct policy *p);
const char *weights_target_name(enum weights_target t);

#endif

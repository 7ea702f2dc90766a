/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The calls that set a memory policy (struct policy) on the task (set_mempolicy)
 * or on a range (mbind), its per-node weights, and numactl's names for the
 * modes. */
#ifndef NUMACTL2_POLICY_H
#define NUMACTL2_POLICY_H

#include <stdbool.h>

#include "libnumactl2.h"

int policy_weights_alloc(struct policy *p);
int policy_set_task(const struct policy *p);
int policy_set_range(const struct policy *p, void *addr, unsigned long len, unsigned mbind_flags);
bool kernel_has_weighted_interleave(void);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Task-local weights through the project's kernel calls (kernel/):
 * set_mempolicy2, get_mempolicy2 and mbind2, used only where the running
 * kernel lists them for this build's ABI in MPOL2_SYSCALLS_FILE. */
#ifndef NUMACTL2_MPOL2_H
#define NUMACTL2_MPOL2_H

#include <stdbool.h>
#include <stdint.h>
#include <numa.h>

#include "libnumactl2.h"
#include "parse.h"
#include "policy/spec.h"

/* The calls' numbers for one ABI; -1 where not listed. */
struct mpol2_numbers {
	long set, get, mbind;
};

/* Reads MPOL2_SYSCALLS_FILE's text (split in place): "name abi number"
 * lines, the numbers of ABI's lines kept. Pure; true only when all three
 * calls are listed for ABI. A line of another shape (the older "name
 * number" list included) makes the whole list unknown: no calls. */
bool mpol2_parse_syscalls(char *buf, const char *abi, struct mpol2_numbers *nr);

/* The task the calls act on: the calling one, or the task of a pidfd
 * (policy/remote.c's; a process's pidfd names its main thread). */
#define MPOL2_SELF (-1)

int mpol2_set_range(const struct policy *p, void *addr, unsigned long len, unsigned mbind_flags);

/* Whether get_mempolicy2's N weights at W are the policy's own: all zero
 * means it follows the global table. */
bool mpol2_own_weights(const uint8_t *w, unsigned n);

#endif

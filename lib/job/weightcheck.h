/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Did the job's processes keep the task-local weights numactl2 gave them?
 * Read from /proc/PID/numa_maps (the kernel series, kernel/): a policy with
 * weights of its own shows " weights=N:W,..." right after the policy; one
 * that lost them (libnuma 2.0.15-2.0.17 at start-up, or any plain
 * set_mempolicy) shows none, and uses the global table's. */
#ifndef NUMACTL2_WEIGHTCHECK_H
#define NUMACTL2_WEIGHTCHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "libnumactl2.h"

struct weights_check {
	const struct policy *asked;	/* NULL: no task-local weights were set */
	bool lost;			/* a weighted-interleave mapping without them */
	pid_t pid;			/* the first process seen with one */
	char seen[96];			/* its policy, weights= included */
};

/* Starts c for a run with policy p (only task-local weights are checked). */
void weights_check_init(struct weights_check *c, const struct policy *p);

/* Does one numa_maps line keep p's weights? A line whose policy is not
 * weighted interleave does (it asks for no weights); the policy text is
 * copied to seen when it does not. Pure. */
bool weights_line_kept(const char *line, const struct policy *p, char *seen, size_t len);

/* Checks the mappings of process pid (its thread tid's numa_maps); 0 or
 * -errno. */
int weights_check_process(struct weights_check *c, pid_t pid, pid_t tid);

/* "N:W,..." of the weights asked, to f. */
void weights_check_print_asked(FILE *f, const struct weights_check *c);

#endif

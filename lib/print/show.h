/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --pid --show's lines (show.c), for pidpolicy.c. */
#ifndef NUMACTL2_SHOW_H
#define NUMACTL2_SHOW_H

#include <stdio.h>
#include <sys/types.h>

#include "policy/mpol2.h"

/* PID's policy S in numactl's lines: the mode, the home node, the nodes,
 * and for weighted interleave the weights in effect and where they come
 * from (its own, or the global table's). 0 or -ENOMEM. */
int show_print_pid(FILE *out, pid_t pid, const struct mpol2_state *s);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --show: the task's policy and bindings in numactl's lines, with the
 * weights in effect and the leases on the global table; the weights lines
 * for another process's policy (--pid). */
#ifndef NUMACTL2_SHOW_H
#define NUMACTL2_SHOW_H

#include <stdio.h>

#include "policy/mpol2.h"

/* Written to OUT: 0; -ENOSYS: no NUMA here (OUT says so, as numactl does);
 * -errno with *FAILED naming the call that failed, or NULL for -ENOMEM. */
int show_print(FILE *out, const char **failed);
/* "interleaveweights:" for the nodes of S, its own weights or the global
 * table's, and "weightsource:" saying which; 0 or -ENOMEM. */
int show_print_weights(FILE *out, const struct mpol2_state *s);

#endif

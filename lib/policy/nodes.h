/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Node and CPU lists through libnuma, with libnuma's complaints captured
 * so that numactl2 reports them in its own words. */
#ifndef NUMACTL2_NODES_H
#define NUMACTL2_NODES_H

#include <stdbool.h>
#include <stdio.h>
#include <numa.h>

struct bitmask *nodes_parse(const char *s, bool all);
struct bitmask *cpus_parse(const char *s, bool all);
const char *nodes_last_warning(void);
int nodes_first(const struct bitmask *mask);
int nodes_next(const struct bitmask *mask, unsigned from);
void nodes_fprint(FILE *f, const char *name, const struct bitmask *mask);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The job's initiators: the nodes its CPUs are on, each with its share of
 * them, and the memory nodes nearest to them (initiators.c). */
#ifndef NUMACTL2_INITIATORS_H
#define NUMACTL2_INITIATORS_H

#include <stdbool.h>
#include <numa.h>

#include "bandwidth/bwmodel.h"

enum initiators_from { INIT_CPUNODEBIND, INIT_PHYSCPUBIND, INIT_AFFINITY };

struct initiators {
	enum initiators_from from;
	unsigned n;
	unsigned node[BW_MAX_NODES];	/* the nodes of the job's CPUs */
	unsigned cpus[BW_MAX_NODES];	/* how many of them on each */
	unsigned total;
};

/* The job's CPUs: CPUS (--physcpubind) where given (numactl2 sets that
 * affinity last, so it wins over --cpunodebind), else the CPUs of CPUNODES,
 * else this process's affinity; either may be NULL. Returns 0, -ENODATA (none of them is on a node) or
 * -ENOMEM. */
int initiators_read(const struct bitmask *cpunodes, const struct bitmask *cpus,
		    struct initiators *in);
/* Whether memory node TARGET is nearest to one of the job's CPU nodes: one
 * of the initiators sysfs names for it (access1, else access0, as the
 * kernel found them in HMAT), else, without those, one at its smallest
 * SLIT distance among the nodes with CPUs. */
bool initiators_local(const struct initiators *in, unsigned target);
/* near[i] for the initiator nodes nearest to TARGET, by the same rule. */
void initiators_nearest(unsigned target, bool *near);
/* Whether NODE has memory (MemTotal in its meminfo above 0). */
bool initiators_has_memory(unsigned node);
/* The share of the job's CPUs on its I-th initiator node (0 < share <= 1). */
double initiators_share(const struct initiators *in, unsigned i);

#endif

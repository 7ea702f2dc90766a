/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Who holds the leases on the global weights: the live processes with a
 * locked descriptor on a weight file, and those a lease record names. */
#ifndef NUMACTL2_HOLDERS_H
#define NUMACTL2_HOLDERS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <numa.h>
#include "libnumactl2.h"

/* One leased node, as --show and --dry-run list it. */
struct leased_node {
	unsigned node, weight;
	struct lease_holders who;
};

struct lease_list {
	unsigned count;
	struct leased_node *node;	/* count of them, by node number; free() it */
};

int holders_find(struct lease_holders *who, const bool *has, unsigned count, bool others);
int holders_recorded(int fd, struct lease_holders *who);
int holders_of_node(unsigned node, struct lease_holders *who);
int holders_list(const struct bitmask *nodes, struct lease_list *list);

#endif

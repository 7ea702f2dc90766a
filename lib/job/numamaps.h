/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where a process' pages are, from /proc/PID/numa_maps: the N<node>=<pages>
 * counts of each mapping, summed by the kind of mapping; and the weights
 * its weighted-interleave mappings use. */
#ifndef NUMACTL2_NUMAMAPS_H
#define NUMACTL2_NUMAMAPS_H

#include <stdbool.h>
#include <sys/types.h>

#include "parse.h"

enum map_kind { MAP_HEAP, MAP_ANON, MAP_FILE, MAP_KINDS };

/* The weights of one weighted-interleave policy: its own, as numa_maps'
 * "weights=" token has them ("0:8,1:4"; kernel series, kernel/), or, with
 * no such token, the global table's for its nodes (text: the node list). */
struct map_weights {
	bool own;
	char *text;
};

/* Starts zeroed; placement_free() lets it go. */
struct placement {
	/* In base pages (sysconf(_SC_PAGESIZE)): a huge page counts as many.
	 * Each holds the nodes up to the highest seen. */
	unsigned long long *pages[MAP_KINDS];
	unsigned nodes;		/* entries in each of pages */
	unsigned long long total[MAP_KINDS];
	unsigned max_node;	/* the highest node that holds a page */
	/* Each distinct weights of its weighted-interleave mappings, in the
	 * order first seen (one process' numa_maps; placement_add leaves
	 * them out of a sum). */
	struct map_weights *weights;
	unsigned n_weights;
};

const char *map_kind_name(enum map_kind k);

/* The pages of kind k on node n (0 for a node never seen). */
unsigned long long placement_pages(const struct placement *p, enum map_kind k, unsigned n);

void placement_free(struct placement *p);

/* Adds from's pages to to's; 0 or -ENOMEM. */
int placement_add(struct placement *to, const struct placement *from);

/* Adds one numa_maps line (split in place) to p; page_kb is the base page
 * size. Pure; returns 0, -EINVAL for a line that is not numa_maps' (a node
 * beyond PARSE_MAX_NODES included), or -ENOMEM. */
int numamaps_add_line(struct placement *p, char *line, unsigned long page_kb);

/* Reads /proc/PID/numa_maps into p (emptied first); 0 or -errno. */
int numamaps_read(pid_t pid, struct placement *p);

#endif

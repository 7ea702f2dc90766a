/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --measure: each node's bandwidth as the job's CPUs see it, from a short
 * read-write triad on memory bound to the node, and the weights it gives. */
#ifndef NUMACTL2_MEASURE_H
#define NUMACTL2_MEASURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <numa.h>

#include "bandwidth/bwsum.h"

#define MEASURE_SIZE_DEFAULT (256ULL << 20)
#define MEASURE_SIZE_MIN (1ULL << 20)
#define MEASURE_SECS_DEFAULT 10
#define MEASURE_PASSES 5

/* Where a measurement is: before each pass on a node (pass 0 places the
 * pages), then once with done set. */
struct measure_progress {
	double t0;			/* when it began (CLOCK_MONOTONIC) */
	double secs;			/* since then */
	unsigned node, index, nodes;	/* the node, and the index-th of nodes */
	unsigned pass;
	bool done;
};

struct measure_req {
	const struct bitmask *nodes;	/* at most BW_MAX_NODES, each with memory */
	unsigned long long size;	/* bytes per node, three arrays */
	unsigned secs;			/* for all of it; every node gets one pass */
	unsigned budget;		/* for the weights: at most this sum, or
					 * BW_BUDGET_CHOOSE (bw_choose_weights()) */
	/* Told where the measurement is, with progress_arg; may be NULL. */
	void (*progress)(const struct measure_progress *pr, void *arg);
	void *progress_arg;
};

struct measurement {
	unsigned n;
	unsigned node[BW_MAX_NODES];
	double gbps[BW_MAX_NODES];	/* the best pass */
	unsigned passes[BW_MAX_NODES];
	uint8_t weight[BW_MAX_NODES];
	struct bw_choice choice;	/* weight's sum and why */
	unsigned threads;		/* one per CPU of the affinity */
	double secs;
};

/* The nodes --measure looks at without a node list: those with memory that
 * the cpuset allows. */
struct bitmask *measure_default_nodes(void);

/* Refuses a size a node cannot hold now (more than its free memory); 0, or
 * -ENOMEM with *node set. */
int measure_check_size(const struct bitmask *nodes, unsigned long long size, unsigned *node);

/* Runs the triad on each node, with one thread on each CPU of the calling
 * thread's affinity, and chooses weights; 0 or -errno. */
int measure_run(const struct measure_req *req, struct measurement *m);

/* The bandwidths, the weights they give and the time, as --measure prints them. */
void measure_print(FILE *f, const struct measurement *m);

#endif

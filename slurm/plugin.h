/* The Slurm plugin's request: what the user asked for with its options
 * (options.c), applied in each task (task.c). */
#ifndef NUMACTL2_SLURM_PLUGIN_H
#define NUMACTL2_SLURM_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <slurm/spank.h>

struct request {
	const char *nodes;	/* --weighted-interleave=NODES, or NULL */
	const char *weights;	/* --weights=LIST|auto|measured, or NULL */
	bool wait;		/* --weights-wait[=SECS] */
	unsigned wait_secs;	/* 0: no limit */
	bool report;		/* --numa-report */
};

extern struct request request;

int options_register(spank_t sp);
int options_check(char *msg, size_t len);
int task_apply(const struct request *r, char *msg, size_t len, char *said, size_t said_len);

#endif

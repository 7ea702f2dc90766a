/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Slurm plugin's request: what the user asked for with its options
 * (spankopts.c), applied in each task (task.c). */
#ifndef NUMACTL2_SLURM_PLUGIN_H
#define NUMACTL2_SLURM_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <slurm/spank.h>

#include "msg/messages.h"

struct plugin_opts {
	const char *nodes;	/* --weighted-interleave=NODES, or NULL */
	const char *weights;	/* --weights=LIST|auto|measured, or NULL */
	bool wait;		/* --weights-wait[=SECS] */
	unsigned wait_secs;	/* 0: no limit */
	bool report;		/* --numa-report */
};

extern struct plugin_opts opts;

int options_register(spank_t sp);
int options_check(char *msg, size_t len);
/* What task_apply() did, for the plugin's entry point to say. */
struct task_outcome {
	char error[MSG_MAX];	/* why it failed */
	char notice[MSG_MAX];	/* for the task's stderr, even without --numa-report;
				 * on a failure, what its undo left changed */
	char changed[MSG_MAX];	/* what the global table's change did, as numactl2 says it */
	char said[MSG_MAX];	/* what was set, for --numa-report */
};

/* What the task will exec: slurmstepd resolves argv0 in the job's own
 * environment, env, which the task does not have yet when the plugin runs. */
struct task_program {
	const char *argv0;	/* NULL when Slurm does not say */
	char **env;
};

int task_apply(const struct plugin_opts *o, const struct task_program *prog,
	       struct task_outcome *out);

#endif

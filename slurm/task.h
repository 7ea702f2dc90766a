/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Slurm plugin's request: what the user asked for with its options
 * (spankopts.c), applied in each task (task.c). Nothing of Slurm's: a test
 * driver runs a task without it (test/plugintask_driver.c). */
#ifndef NUMACTL2_SLURM_TASK_H
#define NUMACTL2_SLURM_TASK_H

#include <stdbool.h>

#include "msg/messages.h"

struct plugin_opts {
	const char *nodes;	/* --weighted-interleave=NODES, or NULL */
	const char *weights;	/* --weights=LIST|auto|measured, or NULL */
	bool wait;		/* --weights-wait[=SECS] */
	unsigned wait_secs;	/* 0: no limit */
	bool report;		/* --numa-report */
};

/* What task_apply() did, for the plugin's entry point to say. */
struct task_outcome {
	char error[MSG_MAX];	/* why it failed */
	char notice[MSG_MAX];	/* for the task's stderr, even without --numa-report;
				 * on a failure, what its undo left changed */
	char changed[MSG_MAX];	/* what the global table's change did, as numactl2 says it */
	char approximated[MSG_AUTO_NOTICE_MAX];	/* --weights=auto from an approximated row */
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

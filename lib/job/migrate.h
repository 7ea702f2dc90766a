/* SPDX-License-Identifier: GPL-2.0-or-later */
/* numactl2 --pid --migrate: the pages a process already has, moved with
 * move_pages(2) to where its new policy would place them. */
#ifndef NUMACTL2_MIGRATE_H
#define NUMACTL2_MIGRATE_H

#include <sys/types.h>

#include "job/migranges.h"
#include "libnumactl2.h"
#include "policy/migplan.h"

/* Pages asked of move_pages in one call. */
#define MIGRATE_BATCH 2048

/* One process's move: its ranges (migrate_read_ranges(), before its policy
 * is changed) and the plan of its new policy (migrate_plan()). Made by
 * migrate_job_new(); migrate_job_free() lets it go. */
struct migrate_job {
	pid_t pid;
	struct mig_ranges ranges;
	struct migplan plan;
	int *node;		/* the plan's nodes and weights */
	unsigned *weight;
};

/* A move of PID's pages, into *J: 0 or -ENOMEM. */
int migrate_job_new(pid_t pid, struct migrate_job **j);
/* What J moves: the ranges of the process whose policy is TASK, from its
 * /proc maps and numa_maps; 0 or -errno (-ENOENT, -ESRCH: it has gone). */
int migrate_read_ranges(struct migrate_job *j, const struct mpol2_state *task);
/* J's plan for P (a policy with nodes): weighted interleave by P's weights
 * or, where it has none, by the global table's. 0, -ENOMEM, -EINVAL for a
 * policy without nodes, or the -errno of reading the global weight of
 * *NODE. */
int migrate_plan(struct migrate_job *j, const struct policy *p, unsigned *node);

/* Moves the present pages of J's ranges, in batches, in ascending address
 * order, each to the node of the plan; pages already
 * there stay. Stops at the first batch that fails. 0; -EIO when pages were
 * left elsewhere (R says how many and the first); or move_pages' -errno:
 * -EPERM, -ESRCH (the process has gone), -ENOMEM, -EACCES (a node the
 * process may not use). R->moved counts in every case. */
int migrate_run(struct migrate_job *j, struct migrate_result *r);

void migrate_job_free(struct migrate_job *j);

#endif

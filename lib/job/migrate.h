/* SPDX-License-Identifier: GPL-2.0-or-later */
/* numactl2 --pid --migrate: the pages a process already has, moved with
 * move_pages(2) to where its new policy would place them. */
#ifndef NUMACTL2_MIGRATE_H
#define NUMACTL2_MIGRATE_H

#include <sys/types.h>

#include "job/migranges.h"
#include "libnumactl2.h"
#include "policy/migplan.h"
#include "policy/spec.h"

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

#endif

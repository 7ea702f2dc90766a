/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --report: where the job's pages went, read from /proc/TID/numa_maps as
 * its process sits in its last exit-stop (or, for a job that cannot be
 * traced, at the last sample while it ran), next to the share its policy
 * asked for. What the job starts is not traced: its processes' pages are
 * their last sample (jobtree.h). */
#ifndef NUMACTL2_REPORT_H
#define NUMACTL2_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "job/jobtree.h"
#include "job/numamaps.h"
#include "job/weightcheck.h"
#include "libnumactl2.h"
#include "policy/policy.h"

/* The processes a report names: those that held the most pages. */
#define REPORT_LARGEST 5

struct report_process {
	pid_t pid;
	char name[32];		/* /proc/PID/comm */
	unsigned long long pages[MAP_KINDS];
	unsigned long long total;
	/* The weights its weighted-interleave mappings use, "0:8,1:4 (own)"
	 * or "0:1,1:1 (global)", "; " between distinct ones; NULL: none
	 * (malloc'd). */
	char *weights;
};

struct report {
	enum report_format format;
	const char *path;
	FILE *out;			/* the path's, opened by nc2_report_open() */
	const struct policy *policy;
	char **command;
	/* Filled by nc2_report_add_process() as the job's processes end. */
	bool seen;		/* the exit-stop of the job's own process was reached */
	pid_t pid;		/* the job's own process */
	struct placement pl;	/* the pages of every process read */
	unsigned processes;	/* how many were read */
	struct jobtree started;	/* what the job started, sampled */
	unsigned started_counted;	/* of them, added to pl by nc2_report_print() */
	unsigned n_largest;
	struct report_process largest[REPORT_LARGEST];	/* the most pages first */
	pid_t read_pid;		/* a process whose numa_maps could not be read: no report */
	int read_errno;
	int write_errno;	/* the report could not be written */
	/* Task-local weights still in effect as each process ended
	 * (weightcheck.c); started by nc2_report_open(). */
	struct weights_check weights;
};

#endif

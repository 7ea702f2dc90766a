/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --report: where the job's pages went, read from /proc/TID/numa_maps as
 * its process sits in its last exit-stop (or, for a job that cannot be
 * traced, at the last sample while it ran), next to the share its policy
 * asked for. What the job starts is not traced, and not reported. */
#ifndef NUMACTL2_REPORT_H
#define NUMACTL2_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "job/numamaps.h"
#include "job/supervise.h"
#include "job/weightcheck.h"
#include "policy/policy.h"

enum report_format { REPORT_NONE, REPORT_TABLE, REPORT_JSON };

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

/* What a front end asks of a report. */
struct report_opts {
	enum report_format format;
	const char *path;		/* --report-file, or NULL */
	FILE *out;			/* without a path, where it goes (stderr) */
	const struct policy *policy;	/* final but for --weights=measured's weights */
	char **command;
};

struct report {
	enum report_format format;
	const char *path;
	FILE *out;			/* the path's, opened by report_open() */
	const struct policy *policy;
	char **command;
	/* Filled by report_add_process() as the job's processes end. */
	bool seen;		/* the exit-stop of the job's own process was reached */
	pid_t pid;		/* the job's own process */
	struct placement pl;	/* the pages of every process read */
	unsigned processes;	/* how many were read */
	unsigned n_largest;
	struct report_process largest[REPORT_LARGEST];	/* the most pages first */
	pid_t read_pid;		/* a process whose numa_maps could not be read: no report */
	int read_errno;
	int write_errno;	/* the report could not be written */
	/* Task-local weights still in effect as each process ended
	 * (weightcheck.c); started by report_open(). */
	struct weights_check weights;
};

/* What became of a report, for the front end to say. */
struct report_said {
	bool seen;		/* the exit-stop of the job's own process was reached */
	pid_t read_pid;		/* a process whose numa_maps could not be read: no report */
	int read_errno;
	int write_errno;	/* the report could not be written */
};

/* A report as O asks, into *R (report_close() frees it), with
 * --report-file opened (before anything changes): never through a symlink
 * (-ELOOP), a regular file only (-EINVAL), with one link only (-EMLINK) and
 * of this user's own (-EPERM); a file that is there is not truncated until
 * the report is written. 0 or -errno. */
int report_open(const struct report_opts *o, struct report **r);
/* supervise.c's hook (struct job's at_exit): adds the pages of the process
 * x names to r (or says in r why it could not); a sample replaces the one
 * before. */
void report_add_process(const struct job_exit *x, void *arg);

/* Prints the report of the job that has ended (supervise_watch()) to r->out
 * (--report-file truncated first); nothing when the job's own process was
 * not read. Failures are kept in r->write_errno. */
void report_print(struct report *r, const struct job *job);

void report_say(const struct report *r, struct report_said *s);
/* Closes --report-file and lets the report go; 0 or -errno. */
int report_close(struct report *r);

#endif

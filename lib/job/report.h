/* --report: where the job's pages went, read from /proc/PID/numa_maps while
 * it sits in its exit-stop, next to the share its policy asked for. */
#ifndef NUMACTL2_REPORT_H
#define NUMACTL2_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "policy/policy.h"

enum report_format { REPORT_NONE, REPORT_TABLE, REPORT_JSON };

struct report {
	enum report_format format;
	const char *path;		/* --report-file, or NULL */
	FILE *out;			/* without a path, the caller's (stderr) */
	const struct policy *policy;
	char **command;
	/* Filled by report_print_at_exit(). */
	bool seen;		/* the exit-stop was reached */
	pid_t pid;
	int read_errno;		/* numa_maps could not be read: no report */
	int write_errno;	/* the report could not be written */
};

/* Opens --report-file as r->out (before anything changes); 0 or -errno. */
int report_open(struct report *r);

/* supervise.c's exit-stop hook: prints the report for pid to r->out (or
 * says in r why it could not). */
void report_print_at_exit(pid_t pid, int exit_status, void *arg);

/* Closes --report-file; 0 or -errno. */
int report_close(struct report *r);

#endif

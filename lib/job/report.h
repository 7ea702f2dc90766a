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
	const char *path;		/* --report-file, or NULL for stderr */
	FILE *out;
	const struct policy *policy;
	char **command;
	bool seen;		/* the exit-stop was reached */
};

/* Opens --report-file (before anything changes); 0 or -errno. */
int report_open(struct report *r);

/* supervise.c's exit-stop hook: prints the report for pid. */
void report_at_exit(pid_t pid, int exit_status, void *arg);

/* After the job: says why there was no report, if there was none. */
void report_finish(struct report *r, int signal);

#endif

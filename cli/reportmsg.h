/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --report's messages: why a job got no report, or why it was not written. */
#ifndef NUMACTL2_REPORTMSG_H
#define NUMACTL2_REPORTMSG_H

#include "libnumactl2.h"

/* After nc2_report_print(), in the watcher: what went wrong reading the job's
 * pages or writing the report, if anything. */
void report_exit_warnings(const struct report *r, struct nc2_error *e);

/* After the job: says why there was no report, if there was none, and
 * closes --report-file and R (E: room for why it could not be written). */
void report_finish(struct report *r, const struct job *job, struct nc2_error *e);

#endif

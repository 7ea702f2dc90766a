// SPDX-License-Identifier: GPL-2.0-or-later
/* The watchers of a run whose job changes the table or is watched to its
 * end: the table's (lib/job/watcher.c), started before the table is
 * written, so that numactl2 killed at any moment after the write leaves it
 * to the watcher; and, for --report and --restore-weights, the job's
 * (lib/job/supervise.c), which takes over from it. The gate between
 * numactl2 and the table's watcher is the plan's. */
#include <stdbool.h>

#include "error/error.h"
#include "job/supervise.h"
#include "job/watcher.h"
#include "libnumactl2.h"
#include "owner/server.h"
#include "request/plan.h"
#include "weights/table.h"

/* In the table's watcher, once the job has ended: root's own owner finds
 * it so, and puts back what it alone held. */
static void table_job_ended(void *arg, struct settle *s)
{
	(void)arg;
	request_settle_here(s);
}

int nc2_request_watch_table(const struct request *r, struct plan *pl,
			void (*said)(const struct settle *s), struct nc2_error *e)
{
	struct watcher *w = &pl->watcher;
	int rc;

	if (!request_may_watch(r, pl))
		return 0;
	w->job_ended = table_job_ended;
	w->arg = pl;
	w->said = said;
	rc = watcher_start(w, &pl->gate);
	return rc < 0 ? error_set(e, TABLE_WATCHER, rc) : 0;
}

int nc2_request_job_start(struct plan *pl, struct job *job, struct nc2_error *e)
{
	int rc = supervise_start(job, e);
	if (rc == 1) {
		/* The job's watcher: the table's gate is numactl2's to close. */
		watcher_forget(&pl->gate);
	} else if (rc == 0) {
		/* The job's watcher puts the table back at its end: one is enough. */
		watcher_disarm(&pl->gate);
	}
	return rc;
}

/* --restore-weights' promise: the table is back when numactl2 (the job)
 * returns, so the job's weights are given back while the job is held in
 * its last exit-stop, and only then is it let go. Without it, the job goes
 * first. SAID tells OUT before the job is let go, so that its words are
 * there when numactl2 returns too. */
void nc2_request_job_done(struct plan *pl, struct job *job, bool restore, struct job_end *out,
		      void (*said)(struct job_end *out))
{
	if (!restore)
		supervise_release(job);
	nc2_request_job_ended(pl, restore, out);
	said(out);
	if (restore)
		supervise_release(job);
}

void nc2_request_job_exec_failed(struct plan *pl, struct job *job, struct job_end *out)
{
	supervise_exec_failed(job);
	nc2_request_job_never_ran(pl, out);
}

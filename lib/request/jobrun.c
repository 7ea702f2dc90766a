// SPDX-License-Identifier: GPL-2.0-or-later
/* The watchers of a run whose job changes the table or is watched to its
 * end: the table's (lib/job/watcher.c), started before the table is
 * written, so that numactl2 killed at any moment after the write leaves it
 * to the watcher; and, for --report and --restore-weights, the job's
 * (lib/job/supervise.c), which takes over from it. The gate between
 * numactl2 and the table's watcher is the plan's. */
#include <stdbool.h>

#include "job/fdpark.h"
#include "job/supervise.h"
#include "job/watcher.h"
#include "libnumactl2.h"
#include "request/planstate.h"
#include "weights/lease.h"
#include "weights/table.h"

int request_watch_table(const struct request *r, struct plan *pl,
			void (*said)(const struct settle *s))
{
	static struct watcher w;

	if (!request_may_watch(r, pl))
		return 0;
	w.said = said;
	return watcher_start(&w, &pl->state->gate);
}


/* The watcher keeps the lease descriptors parked (fdpark.h): not named as a
 * holder while the job runs, and able to end the lease lock at its end. */
static int park_leases(struct plan *pl)
{
	struct lease *l = &pl->state->change.txn.lease;
	int park = l->span ? fd_park(l->fd, l->span) : -1;

	if (park >= 0)
		for (unsigned i = 0; i < l->span; i++)
			l->fd[i] = l->fd[i] >= 0 ? -2 : -1;
	return park;
}

static void unpark_leases(struct plan *pl, int park)
{
	struct lease *l = &pl->state->change.txn.lease;

	if (park < 0)
		return;
	for (unsigned i = 0; i < l->span; i++)
		l->fd[i] = l->fd[i] == -2 ? 0 : -1;
	(void)fd_unpark(park, l->fd, l->span);
}

int request_job_start(struct plan *pl, struct job *job)
{
	int rc;

	request_release(pl);
	rc = supervise_start(job);
	if (rc == 1) {
		/* The job's watcher: the table's gate is numactl2's to close. */
		watcher_forget(&pl->state->gate);
		pl->state->park = park_leases(pl);
	} else if (rc == 0) {
		/* The job's watcher puts the table back at its end: one is enough. */
		watcher_disarm(&pl->state->gate);
	}
	return rc;
}

/* --restore-weights' promise: the table is back when numactl2 (the job)
 * returns, so the job's end is done while the job is held in its last
 * exit-stop (its lease locks let go first: jobend.c), and only then is
 * it let go. Without it, the job goes first, its lease descriptors with it.
 * SAID tells OUT before the job is let go, so that its words are there
 * when numactl2 returns too. */
void request_job_done(struct plan *pl, struct job *job, bool restore, struct job_end *out,
		      void (*said)(struct job_end *out))
{
	if (!restore)
		supervise_release(job);
	unpark_leases(pl, pl->state->park);
	request_job_ended(pl, restore, out);
	said(out);
	if (restore)
		supervise_release(job);
}

void request_job_exec_failed(struct plan *pl, struct job *job, struct job_end *out)
{
	supervise_exec_failed(job);
	request_job_never_ran(pl, out);
}

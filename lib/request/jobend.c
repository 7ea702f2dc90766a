// SPDX-License-Identifier: GPL-2.0-or-later
/* What happens once a job has ended, the same for the CLI's watcher and the
 * Slurm plugin's step end: with --restore-weights what this run wrote goes
 * back, each node left alone named; then the table as it was before the
 * first job that changed it, unless another job still needs it
 * (table_after_job()). */
#include <string.h>
#include <sys/file.h>

#include "libnumactl2.h"
#include "owner/wire.h"
#include "request/planstate.h"
#include "weights/lease.h"
#include "weights/restore.h"
#include "weights/settle.h"
#include "weights/table.h"

/* The job's descendants and the watcher share this run's lease descriptors
 * (one open file description for each node, with one flock lock): once the
 * job has ended (or never ran) that lock goes, and only another job's lease
 * keeps a weight from going back. */
static void end_job_leases(struct plan *pl)
{
	const struct lease *l = &pl->state->change.txn.lease;

	for (unsigned i = 0; i < l->span; i++)
		if (l->fd[i] >= 0)
			(void)flock(l->fd[i], LOCK_UN);
}

static void restore(struct plan *pl, struct job_end *out)
{
	end_job_leases(pl);
	out->restored = true;
	out->restore_rc = restore_weights(&pl->state->change, &out->restore);
}

/* The table as it was: this process's own lease descriptors go first;
 * those the job's children kept still count. Without a plan (slurmstepd,
 * at the step's end) wherever the table is there. */
static bool settles(const struct plan *pl)
{
	return pl ? pl->state->change.txn.role == GW_BASELINE_SAVE : gw_present();
}

void request_job_ended(struct plan *pl, bool restore_asked, struct job_end *out)
{
	memset(out, 0, sizeof(*out));
	/* numactl2d's lease ends with the job; --restore-weights waits for it. */
	if (pl && pl->state->owned) {
		if (restore_asked)
			(void)request_release_owner(pl);
		memcpy(out->owner_stays, pl->state->owner_stays, sizeof(out->owner_stays));
		return;
	}
	if (pl && restore_asked)
		restore(pl, out);
	/* numactl2d, where it runs, puts back what it held (slurmstepd's step). */
	if (!pl && owner_listening())
		return;
	if (!settles(pl))
		return;
	if (pl)
		lease_drop(&pl->state->change.txn.lease);
	out->settled = true;
	(void)table_after_job(&out->settle);
}

void request_job_never_ran(struct plan *pl, struct job_end *out)
{
	memset(out, 0, sizeof(*out));
	if (pl->state->owned) {
		(void)request_release_owner(pl);
		memcpy(out->owner_stays, pl->state->owner_stays, sizeof(out->owner_stays));
		return;
	}
	restore(pl, out);
}


// SPDX-License-Identifier: GPL-2.0-or-later
/* What happens once a job has ended, the same for the CLI and the Slurm
 * plugin's step end: the job's weights given back to the table's owner,
 * which puts back what it alone held. numactl2d watches its holders
 * itself; root's own owner (lib/owner/once.c) is told here, or by the
 * table's watcher. --restore-weights: before numactl2 returns. */
#include <stdio.h>
#include <string.h>

#include "error/error.h"
#include "libnumactl2.h"
#include "owner/server.h"
#include "owner/wire.h"
#include "request/plan.h"

void nc2_request_job_ended(struct plan *pl, bool restore_asked, struct job_end *out)
{
	memset(out, 0, sizeof(*out));
	if (pl && pl->owned && (restore_asked || pl->owner_here)) {
		out->restored = restore_asked;
		request_release_said(pl, out);
		memcpy(out->owner_stays, pl->owner_stays, sizeof(out->owner_stays));
		return;
	}
	/* slurmstepd at the step's end: root's own owner drops the tasks
	 * that ended; numactl2d, where it runs, has already. */
	if (!pl && !owner_listening()) {
		out->settled = true;
		request_settle_here(&out->settle);
	}
}

/* Root's own owner asked to drop the jobs that have ended and put back
 * what they alone held, into S. */
void request_settle_here(struct settle *s)
{
	struct book_putback pb;
	int rc = owner_settle_here(&pb);

	memset(s, 0, sizeof(*s));
	s->state = rc == 0 ? SETTLE_DONE : SETTLE_FAILED;
	if (rc < 0 && (s->error = nc2_error_new()))
		(void)error_set(s->error, SETTLE_OWNER, rc);
	snprintf(s->stays, sizeof(s->stays), "%s", pb.stays);
}

void nc2_request_job_never_ran(struct plan *pl, struct job_end *out)
{
	memset(out, 0, sizeof(*out));
	/* A change that was to stay goes back all the same: its job never ran. */
	if (pl->owner_kept) {
		out->restored = request_undo_owner(pl, out);
		memcpy(out->owner_stays, pl->owner_stays, sizeof(out->owner_stays));
		return;
	}
	out->restored = pl->owned;
	request_release_said(pl, out);
	memcpy(out->owner_stays, pl->owner_stays, sizeof(out->owner_stays));
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The library's part of a plan, which the front ends do not see: the
 * global table's transaction and what --weights=auto read. */
#ifndef NUMACTL2_PLANSTATE_H
#define NUMACTL2_PLANSTATE_H

#include <sys/types.h>

#include "bandwidth/autoweights.h"
#include "weights/target.h"

struct plan_state {
	int gate;			/* to the table's watcher (jobrun.c); -1: none */
	int park;			/* the job's watcher: its lease descriptors, parked */
	/* weights_init() sets the transaction up whole; --weights=auto fills
	 * autow whole, read only once pl->auto_weights says so. */
	struct weights_change change;	/* the global table's transaction */
	struct auto_weights autow;	/* --weights=auto: bandwidths and weights */
	/* The weights held by the table's owner (numactl2d) for this job, and
	 * what it changed, worded as a change of our own would be. */
	bool owned;
	bool owner_wrote;
	pid_t owner_pid;		/* the process the lease is for */
	char owner_stays[200];		/* its release: what numactl2d could not put back */
	struct gw_txn_said owner_said;
};

/* The table's owner, where it runs (ownerask.c): 1 when it answered (0
 * or -1 in *RC), 0 when no service listens. */
int request_ask_owner(const struct request *r, struct plan *pl, struct request_error *e, int *rc);
int request_dry_owner(const struct request *r, struct request_error *e, int *rc);
bool request_release_owner(struct plan *pl);
int request_owner_rows(const struct request *r, struct auto_weights *aw);

/* Before request_apply_table(): may it change the table for a job whose
 * end must put it back (pl->watch, known only after)? (apply.c) */
bool request_may_watch(const struct request *r, const struct plan *pl);

#endif

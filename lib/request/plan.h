/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A plan, which the front ends hold by a pointer and read through the
 * accessors of plan.c: where the weights go and why, what the table's owner
 * holds for the job and what --weights=auto read. */
#ifndef NUMACTL2_PLAN_H
#define NUMACTL2_PLAN_H

#include <stdint.h>
#include <sys/types.h>

#include "bandwidth/autoweights.h"
#include "error/error.h"
#include "job/watcher.h"
#include "weights/target.h"

/* What the table's owner granted the job, node by node: the table before
 * and after the change (ownerask.c). */
struct owner_grant {
	uint8_t was[PARSE_MAX_NODES];
	uint8_t now[PARSE_MAX_NODES];
};

/* Made zeroed by nc2_plan_new(); its parts that only some runs need are
 * allocated by the step that needs them: a plain run neither reads
 * bandwidths nor asks the table's owner nor checks the program's libnuma. */
struct plan {
	bool auto_weights;		/* --weights=auto: nc2_request_print_weights() says what it read */
	bool measured;			/* --weights=measured: nc2_request_measure() before apply */
	enum plan_why why;		/* policy->task_local says where */
	bool table_change;		/* the global table's weights, held for the job */
	bool table_taken;		/* apply asked the table's owner (what it changed) */
	bool watch;			/* after apply: the job's end must put the table back */
	bool undone_written;		/* nc2_request_undo() put written weights back */
	/* The libnuma check's finding (resolve.c), allocated by the check and
	 * filled whole by it; read only once libnuma_checked says so. */
	struct libnuma_finding *libnuma;
	bool libnuma_checked;
	struct nc2_error *libnuma_error;	/* why the libnuma check did not finish */
	int gate;			/* to the table's watcher (jobrun.c); -1: none */
	struct watcher watcher;		/* what it does at the job's end */
	/* --weights=auto's bandwidths and weights (resolve.c), read only once
	 * auto_weights says so. */
	struct auto_weights *autow;
	/* The weights held by the table's owner (numactl2d, or root's own)
	 * for this job, and what it changed. */
	bool owned;
	bool owner_wrote;
	pid_t owner_pid;		/* the process the lease is for */
	bool owner_kept;		/* the change stays (OWNER_KEEP) */
	bool owner_auto_off;		/* it turned the kernel's auto weights off */
	bool dry_auto_gone;		/* --dry-run: it would turn them off until reboot */
	bool owner_here;		/* root's own owner, in this process: no
					 * service watches the job (watch) */
	char owner_stays[200];		/* its release or undo: what could not go back */
	struct table_said owner_said;
	struct owner_grant *grant;	/* allocated by the ask, read once owned
					 * or owner_wrote says it granted */
};

/* The table's owner, where it runs (ownerask.c): 1 when it answered (0
 * or -1 in *RC), 0 when no service listens. */
int request_ask_owner(const struct request *r, struct plan *pl, struct nc2_error *e, int *rc);
int request_dry_owner(const struct request *r, struct plan *pl, struct nc2_error *e, int *rc);
bool request_release_owner(struct plan *pl);
bool request_undo_owner(struct plan *pl, struct job_end *out);
void request_release_said(struct plan *pl, struct job_end *out);
int request_in_effect(const struct request *r, struct nc2_error *e);
void request_settle_here(struct settle *s);
int request_owner_rows(const struct request *r, struct auto_weights *aw);

/* Before nc2_request_apply_table(): may it change the table for a job whose
 * end must put it back (watch, known only after)? (apply.c) */
bool request_may_watch(const struct request *r, const struct plan *pl);

#endif

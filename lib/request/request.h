/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One request, as a front end (the CLI, the Slurm plugin) fills it, the
 * plan the library resolves it into, and the one error value that says what
 * went wrong: resolve.c decides, apply.c changes, jobend.c acts at the
 * job's end. Front ends parse and word; they do not take the table's
 * transaction or its leases themselves. */
#ifndef NUMACTL2_REQUEST_H
#define NUMACTL2_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "parse.h"
#include "policy/spec.h"
#include "weights/target.h"
#include "weights/restore.h"
#include "weights/settle.h"
#include "bandwidth/autoweights.h"
#include "bandwidth/measure.h"
#include "job/libnumacheck.h"

/* The longest --wait (the CLI) and --weights-wait (the plugin): a week. */
#define WAIT_MAX_SECS 604800

struct request {
	struct policy *policy;	/* mode, nodes and flags as parsed; resolve adds the weights */
	const char *weights;	/* --weights as given: a list, "auto" or "measured"; NULL: none */
	unsigned budget;	/* --weight-budget, or BW_BUDGET_CHOOSE */
	/* The CPUs the job will run on, for --weights=auto (-N, -C); NULL:
	 * its affinity now. */
	const struct bitmask *cpunodes;
	const struct bitmask *cpus;
	char **command;		/* the job's command; NULL: none */
	char **env;		/* the environment the command is found and run in */
	bool dry_run;		/* read files only: the program's loader is not run */
	bool no_global;		/* --no-global-weights: the table must already hold them */
	bool global_forced;	/* --global-weights */
	bool to_pid;		/* --pid: the weights go with the policy to that process */
	bool on_range;		/* --shm/--file: a range's policy, no program to ask */
	bool job;		/* a job runs under the weights: its leases stay, and
				 * the table goes back at its end */
	bool keep_weights;	/* --keep-weights: a job's change stays after it */
	struct lease_options lease;	/* --force, --wait[=SECS] */
	/* The range whose policy apply sets (--shm/--file); NULL: the task's. */
	void *range;
	size_t range_len;
	unsigned range_flags;	/* MPOL_MF_STRICT */
};

/* Why the weights go where they go (--dry-run says it). */
enum plan_why {
	WHY_NONE,		/* no weights asked */
	WHY_TASK_LOCAL,		/* the kernel has set_mempolicy2 */
	WHY_PID,		/* --pid: with the policy, to that process */
	WHY_HOME_NODE,		/* --home-node: mbind2 takes the weights too */
	WHY_FORCED,		/* --global-weights */
	WHY_NO_MPOL2,		/* the kernel has no task-local weights */
	WHY_LIBNUMA,		/* the program's libnuma would drop them at its start */
};

struct plan {
	bool auto_weights;		/* --weights=auto: request_print_auto_weights() says what it read */
	bool measured;			/* --weights=measured: request_measure() before apply */
	enum plan_why why;		/* policy->task_local says where */
	bool libnuma_checked;		/* libnuma holds what the check found */
	bool table_change;		/* the global table gets a change, under a lease */
	bool table_taken;		/* apply took its transaction (settled, lease, what changed) */
	bool watch;			/* after apply: the job's end must put the table back */
	bool undone_written;		/* request_undo() put written weights back */
	/* The library's own part (lib/request/planstate.h): the table's
	 * transaction and --weights=auto's bandwidths. A process holds one
	 * plan (the CLI's run, the plugin's task), and request_plan_init()
	 * points it at the library's one state. */
	struct plan_state *state;
	/* From here on request_plan_init() zeroes nothing (bench/overhead: 5 KiB
	 * of memset at every start): the libnuma check fills libnuma whole; it
	 * is read only once libnuma_checked says so. */
	struct libnuma_finding libnuma;
};

/* What went wrong, for msg/ to word: a kind, the errno, the node. */
enum request_fault {
	REQ_OK,
	REQ_NOMEM_WEIGHTS,	/* the weight list cannot be kept */
	REQ_NOMEM_LIST,		/* the weight list cannot be read */
	REQ_WEIGHT_LIST,	/* parse: what is wrong with the list */
	REQ_WEIGHT_NOT_IN_SET,	/* node */
	REQ_AUTO_UNREAD,	/* err: -E2BIG, -ENODATA (node) */
	REQ_AUTO_BUDGET,	/* value: the budget, count: the nodes */
	REQ_BUDGET_BELOW_NODES,	/* value: the budget, count: the nodes (measured) */
	REQ_MEASURE,		/* err */
	REQ_LIBNUMA_UNREAD,	/* err, the plan's libnuma.prog */
	REQ_LIBNUMA_REFUSED,	/* --no-global-weights, the program's libnuma drops them */
	REQ_NO_GLOBAL_WRITE,	/* --no-global-weights, the table does not hold them */
	REQ_NO_WEIGHTED_INTERLEAVE,	/* this kernel has no weighted interleave */
	REQ_GLOBAL_REFUSED,	/* err, node, table, conflict */
	REQ_PREFERRED_MANY,	/* the kernel has no MPOL_PREFERRED_MANY */
	REQ_POLICY,		/* err: the policy call's */
};

struct request_error {
	enum request_fault kind;
	int err;		/* a positive errno, or 0 */
	unsigned node;
	unsigned value, count;
	struct parse_err parse;	/* REQ_WEIGHT_LIST */
	int mode;		/* REQ_POLICY: the policy's mode */
	/* REQ_GLOBAL_REFUSED: the change asked, and the lease in its way (-EBUSY). */
	struct gw_txn_said table;
	struct lease_conflict conflict;
};

/* --weights=auto: the bandwidths read and the weights they gave (pl->auto_weights). */
void request_print_auto_weights(FILE *out, const struct plan *pl);

/* Whether the error is about the user's input (the CLI adds where help is). */
bool request_error_is_usage(const struct request_error *e);

/* resolve.c: the weights and where they go, the libnuma check, what the
 * global table needs; nothing is changed. 0 or -1 with *e filled. */
void request_plan_init(struct plan *pl);
int request_resolve(const struct request *r, struct plan *pl, struct request_error *e);
const char *request_why(enum plan_why why);

/* apply.c: --weights=measured measured now, into the policy; then the
 * global table's change (if any) under the transaction and its lease, and
 * the policy set. 0 or -1 with *e filled; on -1 what was written went back
 * (pl->undone_written says whether anything had been). */
int request_measure(const struct request *r, struct plan *pl, const struct measure_req *how,
		    struct measurement *m, struct request_error *e);
int request_apply(const struct request *r, struct plan *pl, struct request_error *e);
/* Its two steps, for a front end that says what the first did before the second. */
int request_apply_table(const struct request *r, struct plan *pl, struct request_error *e);
bool request_may_watch(const struct request *r, const struct plan *pl);
int request_apply_policy(const struct request *r, struct plan *pl, struct request_error *e);
/* The directory lock let go, the leases kept (other runs go on). */
void request_release(struct plan *pl);
/* What the run wrote goes back (a failed exec); returns whether anything had been. */
bool request_undo(struct plan *pl);

/* jobend.c: what happens once the job (or the Slurm step) has ended. */
struct job_end {
	bool restored;			/* --restore-weights ran */
	int restore_rc;
	struct restore_result restore;	/* its result; free(restore.left) after */
	bool settled;			/* the table put back as it was */
	struct settle settle;
};

/* PL: this run's plan (NULL in a process that holds none, as slurmstepd's
 * exit); RESTORE: --restore-weights. */
void request_job_ended(struct plan *pl, bool restore, struct job_end *out);
/* The job never ran or its exec failed: its leases go, what it wrote goes back. */
void request_job_never_ran(struct plan *pl, struct job_end *out);
/* The watcher keeps the lease descriptors parked while the job runs. */
int request_park_leases(struct plan *pl);
void request_unpark_leases(struct plan *pl, int park);
/* What the table's change did (pl->table_taken), for the front ends' notices. */
void request_table_said(const struct plan *pl, struct gw_txn_said *s);

/* places.c: what a message names, the places the library reads and writes
 * (each owned by a module the front ends do not call). */
enum lib_place {
	LIB_TABLE,		/* the global table's directory in sysfs */
	LIB_BASELINE,		/* the table as it was, kept in /dev/shm */
	LIB_RECORDS,		/* the lease records in /dev/shm */
	LIB_NODEPERF,		/* the nodes' access classes in sysfs */
};
const char *lib_place(enum lib_place place);

#endif

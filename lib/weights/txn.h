/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One locked, all-or-nothing change of the kernel's global weight table:
 * the directory lock, the leases, the staged writes, the commit, the undo
 * and the end. Every change of the table goes through it. */
#ifndef NUMACTL2_TXN_H
#define NUMACTL2_TXN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libnumactl2.h"
#include "weights/lease.h"
#include "weights/settle.h"
#include "weights/table.h"

/* What a change does to the baseline, the table as it was (baseline.c). */
enum gw_baseline_role {
	GW_BASELINE_NONE,	/* nothing: putting weights back (restore.c) */
	GW_BASELINE_SAVE,	/* a job: saved before its first write, unless there is one */
	GW_BASELINE_REDEFINE,	/* an admin's change, --keep-weights: what it writes is
				 * what "as it was" means from then on */
};

/* One node's part of the change. */
struct gw_txn_node {
	struct lease_ask ask;	/* what the run asks of it */
	bool staged;		/* part of the change: old -> new */
	bool written;		/* for the undo: only what was written */
	uint8_t old, new;	/* the weight before and after */
	int fd;			/* nodeN open for writing while staged; -1 when closed */
};

struct gw_txn {
	unsigned nnodes;		/* node[] and lease.fd[] have room for that many */
	unsigned span;			/* node[0..span-1] are set; every node asked or
					 * staged is below it */
	struct gw_txn_node *node;
	unsigned beyond;		/* a node asked for that the table cannot have; 0: none */
	int dirfd;			/* the sysfs directory, flock()ed; -1: not held */
	enum gw_auto auto_before;
	struct lease lease;
	struct lease_options opt;	/* the caller's */
	bool keep;			/* a job: hold the leases after the change */
	bool no_write;			/* fail with -EROFS where a weight would be written */
	enum gw_baseline_role role;	/* the caller's */
	bool baseline_made;		/* this change saved the baseline (undo removes it) */
	int baseline_err;		/* -errno: the baseline could not be saved or redefined */
	struct settle settled;		/* what the table's lock found left by ended jobs */
};

void gw_txn_init(struct gw_txn *t);
int gw_txn_alloc(struct gw_txn *t);
void gw_txn_free(struct gw_txn *t);
void gw_txn_ask(struct gw_txn *t, unsigned node, enum lease_want kind, unsigned weight);
bool gw_txn_asks_weight(const struct gw_txn *t, unsigned node, unsigned *weight);

/* --dry-run: what the change would be refused for, found without the
 * lock, a lease or a write, in the order the change finds it: -EROFS
 * (--no-global-weights, a weight to change), -EBUSY with *c (a live lease
 * on a weight to change, unless --force or --wait), -ENOENT (a node beyond
 * the table), -EACCES (a weight this user may not write); 0. *failed_node:
 * where. */
int gw_txn_check(const struct gw_txn *t, struct lease_conflict *c, unsigned *failed_node);

int gw_txn_begin(struct gw_txn *t);
int gw_txn_acquire(struct gw_txn *t, struct lease_conflict *c, unsigned *failed_node);
int gw_txn_stage(struct gw_txn *t, unsigned node, unsigned weight);
int gw_txn_commit(struct gw_txn *t, unsigned *failed_node);
int gw_txn_change(struct gw_txn *t, struct lease_conflict *c, unsigned *failed_node);
void gw_txn_end(struct gw_txn *t);
void gw_txn_undo(struct gw_txn *t);
bool gw_txn_any_written(const struct gw_txn *t);
void gw_txn_describe(const struct gw_txn *t, char *buf, size_t len);

void gw_txn_say(const struct gw_txn *t, struct gw_txn_said *s);
void gw_txn_say_refused(const struct gw_txn *t, unsigned node, struct gw_txn_said *s);

#endif

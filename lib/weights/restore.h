/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --restore-weights: the global weights a run changed go back when its job
 * ends; what happened to each node is returned for the front end to say. */
#ifndef NUMACTL2_RESTORE_H
#define NUMACTL2_RESTORE_H

#include "weights/target.h"

/* Why a node the run wrote was or was not put back. */
enum restore_outcome {
	RESTORE_LEFT_LEASED,	/* another job leases it now (who) */
	RESTORE_LEFT_CHANGED,	/* its weight is no longer the one the run set */
	RESTORE_STAGE_FAILED,	/* cannot be written (err) */
};

struct restore_node {
	unsigned node;
	enum restore_outcome outcome;
	unsigned weight;		/* its weight now */
	unsigned set;			/* the weight the run set */
	int err;			/* RESTORE_STAGE_FAILED: -errno */
	struct lease_holders who;	/* RESTORE_LEFT_LEASED */
};

/* The kernel's auto mode, when it was on before the run. */
enum restore_auto {
	RESTORE_AUTO_UNTOUCHED,	/* was off, or not every node went back, or unreadable */
	RESTORE_AUTO_LEFT_OFF,	/* a node is leased (auto_leased_node) */
	RESTORE_AUTO_BACK_ON,
};

struct restore_result {
	int lock_err;			/* cannot lock the table: -errno, nothing done */
	unsigned nleft;
	struct restore_node *left;	/* nleft nodes not put back, by node; free() it */
	int commit_err;			/* -errno: none put back, commit_failed_node failed */
	unsigned commit_failed_node;
	char put_back[512];		/* "node0 9->1, ...": what went back */
	enum restore_auto auto_mode;
	unsigned auto_leased_node;
};

int restore_weights(struct weights_change *wc, struct restore_result *res);

#endif

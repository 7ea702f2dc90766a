// SPDX-License-Identifier: GPL-2.0-or-later
/* --restore-weights: once the job has ended, each global weight its run
 * wrote goes back, unless another job leases that node by now (the job's
 * own forked children included) or someone changed it since; each node
 * left alone is returned, with why, for the front end to name. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "weights/restore.h"

/* Stages node N's old weight, or notes in RES why it stays. */
static bool stage_restore(struct gw_txn *t, const struct gw_txn *done, unsigned n,
			  struct restore_result *res)
{
	struct restore_node *left = &res->left[res->nleft];
	struct lease_conflict c;
	unsigned cur = 0;
	int rc;

	memset(left, 0, sizeof(*left));
	left->node = n;
	left->set = done->node[n].new;
	if (!lease_try_exclusive(n, &c)) {
		left->outcome = RESTORE_LEFT_LEASED;
		left->weight = c.held;
		left->who = c.who;
	} else if (gw_read(n, &cur) < 0 || cur != done->node[n].new) {
		left->outcome = RESTORE_LEFT_CHANGED;
		left->weight = cur;
	} else {
		rc = gw_txn_stage(t, n, done->node[n].old);
		if (rc == 0)
			return true;
		left->outcome = RESTORE_STAGE_FAILED;
		left->err = rc;
	}
	res->nleft++;
	return false;
}

/* The kernel's auto mode rewrites every node: only when none is leased. */
static int restore_auto(struct restore_result *res)
{
	unsigned count = gw_node_count();
	bool *has = calloc(count, sizeof(*has));
	struct lease_conflict c;

	if (!has)
		return -ENOMEM;
	if (gw_nodes(has, count) < 0)
		goto out;
	for (unsigned n = 0; n < count; n++) {
		if (has[n] && !lease_try_exclusive(n, &c)) {
			res->auto_mode = RESTORE_AUTO_LEFT_OFF;
			res->auto_leased_node = n;
			goto out;
		}
	}
	if (gw_enable_auto() == 0)
		res->auto_mode = RESTORE_AUTO_BACK_ON;
out:
	free(has);
	return 0;
}

/* This process's lease descriptors go first: only the job's side counts.
 * Returns 0 with *res filled in (res->left is the caller's to free()), or
 * -ENOMEM. */
int restore_weights(struct weights_change *wc, struct restore_result *res)
{
	const struct gw_txn *done = &wc->txn;
	struct gw_txn t;
	bool all = true;
	int rc;

	memset(res, 0, sizeof(*res));
	lease_drop(&wc->txn.lease);
	if (!gw_txn_any_written(done))
		return 0;
	gw_txn_init(&t);
	res->left = calloc(done->span, sizeof(res->left[0]));
	if (!res->left || gw_txn_alloc(&t) < 0) {
		free(res->left);
		res->left = NULL;
		return -ENOMEM;
	}
	res->lock_err = gw_txn_begin(&t);
	for (unsigned n = 0; !res->lock_err && n < done->span; n++)
		if (done->node[n].written)
			all &= stage_restore(&t, done, n, res);
	if (!res->lock_err)
		res->commit_err = gw_txn_commit(&t, &res->commit_failed_node);
	gw_txn_describe(&t, res->put_back, sizeof(res->put_back));
	rc = 0;
	if (!res->lock_err && !res->commit_err && all && done->auto_before == GW_AUTO_ON)
		rc = restore_auto(res);
	gw_txn_free(&t);
	return rc;
}

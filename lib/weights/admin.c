// SPDX-License-Identifier: GPL-2.0-or-later
/* The admin operations on the global table: which nodes each one asks for
 * and what it wants of them; the change itself is a transaction (txn.c).
 * An admin operation holds no lease afterwards. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "weights/admin.h"
#include "weights/baseline.h"

static int fail(struct admin_result *res, enum admin_step step, int rc)
{
	res->failed = step;
	return rc;
}

/* A transaction with room for every node, options O, nothing asked yet. */
static int start(const struct lease_options *o, struct admin_result *res)
{
	int rc;

	memset(res, 0, sizeof(*res));
	gw_txn_init(&res->txn);
	if (!gw_present())
		return fail(res, ADMIN_NO_TABLE, -ENOENT);
	rc = gw_txn_alloc(&res->txn);
	if (rc < 0)
		return fail(res, ADMIN_CHANGE, rc);
	res->txn.opt = *o;
	res->txn.keep = false;
	res->txn.role = GW_BASELINE_REDEFINE;
	return 0;
}

/* Every node with a weight file asked for KIND (and WEIGHT). */
static int ask_every_node(struct admin_result *res, enum lease_want kind, unsigned weight)
{
	bool *has = calloc(res->txn.nnodes, sizeof(*has));
	int rc;

	if (!has)
		return fail(res, ADMIN_CHANGE, -ENOMEM);
	rc = gw_nodes(has, res->txn.nnodes);
	for (unsigned n = 0; rc == 0 && n < res->txn.nnodes; n++)
		if (has[n])
			gw_txn_ask(&res->txn, n, kind, weight);
	free(has);
	return rc < 0 ? fail(res, ADMIN_NO_NODES, rc) : 0;
}

static int change(struct admin_result *res)
{
	int rc = gw_txn_change(&res->txn, &res->conflict, &res->failed_node);

	if (rc < 0)
		return fail(res, ADMIN_CHANGE, rc);
	gw_txn_end(&res->txn);
	return 0;
}

/* --set-global-weights: the nodes of WL, at their weights. */
int admin_set_weights(const struct weight_list *wl, const struct lease_options *o,
		      struct admin_result *res)
{
	int rc = start(o, res);

	if (rc < 0)
		return rc;
	for (unsigned n = 0; n <= wl->max_node; n++)
		if (wl->weight[n])
			gw_txn_ask(&res->txn, n, LEASE_WEIGHT, wl->weight[n]);
	return change(res);
}

/* --reset-global-weights: every nodeN file there is, back to 1. */
int admin_reset_weights(const struct lease_options *o, struct admin_result *res)
{
	int rc = start(o, res);

	if (rc == 0)
		rc = ask_every_node(res, LEASE_WEIGHT, 1);
	return rc < 0 ? rc : change(res);
}

/* --auto-global-weights: the kernel rewrites every node, so each must be
 * free of leases; the leases only guard the switch, nothing is written. */
int admin_auto_weights(const struct lease_options *o, struct admin_result *res)
{
	int rc = start(o, res);

	if (rc < 0)
		return rc;
	if (gw_read_auto() == GW_AUTO_ABSENT)
		return fail(res, ADMIN_NO_AUTO, -ENOENT);
	rc = ask_every_node(res, LEASE_EXCLUSIVE, 0);
	if (rc < 0)
		return rc;
	rc = gw_txn_acquire(&res->txn, &res->conflict, &res->failed_node);
	if (rc < 0)
		return fail(res, ADMIN_CHANGE, rc);
	rc = gw_read_auto() == GW_AUTO_ON ? 0 : gw_enable_auto();
	/* The kernel's weights on every node are what "as it was" means now. */
	if (rc == 0)
		baseline_remove();
	lease_drop(&res->txn.lease);
	gw_txn_end(&res->txn);
	return rc < 0 ? fail(res, ADMIN_ENABLE_AUTO, rc) : 0;
}

void admin_said(const struct admin_result *res, int rc, struct gw_txn_said *s)
{
	if (rc < 0 && res->failed == ADMIN_CHANGE)
		gw_txn_say_refused(&res->txn, res->failed_node, s);
	else
		gw_txn_say(&res->txn, s);
}

void admin_result_free(struct admin_result *res)
{
	gw_txn_free(&res->txn);
}

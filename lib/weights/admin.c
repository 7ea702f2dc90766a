// SPDX-License-Identifier: GPL-2.0-or-later
/* The admin operations on the global table: which nodes each one asks for
 * and what it wants of them; the change itself is a transaction (txn.c).
 * An admin operation holds no lease afterwards. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libnumactl2.h"
#include "weights/baseline.h"
#include "weights/txn.h"

static int fail(struct admin_result *res, enum admin_step step, int rc)
{
	res->failed = step;
	return rc;
}

/* T with room for every node, options O, nothing asked yet. */
static int start(struct gw_txn *t, const struct lease_options *o, struct admin_result *res)
{
	int rc;

	memset(res, 0, sizeof(*res));
	gw_txn_init(t);
	if (!gw_present())
		return fail(res, ADMIN_NO_TABLE, -ENOENT);
	rc = gw_txn_alloc(t);
	if (rc < 0)
		return fail(res, ADMIN_CHANGE, rc);
	t->opt = *o;
	t->keep = false;
	t->role = GW_BASELINE_REDEFINE;
	return 0;
}

/* What T did or why it was refused, into RES; T freed. Returns RC. */
static int finish(struct gw_txn *t, struct admin_result *res, int rc)
{
	if (rc < 0 && res->failed == ADMIN_CHANGE)
		gw_txn_say_refused(t, res->failed_node, &res->said);
	else
		gw_txn_say(t, &res->said);
	gw_txn_free(t);
	return rc;
}

/* Every node with a weight file asked for KIND (and WEIGHT). */
static int ask_every_node(struct gw_txn *t, struct admin_result *res, enum lease_want kind,
			  unsigned weight)
{
	bool *has = calloc(t->nnodes, sizeof(*has));
	int rc;

	if (!has)
		return fail(res, ADMIN_CHANGE, -ENOMEM);
	rc = gw_nodes(has, t->nnodes);
	for (unsigned n = 0; rc == 0 && n < t->nnodes; n++)
		if (has[n])
			gw_txn_ask(t, n, kind, weight);
	free(has);
	return rc < 0 ? fail(res, ADMIN_NO_NODES, rc) : 0;
}

static int change(struct gw_txn *t, struct admin_result *res)
{
	int rc = gw_txn_change(t, &res->conflict, &res->failed_node);

	if (rc < 0)
		return fail(res, ADMIN_CHANGE, rc);
	gw_txn_end(t);
	return 0;
}

/* --set-global-weights: the nodes of WL, at their weights. */
int admin_set_weights(const struct weight_list *wl, const struct lease_options *o,
		      struct admin_result *res)
{
	struct gw_txn t;
	int rc = start(&t, o, res);

	if (rc == 0) {
		for (unsigned n = 0; n <= wl->max_node; n++)
			if (wl->weight[n])
				gw_txn_ask(&t, n, LEASE_WEIGHT, wl->weight[n]);
		rc = change(&t, res);
	}
	return finish(&t, res, rc);
}

/* --reset-global-weights: every nodeN file there is, back to 1. */
int admin_reset_weights(const struct lease_options *o, struct admin_result *res)
{
	struct gw_txn t;
	int rc = start(&t, o, res);

	if (rc == 0)
		rc = ask_every_node(&t, res, LEASE_WEIGHT, 1);
	if (rc == 0)
		rc = change(&t, res);
	return finish(&t, res, rc);
}

/* The kernel rewrites every node, so each must be free of leases; the
 * leases only guard the switch, nothing is written. */
static int enable_auto(struct gw_txn *t, struct admin_result *res)
{
	int rc;

	if (gw_read_auto() == GW_AUTO_ABSENT)
		return fail(res, ADMIN_NO_AUTO, -ENOENT);
	rc = ask_every_node(t, res, LEASE_EXCLUSIVE, 0);
	if (rc < 0)
		return rc;
	rc = gw_txn_acquire(t, &res->conflict, &res->failed_node);
	if (rc < 0)
		return fail(res, ADMIN_CHANGE, rc);
	rc = gw_read_auto() == GW_AUTO_ON ? 0 : gw_enable_auto();
	/* The kernel's weights on every node are what "as it was" means now. */
	if (rc == 0)
		baseline_remove();
	lease_drop(&t->lease);
	gw_txn_end(t);
	return rc < 0 ? fail(res, ADMIN_ENABLE_AUTO, rc) : 0;
}

/* --auto-global-weights. */
int admin_auto_weights(const struct lease_options *o, struct admin_result *res)
{
	struct gw_txn t;
	int rc = start(&t, o, res);

	if (rc == 0)
		rc = enable_auto(&t, res);
	return finish(&t, res, rc);
}

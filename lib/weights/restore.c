/* --restore-weights: once the job has ended, each global weight its run
 * wrote goes back, unless another job leases that node by now (the job's
 * own forked children included) or someone changed it since; each node
 * left alone is named, with why. */
#include <err.h>
#include <errno.h>
#include <stdio.h>

#include "weights/lease.h"
#include "weights/restore.h"

static bool stage_restore(struct gw_txn *t, const struct gw_txn *done, unsigned n)
{
	struct lease_conflict c;
	char pids[256];
	unsigned cur = 0;

	if (!lease_try_exclusive(n, &c)) {
		lease_format_pids(&c.who, pids, sizeof(pids));
		warnx("left node %u at weight %u: another job leases it now (PIDs %s)", n, c.held, pids);
		return false;
	}
	if (gw_read(n, &cur) < 0 || cur != done->new[n]) {
		warnx("left node %u at weight %u: changed since this run set %u", n, cur, done->new[n]);
		return false;
	}
	if (gw_stage(t, n, done->old[n]) < 0) {
		warn("cannot put back the global interleave weight of node %u", n);
		return false;
	}
	return true;
}

/* The kernel's auto mode rewrites every node: only when none is leased. */
static void restore_auto(void)
{
	static bool has[PARSE_MAX_NODES];
	struct lease_conflict c;

	if (gw_nodes(has) < 0)
		return;
	for (unsigned n = 0; n < PARSE_MAX_NODES; n++) {
		if (has[n] && !lease_try_exclusive(n, &c)) {
			warnx("left the kernel's auto weights off: node %u is leased", n);
			return;
		}
	}
	if (gw_enable_auto() == 0)
		warnx("turned the kernel's auto weights back on");
}

static bool any_written(const struct gw_txn *done)
{
	for (unsigned n = 0; n < PARSE_MAX_NODES; n++)
		if (done->written[n])
			return true;
	return false;
}

/* This process's lease descriptors go first: only the job's side counts. */
void restore_weights(struct weights_change *wc)
{
	static struct gw_txn t;
	const struct gw_txn *done = &wc->gw;
	unsigned node = 0;
	bool all = true;
	char what[512];
	int rc;

	lease_drop(&wc->lease);
	if (!any_written(done))
		return;
	rc = gw_begin(&t);
	if (rc < 0) {
		errno = -rc;
		warn("cannot put the global interleave weights back: cannot lock %s", gw_dir());
		return;
	}
	for (unsigned n = 0; n < PARSE_MAX_NODES; n++)
		if (done->written[n])
			all &= stage_restore(&t, done, n);
	rc = gw_commit(&t, &node);
	gw_describe(&t, what, sizeof(what));
	if (rc < 0) {
		errno = -rc;
		warn("cannot put back the global interleave weight of node %u (none put back)", node);
	} else if (what[0]) {
		warnx("put back global interleave weights: %s", what);
	}
	if (rc == 0 && all && done->auto_before == GW_AUTO_ON)
		restore_auto();
	gw_end(&t);
}

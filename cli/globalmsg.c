/* --set-global-weights, --reset-global-weights, --auto-global-weights:
 * managing the system-wide table without running anything; and the one
 * place that reports global weight changes, leases and failures. */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/globalmsg.h"

static void need_table(void)
{
	if (!gw_present())
		errx(1, "this kernel has no global interleave weights (needs Linux 6.9 or later)");
}

void global_failed(int rc, unsigned node)
{
	errno = -rc;
	if (rc == -EACCES || rc == -EPERM)
		err(1, "changing global interleave weights needs root");
	if (rc == -ENOENT)
		errx(1, "node %u has no global interleave weight in %s", node, gw_dir());
	err(1, "cannot change global interleave weight of node %u (none changed)", node);
}

/* "0:1,1:1": the weights R asks for (WANTED) or the ones the table has. */
static void format_weights(const struct lease_request *r, bool wanted, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned n = 0; n < PARSE_MAX_NODES && used < len; n++) {
		unsigned w = r->want[n];

		if (!w || (!wanted && gw_read(n, &w) < 0))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%u:%u", used ? "," : "", n, w);
	}
}

/* An unprivileged job whose weights differ from the table's: one line that
 * says what it can do instead. */
static void __attribute__((noreturn)) needs_root(const struct lease_request *r, unsigned node)
{
	char have[256], want[256];
	unsigned cur = 0;

	(void)gw_read(node, &cur);
	format_weights(r, false, have, sizeof(have));
	format_weights(r, true, want, sizeof(want));
	if (!r->keep)
		errx(1, "changing global interleave weights needs root (node %u is %u, not %u)",
		     node, cur, r->want[node]);
	errx(1, "node %u has global weight %u, not %u, and only root can change it: ask for "
	     "the weights in effect (--weights=%s), check with --dry-run, or have an admin "
	     "run 'numactl2 --set-global-weights=%s'", node, cur, r->want[node], have, want);
}

static void __attribute__((noreturn)) leased(const struct lease_request *r,
					     const struct lease_conflict *c, unsigned waited_s)
{
	char pids[256];

	lease_format_pids(&c->who, pids, sizeof(pids));
	if (r->wait)
		errx(1, "gave up after waiting %u s: node %u weight %u is still leased by a running "
		     "job (PIDs %s); this needs weight %u there", waited_s, c->node, c->held, pids,
		     c->want);
	errx(1, "node %u weight %u is leased by a running job (PIDs %s); this needs weight %u "
	     "there: --wait to queue, --force to override", c->node, c->held, pids, c->want);
}

/* Every way lease_acquire() or a commit can fail, as one line, exit 1. */
void global_refused(const struct lease_request *r, int rc, const struct lease_conflict *c,
		    unsigned node)
{
	if (rc == -EBUSY)
		leased(r, c, r->wait_secs);
	if ((rc == -EACCES || rc == -EPERM) && r->want[node] <= WEIGHT_MAX)
		needs_root(r, node);
	global_failed(rc, node);
}

/* One line on stderr whenever the system-wide weights change. */
void global_report(const struct gw_txn *t)
{
	char what[512];

	gw_describe(t, what, sizeof(what));
	if (!what[0])
		return;
	warnx("changed global interleave weights: %s%s", what,
	      t->auto_before == GW_AUTO_ON ? "; kernel auto weights switched off" : "");
}

/* What --wait waited for and whom --force overrode, one line each. */
void global_lease_report(const struct lease *l)
{
	char pids[256];

	if (l->waited) {
		lease_format_pids(&l->waited_for.who, pids, sizeof(pids));
		warnx("waited %u.%u s for the lease on node %u (weight %u, PIDs %s)",
		      l->waited_ms / 1000, l->waited_ms % 1000 / 100, l->waited_for.node,
		      l->waited_for.held, pids);
	}
	for (unsigned i = 0; i < l->noverridden; i++) {
		lease_format_pids(&l->overridden[i].who, pids, sizeof(pids));
		warnx("--force: overrode the lease on node %u (weight %u, PIDs %s)",
		      l->overridden[i].node, l->overridden[i].held, pids);
	}
}

/* Takes what R asks for, then writes the weights and drops the locks: an
 * admin operation holds no lease. */
static int change(struct lease_request *r)
{
	static struct gw_txn t;
	static struct lease l;
	struct lease_conflict c;
	unsigned node = 0;
	int rc;

	need_table();
	r->keep = false;
	lease_init(&l);
	rc = lease_acquire(&l, &t, r, &c, &node);
	if (rc < 0)
		global_refused(r, rc, &c, node);
	rc = gw_commit(&t, &node);
	if (rc < 0) {
		lease_drop(&l);
		global_refused(r, rc, &c, node);
	}
	lease_drop(&l);
	gw_end(&t);
	global_lease_report(&l);
	global_report(&t);
	return 0;
}

int global_set(const struct weight_list *wl, struct lease_request *r)
{
	memset(r->want, 0, sizeof(r->want));
	for (unsigned n = 0; n <= wl->max_node; n++)
		r->want[n] = wl->weight[n];
	return change(r);
}

/* Every nodeN file there is, back to 1. */
int global_reset(struct lease_request *r)
{
	static bool has[PARSE_MAX_NODES];

	need_table();
	if (gw_nodes(has) < 0)
		err(1, "cannot read %s", gw_dir());
	for (unsigned n = 0; n < PARSE_MAX_NODES; n++)
		r->want[n] = has[n] ? 1 : 0;
	return change(r);
}

/* The kernel rewrites every node: each must be free of leases. */
static void auto_leases(struct lease_request *r, struct gw_txn *t, struct lease *l)
{
	static bool has[PARSE_MAX_NODES];
	struct lease_conflict c;
	unsigned node = 0;
	int rc;

	if (gw_nodes(has) < 0)
		err(1, "cannot read %s", gw_dir());
	for (unsigned n = 0; n < PARSE_MAX_NODES; n++)
		r->want[n] = has[n] ? LEASE_EXCLUSIVE : 0;
	r->keep = false;
	lease_init(l);
	rc = lease_acquire(l, t, r, &c, &node);
	if (rc < 0)
		global_refused(r, rc, &c, node);
}

int global_auto(struct lease_request *r)
{
	static struct gw_txn t;
	static struct lease l;
	int rc;

	need_table();
	if (gw_read_auto() == GW_AUTO_ABSENT)
		errx(1, "this kernel has no auto interleave weights (needs Linux 6.16 or later)");
	auto_leases(r, &t, &l);
	rc = gw_read_auto() == GW_AUTO_ON ? 0 : gw_enable_auto();
	if (rc < 0)
		lease_drop(&l);
	if (rc == -ENODEV)
		errx(1, "the platform reports no node bandwidth; the kernel cannot set weights from it");
	if (rc < 0) {
		errno = -rc;
		err(1, rc == -EACCES || rc == -EPERM ?
		       "changing global interleave weights needs root" : "cannot turn on auto weights");
	}
	global_lease_report(&l);
	warnx("global interleave weights are now set by the kernel from node bandwidth");
	lease_drop(&l);
	gw_end(&t);
	return 0;
}

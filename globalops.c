/* --set-global-weights, --reset-global-weights, --auto-global-weights:
 * managing the system-wide table without running anything. */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "globalops.h"

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

/* One line on stderr whenever the system-wide weights change. */
void global_report(const struct gw_txn *t)
{
	char what[512];

	gw_describe(t, what, sizeof(what));
	warnx("changed global interleave weights: %s%s", what,
	      t->auto_before == GW_AUTO_ON ? "; kernel auto weights switched off" : "");
}

static int commit_and_report(struct gw_txn *t)
{
	unsigned node = 0;
	int rc = gw_commit(t, &node);

	if (rc < 0)
		global_failed(rc, node);
	global_report(t);
	gw_end(t);
	return 0;
}

static void begin(struct gw_txn *t)
{
	int rc;

	need_table();
	rc = gw_begin(t);
	if (rc < 0) {
		errno = -rc;
		err(1, "cannot lock %s", gw_dir());
	}
}

int global_set(const struct weight_list *wl)
{
	static struct gw_txn t;

	begin(&t);
	for (unsigned n = 0; n <= wl->max_node; n++) {
		int rc;

		if (!wl->weight[n])
			continue;
		rc = gw_stage(&t, n, wl->weight[n]);
		if (rc < 0)
			global_failed(rc, n);
	}
	return commit_and_report(&t);
}

/* Every nodeN file there is, back to 1. */
int global_reset(void)
{
	static struct gw_txn t;
	static bool has[PARSE_MAX_NODES];

	begin(&t);
	if (gw_nodes(has) < 0)
		err(1, "cannot read %s", gw_dir());
	for (unsigned n = 0; n < PARSE_MAX_NODES; n++) {
		int rc = has[n] ? gw_stage(&t, n, 1) : 0;

		if (rc < 0)
			global_failed(rc, n);
	}
	return commit_and_report(&t);
}

int global_auto(void)
{
	static struct gw_txn t;
	int rc;

	begin(&t);
	if (gw_read_auto() == GW_AUTO_ABSENT)
		errx(1, "this kernel has no auto interleave weights (needs Linux 6.16 or later)");
	rc = gw_enable_auto();
	if (rc == -ENODEV)
		errx(1, "the platform reports no node bandwidth; the kernel cannot set weights from it");
	if (rc < 0) {
		errno = -rc;
		err(1, rc == -EACCES || rc == -EPERM ?
		       "changing global interleave weights needs root" : "cannot turn on auto weights");
	}
	warnx("global interleave weights are now set by the kernel from node bandwidth");
	gw_end(&t);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The one place that reports global weight changes, leases and failures:
 * for a job's weights, --set/--reset/--auto-global-weights (lib/weights/
 * admin.c) and --restore-weights (lib/weights/restore.c). */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/globalmsg.h"
#include "libnumactl2.h"
#include "msg/messages.h"

void global_leases_unlisted(void)
{
	errx(1, "cannot list the leases: out of memory");
}

/* What becomes of a job's change when the job ends. */
static void after_job(const struct gw_txn_said *t, char *buf, size_t len)
{
	buf[0] = '\0';
	/* A job's change whose baseline cannot be kept is refused before it
	 * is made (txn.c): a change said here goes back. */
	if (t->restores)
		snprintf(buf, len, "; all back as they were once the last job using them ends");
	else if (t->keep)
		snprintf(buf, len, "; kept after the job (--keep-weights)");
}

/* One line on stderr whenever the system-wide weights change. */
void global_report(const struct gw_txn_said *t)
{
	char after[600];

	if (!t->changed[0])
		return;
	after_job(t, after, sizeof(after));
	warnx("changed global interleave weights: %s%s%s", t->changed,
	      t->auto_was_on ? "; kernel auto weights switched off" : "", after);
}

/* The table put back as it was before the jobs that have ended changed it
 * (a run that takes the table's lock, or the watcher at a job's end), in
 * one line, when there is something to say (msg_settle()). */
void global_settle_report(const struct settle *s)
{
	char msg[MSG_MAX];

	if (msg_settle(msg, sizeof(msg), s))
		warnx("%s", msg);
}

/* What --wait waited for, whom --force overrode, and a lease that could not
 * be recorded, one line each. */
void global_lease_report(const struct lease_said *l)
{
	char pids[256];

	if (l->record_err)
		warnx("cannot record the lease in %s: %s; it holds only while the job keeps "
		      "the descriptors it inherited open", lib_place(LIB_RECORDS), strerror(-l->record_err));
	if (l->waited) {
		holders_format_pids(&l->waited_for.who, pids, sizeof(pids));
		warnx("waited %u.%u s for the lease on node %u (weight %u, PIDs %s)",
		      l->waited_ms / 1000, l->waited_ms % 1000 / 100, l->waited_for.node,
		      l->waited_for.held, pids);
	}
	for (unsigned i = 0; i < l->noverridden; i++) {
		holders_format_pids(&l->overridden[i].who, pids, sizeof(pids));
		warnx("--force: overrode the lease on node %u (weight %u, PIDs %s)",
		      l->overridden[i].node, l->overridden[i].held, pids);
	}
}

static void __attribute__((noreturn)) admin_failed(int rc, const struct admin_result *res)
{
	char msg[MSG_MAX];

	errno = -rc;
	switch (res->failed) {
	case ADMIN_NO_TABLE:
		errx(1, "this kernel has no global interleave weights (needs Linux 6.9 or later)");
	case ADMIN_NO_NODES:
		err(1, "cannot read %s", lib_place(LIB_TABLE));
	case ADMIN_NO_AUTO:
		errx(1, "this kernel has no auto interleave weights (needs Linux 6.16 or later)");
	case ADMIN_ENABLE_AUTO:
		if (rc == -ENODEV)
			errx(1, "the platform reports no node bandwidth; the kernel cannot set "
			     "weights from it");
		err(1, rc == -EACCES || rc == -EPERM ?
		       "changing global interleave weights needs root" : "cannot turn on auto weights");
	default:
		msg_global_refused(msg, sizeof(msg), &res->said, rc, &res->conflict, res->failed_node,
				   "--wait to queue, --force to override");
		errx(1, "%s", msg);
	}
}

/* --set/--reset-global-weights (or with AUTO_MODE --auto-global-weights):
 * what changed, or why nothing did (exit 1). Returns the exit status. */
int global_admin_report(int rc, const struct admin_result *res, bool auto_mode)
{
	global_settle_report(&res->said.settled);
	if (rc < 0)
		admin_failed(rc, res);
	global_lease_report(&res->said.lease);
	if (auto_mode)
		warnx("global interleave weights are now set by the kernel from node bandwidth");
	else
		global_report(&res->said);
	return 0;
}

static void restore_left(const struct restore_node *l)
{
	char pids[256];

	switch (l->outcome) {
	case RESTORE_LEFT_LEASED:
		holders_format_pids(&l->who, pids, sizeof(pids));
		warnx("left node %u at weight %u: another job leases it now (PIDs %s)", l->node,
		      l->weight, pids);
		break;
	case RESTORE_LEFT_CHANGED:
		warnx("left node %u at weight %u: changed since this run set %u", l->node, l->weight,
		      l->set);
		break;
	case RESTORE_STAGE_FAILED:
		errno = -l->err;
		warn("cannot put back the global interleave weight of node %u", l->node);
		break;
	}
}

/* --restore-weights: what went back, and each node left alone, with why. */
void global_restore_report(int rc, const struct restore_result *res)
{
	if (res->lock_err) {
		errno = -res->lock_err;
		warn("cannot put the global interleave weights back: cannot lock %s", lib_place(LIB_TABLE));
		return;
	}
	for (unsigned i = 0; i < res->nleft; i++)
		restore_left(&res->left[i]);
	if (res->commit_err) {
		errno = -res->commit_err;
		warn("cannot put back the global interleave weight of node %u (none put back)",
		     res->commit_failed_node);
	} else if (res->put_back[0]) {
		warnx("put back global interleave weights: %s", res->put_back);
	}
	if (res->auto_mode == RESTORE_AUTO_LEFT_OFF)
		warnx("left the kernel's auto weights off: node %u is leased", res->auto_leased_node);
	else if (res->auto_mode == RESTORE_AUTO_BACK_ON)
		warnx("turned the kernel's auto weights back on");
	if (rc < 0) {
		errno = -rc;
		warn("cannot put the global interleave weights back");
	}
}

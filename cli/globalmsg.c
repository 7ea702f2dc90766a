// SPDX-License-Identifier: GPL-2.0-or-later
/* The one place that reports global weight changes: for a job's weights,
 * --set/--reset/--auto-global-weights and --restore-weights, as the
 * table's owner (lib/owner) made them. */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/globalmsg.h"
#include "libnumactl2.h"
#include "msg/messages.h"
#include "msg/reqerror.h"

/* What becomes of a job's change when the job ends. */
static void after_job(const struct table_said *t, char *buf, size_t len)
{
	buf[0] = '\0';
	/* A job's change that cannot be saved is refused before it is made
	 * (lib/owner/grant.c): a change said here goes back. */
	if (t->restores)
		snprintf(buf, len, "; all back as they were once the last job using them ends");
	else if (t->keep)
		snprintf(buf, len, "; kept after the job (--keep-weights)");
}

/* One line on stderr whenever the system-wide weights change. */
void global_report(const struct table_said *t)
{
	char after[600], auto_off[MSG_MAX];

	if (!t->changed[0])
		return;
	after_job(t, after, sizeof(after));
	msg_auto_switched_off(auto_off, sizeof(auto_off), t);
	warnx("changed global interleave weights: %s%s%s", t->changed, auto_off, after);
}

/* Weights given over one node: the table is left as it is, said once. */
void global_one_node_report(const struct policy *p)
{
	char msg[MSG_MAX];

	msg_one_node(msg, sizeof(msg), p);
	warnx("%s", msg);
}

/* What the table's watcher could not do at the job's end, in one line,
 * when there is something to say (msg_settle()). */
void global_settle_report(const struct settle *s)
{
	char msg[MSG_MAX];

	if (msg_settle(msg, sizeof(msg), s))
		warnx("%s", msg);
}

/* --restore-weights: what went back before numactl2 returned, and each
 * node left as it is, with why. */
void global_restore_report(const struct job_end *end)
{
	if (end->put_back[0])
		warnx("put back global interleave weights: %s", end->put_back);
	if (end->left[0])
		warnx("left global interleave weights: %s", end->left);
}

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

/* One line on stderr whenever the system-wide weights change. */
void global_report(const struct table_said *t)
{
	char msg[MSG_MAX];

	if (msg_table_changed(msg, sizeof(msg), t))
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

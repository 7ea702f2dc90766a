/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one error value (struct nc2_error) as one line, for either front end. */
#ifndef NUMACTL2_MSG_REQERROR_H
#define NUMACTL2_MSG_REQERROR_H

#include <limits.h>
#include <stddef.h>

#include "libnumactl2.h"

/* Room for a message that names two paths (the program and its libnuma). */
#define REQ_MSG_MAX (2 * PATH_MAX + 512)

/* E in BUF, without the "numactl2: " prefix, every fault worded (the
 * switch has no default: -Wswitch makes an unworded fault a build error);
 * HINT is how the front end's user queues or overrides a lease. */
void msg_error(char *buf, size_t len, const struct nc2_error *e, const char *hint);

/* Which library a job's program starts with, and why it drops task-local
 * weights (the libnuma check's verdict: DROPS, BUILT_IN, UNREADABLE or
 * UNCHECKED); and the line a front end says when it takes the global path
 * for that reason. */
void msg_libnuma_drops(char *buf, size_t len, const struct libnuma_finding *f);
void msg_libnuma_global(char *buf, size_t len, const struct libnuma_finding *f);

/* What the table's owner could not put back at a job's end (its notice
 * promised the rest): false when there is nothing to say. */
bool msg_settle(char *buf, size_t len, const struct settle *s);

/* Why the plan leaves the run's weights where it does, when a user must
 * know it before the run: the program's libnuma sends them to the global
 * table, or one node needs none. False when there is nothing to say. */
bool msg_plan_notice(char *buf, size_t len, const struct plan *pl, const struct policy *p);

#endif

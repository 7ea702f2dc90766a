/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A request's error (lib/request) as one line, for either front end. */
#ifndef NUMACTL2_MSG_REQERROR_H
#define NUMACTL2_MSG_REQERROR_H

#include <limits.h>
#include <stddef.h>

#include "libnumactl2.h"

/* Room for a message that names two paths (the program and its libnuma). */
#define REQ_MSG_MAX (2 * PATH_MAX + 512)

/* E in BUF; PL is the plan it came from (the program, the table's change);
 * REMEDY is how the front end's user queues or overrides a lease. */
void msg_request_error(char *buf, size_t len, const struct request_error *e,
		       const struct plan *pl, const char *remedy);

#endif

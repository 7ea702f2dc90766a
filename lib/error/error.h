/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one error value (struct nc2_error) as the library sees it: its
 * fields, and the setters a call that fails fills it with. The front ends
 * see only the accessors of libnumactl2.h. */
#ifndef NUMACTL2_ERROR_H
#define NUMACTL2_ERROR_H

#include "libnumactl2.h"

struct nc2_error {
	enum nc2_fault fault;
	int err;			/* positive errno, or 0 */
	unsigned node, value, count;
	int mode;
	pid_t thread;
	const char *name, *call, *option;
	const struct libnuma_finding *libnuma;
	/* Read only for the faults that fill them. */
	struct parse_err parse;		/* REQ_WEIGHT_LIST */
	char libnuma_said[256];		/* REQ_NODE_LIST */
	struct table_said table;	/* REQ_GLOBAL_REFUSED */
	struct owner_refused owner;	/* REQ_OWNER */
	struct migrate_result moved;	/* PID_MOVE */
};

/* E's fault and the system's errno (either sign, 0: none); the rest of
 * what E names is kept. Returns -1, for "return error_set(...)". */
int error_set(struct nc2_error *e, enum nc2_fault fault, int err);
/* The same, with what the fault names. */
int error_set_node(struct nc2_error *e, enum nc2_fault fault, int err, unsigned node);
int error_set_name(struct nc2_error *e, enum nc2_fault fault, int err, const char *name);
int error_set_call(struct nc2_error *e, const char *call, int err);
/* E back to NC2_OK, with nothing named (the payloads are not zeroed). */
void error_clear(struct nc2_error *e);

#endif

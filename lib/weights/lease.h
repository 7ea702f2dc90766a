/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Leases on global weights: a job that runs under the kernel's global table
 * keeps the weights of its nodes for as long as it runs (a record of its PID
 * and start time), or a process it forked keeps the lease descriptor open.
 * The design and its limits are described in lease.c. */
#ifndef NUMACTL2_LEASE_H
#define NUMACTL2_LEASE_H

#include <stdbool.h>
#include <stdint.h>

#include "libnumactl2.h"
#include "weights/holders.h"
#include "weights/record.h"

/* What a run asks of one node. */
enum lease_want {
	LEASE_NOT_ASKED,
	LEASE_WEIGHT,		/* this weight (lease_ask.weight) */
	LEASE_AS_IS,		/* whatever weight it has now (-w without --weights) */
	LEASE_EXCLUSIVE,	/* free of leases; nothing is written (the kernel writes:
				 * --auto-global-weights) */
};

struct lease_ask {
	enum lease_want kind;
	uint8_t weight;		/* for LEASE_WEIGHT: 1-255 */
};

/* One run's leases and what it learnt taking them. */
struct lease {
	unsigned nnodes;		/* fd[] has room for that many */
	unsigned span;			/* fd[0..span-1] are set */
	int *fd;			/* nodeN, read-only and inherited; -1: none */
	char (*record)[RECORD_NAME_MAX];	/* node N's lease record, made by
					 * this run; "": none */
	bool *overrode;			/* --force wrote over node N's lease */
	struct lease_said said;
};

int lease_init(struct lease *l, unsigned nnodes);
void lease_free(struct lease *l);
int lease_node(struct lease *l, unsigned node, struct lease_ask ask, bool force,
	       struct lease_conflict *c, unsigned *held);
int lease_name_overridden(struct lease *l);
void lease_keep(struct lease *l);
void lease_clear_overridden(const struct lease *l);
void lease_drop(struct lease *l);
bool lease_try_exclusive(unsigned node, struct lease_conflict *c);

#endif

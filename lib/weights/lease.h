/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Leases on global weights: a job that runs under the kernel's global table
 * keeps the weights of its nodes for as long as it runs (a record of its PID
 * and start time), or a process it forked keeps the lease descriptor open.
 * The design and its limits are described in lease.c. */
#ifndef NUMACTL2_LEASE_H
#define NUMACTL2_LEASE_H

#include <stdbool.h>
#include <stdint.h>

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

/* A node a live lease holds at another weight than the one asked for. */
struct lease_conflict {
	unsigned node, held, want;
	struct lease_holders who;
};

/* How a run treats the leases of others. */
struct lease_options {
	bool force;			/* --force: write over live leases */
	bool wait;			/* --wait: poll until the leases are gone */
	unsigned wait_secs;		/* 0: no limit */
};

#define LEASE_MAX_OVERRIDDEN 8

/* What a run's leases did, as its notices say it: a value, which the
 * front ends get a copy of (gw_txn_say()) and not the descriptors. */
struct lease_said {
	int record_err;			/* 0, or why lease_keep() could not record
					 * a lease: it then lasts only while a
					 * descriptor stays open */
	bool waited;			/* --wait found a lease in the way */
	unsigned waited_ms;		/* and waited this long */
	struct lease_conflict waited_for;	/* the last lease it waited for */
	unsigned noverridden;		/* --force: the leases written over */
	struct lease_conflict overridden[LEASE_MAX_OVERRIDDEN];
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

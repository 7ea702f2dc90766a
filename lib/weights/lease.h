/* Leases on global weights: a job that runs under the kernel's global table
 * keeps the weights of its nodes for as long as it, or a process it forked,
 * lives. The design and its limits are described in lease.c. */
#ifndef NUMACTL2_LEASE_H
#define NUMACTL2_LEASE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "weights/table.h"
#include "parse.h"

#define LEASE_MAX_PIDS 16
/* want[] value: lease the node at whatever weight it has now (-w without --weights). */
#define LEASE_AS_IS 0x100
/* want[] value: the node must be free of leases; nothing is written to it
 * (--auto-global-weights, where the kernel writes). */
#define LEASE_EXCLUSIVE 0x200

/* The live processes that hold a node's lease. */
struct lease_holders {
	unsigned count;			/* may exceed LEASE_MAX_PIDS; only that many are kept */
	pid_t pid[LEASE_MAX_PIDS];
};

/* A node a live lease holds at another weight than the one asked for. */
struct lease_conflict {
	unsigned node, held, want;
	struct lease_holders who;
};

/* What one run asks of the table. */
struct lease_request {
	uint16_t want[PARSE_MAX_NODES];	/* 0: not asked; 1-255; or LEASE_AS_IS */
	bool keep;			/* a job: hold the leases after the change */
	bool force;			/* --force: write over live leases */
	bool wait;			/* --wait: poll until the leases are gone */
	unsigned wait_secs;		/* 0: no limit */
};

#define LEASE_MAX_OVERRIDDEN 8

/* One run's leases and what it learnt taking them. */
struct lease {
	int fd[PARSE_MAX_NODES];	/* nodeN, read-only and inherited; -1: none */
	bool waited;			/* --wait found a lease in the way */
	unsigned waited_ms;		/* and waited this long */
	struct lease_conflict waited_for;	/* the last lease it waited for */
	unsigned noverridden;		/* --force: the leases written over */
	struct lease_conflict overridden[LEASE_MAX_OVERRIDDEN];
};

void lease_init(struct lease *l);
int lease_acquire(struct lease *l, struct gw_txn *t, const struct lease_request *r,
		  struct lease_conflict *c, unsigned *failed_node);
void lease_keep(struct lease *l);
void lease_drop(struct lease *l);
bool lease_try_exclusive(unsigned node, struct lease_conflict *c);
int lease_holders_all(struct lease_holders who[PARSE_MAX_NODES], const bool has[PARSE_MAX_NODES]);
void lease_format_pids(const struct lease_holders *who, char *buf, size_t len);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table owner's wire (numactl2d, docs/service.md): one ask and its
 * answers as SOCK_SEQPACKET messages on a Unix socket. A lease or a release
 * carries the job's pidfd as SCM_RIGHTS. Fixed sizes and a version, and the
 * receiver checks every field: either side may be hostile. */
#ifndef NUMACTL2_OWNER_WIRE_H
#define NUMACTL2_OWNER_WIRE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bandwidth/hmat.h"
#include "libnumactl2.h"

#define OWNER_WIRE_VERSION 2
#define OWNER_NODES PARSE_MAX_NODES

enum owner_op {
	OWNER_LEASE = 1,	/* hold these weights for the job (pidfd) */
	OWNER_RELEASE,		/* the job (pidfd) has ended: put back, then answer */
	OWNER_LIST,		/* the holders, one answer each, then OWNER_END */
	OWNER_ROWS,		/* HMAT's bandwidths, read by root: struct owner_rows */
	OWNER_AUTO,		/* root: the kernel's auto weights back on, nothing held */
};

/* owner_ask.flags */
#define OWNER_KEEP 1u		/* root: the change stays after the job */
#define OWNER_AS_IS 2u		/* the asked nodes (weight[] != 0) as they are now */
#define OWNER_FORCE 4u		/* root: over other jobs' weights (they hold the new ones) */
#define OWNER_NO_WRITE 8u	/* --no-global-weights: the table must hold them already */
#define OWNER_DRY 16u		/* --dry-run: the verdict, nothing held or written */
#define OWNER_NO_JOB 32u	/* root, with OWNER_KEEP: no job holds the change (the
				 * admin options): the asker ends at once, and a hold
				 * of its own would refuse a run beside it */
#define OWNER_FLAGS (OWNER_KEEP | OWNER_AS_IS | OWNER_FORCE | OWNER_NO_WRITE | OWNER_DRY | \
		     OWNER_NO_JOB)

struct owner_ask {
	uint32_t version;
	uint32_t op;
	uint32_t flags;
	uint32_t wait_ms;		/* how long a conflicting holder is waited for */
	uint32_t pid;			/* OWNER_RELEASE: the job that asked for the lease */
	uint8_t weight[OWNER_NODES];	/* 0: the node is not asked */
};

enum owner_verdict {
	OWNER_GRANTED,		/* held; was[] and now[] say what changed */
	OWNER_RELEASED,		/* the job's weights are back; now[] is the table,
				 * text what could not be put back ("": none) */
	OWNER_HOLDER,		/* one holder of OWNER_LIST: pid, uid, text = comm */
	OWNER_END,		/* the last answer of OWNER_LIST */
	OWNER_REFUSED,		/* the admin's rules: text is the rule, node the node */
	OWNER_CONFLICT,		/* node held by pid/uid with weight was[node] */
	OWNER_LIMIT,		/* a per-user or total limit: text names it */
	OWNER_BAD_ASK,		/* malformed, or a node without a weight file */
	OWNER_UNSAVED,		/* the state could not be saved: nothing changed */
	OWNER_WRITE_FAILED,	/* the table refused node: every write undone */
	OWNER_NOT_HOLDER,	/* release: that job holds nothing of this user's */
	OWNER_BUSY,		/* the service is shutting down or overloaded */
	OWNER_WOULD_WRITE,	/* OWNER_NO_WRITE, and node holds another weight (was) */
	OWNER_AUTO_LOST,	/* the change would turn the kernel's auto weights off until
				 * reboot (no node has access0 bandwidth): text says so */
};

/* owner_answer.auto_off: what the change (OWNER_GRANTED), or the undo of a
 * write that failed (OWNER_WRITE_FAILED), did to the kernel's auto weights. */
enum owner_auto_off {
	OWNER_AUTO_UNTOUCHED,		/* as they were */
	OWNER_AUTO_SWITCHED_OFF,	/* off (a failed undo: err says why they stay so) */
	OWNER_AUTO_OFF_UNTIL_REBOOT,	/* off, and Linux cannot turn them back on */
};

struct owner_answer {
	uint32_t version;
	uint32_t verdict;
	int32_t err;			/* errno where the system failed */
	uint32_t node;			/* the node concerned */
	uint32_t pid;			/* a conflict's holder or a listed one */
	uint32_t uid;
	uint32_t auto_off;		/* enum owner_auto_off */
	uint8_t was[OWNER_NODES];	/* the table before, or a holder's weights */
	uint8_t now[OWNER_NODES];	/* the table after */
	char text[200];
};

/* OWNER_ROWS' one answer: HMAT's initiator x target matrix, which only root
 * can read, for a user's --weights=auto (OWNER_GRANTED, or OWNER_BUSY with
 * err as the service's hmat_read() failed). */
struct owner_rows {
	uint32_t version;
	uint32_t verdict;
	int32_t err;
	struct hmat_rows rows;		/* both ends are one build: one layout */
};

int owner_send(int fd, const void *msg, unsigned len, int pass_fd);
int owner_recv(int fd, void *msg, unsigned len, int *passed_fd);
bool owner_ask_valid(const struct owner_ask *a);
bool owner_answer_valid(const struct owner_answer *a);

/* The client's side (ask.c). */
const char *owner_socket_path(void);
bool owner_listening(void);
int owner_call(const struct owner_ask *k, int pidfd, int timeout_ms, struct owner_answer *a);
int owner_rows_read(int timeout_ms, struct owner_rows *r);
int owner_list(int timeout_ms, void (*each)(const struct owner_answer *a, void *arg), void *arg);
/* How long a client waits for an answer that needs no waiting (listprint.c). */
#define OWNER_ASK_TIMEOUT_MS 4000
int owner_each_holder(void (*each)(const struct owner_answer *a, void *arg), void *arg);
int owner_print_holders(FILE *out, bool json);

#endif

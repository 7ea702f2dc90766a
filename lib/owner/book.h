/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The owner's book: the global table as the service found it, and who
 * holds which weights now. It lives in the service's memory (and in its
 * state file, state.c); nothing any other user can open, lock or fill. */
#ifndef NUMACTL2_OWNER_BOOK_H
#define NUMACTL2_OWNER_BOOK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* A node a grant holds, at a weight. */
struct grant_hold {
	uint16_t node;
	uint8_t weight;
};

/* One job's hold on weights: until its pidfd says it has ended. Its nodes
 * are a list, not an array of every node the machine may have: a grant
 * costs what it holds, and so does each walk over the grants. */
struct grant {
	int pidfd;
	pid_t pid;
	uid_t uid;
	unsigned long long start;	/* the job's start time, as /proc/PID/stat says */
	char comm[16];
	struct grant_hold *hold;	/* the nodes held, in node order (book_add()) */
	unsigned nholds;
	/* Its line in the state file, made by the first save that has it
	 * (state.c) and dropped when its holds change: NULL until then. */
	char *line;
	size_t linelen;
};

struct owner_book {
	unsigned count;			/* nodes a per-node array reaches */
	bool *has;			/* the node has a weight file */
	unsigned *holders;		/* grants that hold the node */
	uint8_t *held;			/* their weight for it */
	uint8_t *base;			/* its weight before the owner changed it */
	bool *changed;			/* the owner wrote it: it goes back to base */
	int base_auto;			/* the auto switch before the first change (enum gw_auto) */
	struct grant **grant;
	unsigned ngrants, cap;
};

/* What one ask would do to the table. */
struct book_plan {
	bool *changes;			/* per node: its weight is written */
	uint8_t *was;			/* the table before, per asked node */
	uint8_t *want;			/* the weights asked, AS_IS ones read */
	uint8_t *held;			/* the asker's other jobs' (book_user_weights()) */
};

int book_init(struct owner_book *b);
void book_free(struct owner_book *b);
int book_plan_alloc(const struct owner_book *b, struct book_plan *p);
void book_plan_free(struct book_plan *p);
int book_conflict(const struct owner_book *b, const uint8_t *ask, unsigned *node,
		  const struct grant **holder);
unsigned book_override(struct owner_book *b, const uint8_t *ask);
int book_plan(const struct owner_book *b, const uint8_t *ask, bool as_is, bool force,
	      struct book_plan *p, unsigned *node);
void book_stage(struct owner_book *b, const struct book_plan *p, bool keep);
int book_write(const struct owner_book *b, const struct book_plan *p, unsigned *node);
int book_add(struct owner_book *b, struct grant *g, const uint8_t *weight);
unsigned book_hold_as(struct owner_book *b, unsigned node, uint8_t w);
uint8_t grant_weight(const struct grant *g, unsigned node);
void grant_free(struct grant *g);
unsigned book_user_grants(const struct owner_book *b, uid_t uid);
void book_user_weights(const struct owner_book *b, uid_t uid, uint8_t *held);
int book_find(const struct owner_book *b, pid_t pid);
struct book_putback {
	unsigned written, failed;	/* nodes put back, and those that failed */
	int auto_err;			/* 1: auto back on; -errno: it stays off; 0: not asked */
	/* What could not be put back, exactly: "node 0 stays 5 (not back to
	 * 1: Operation not permitted); the kernel's auto weights stay off
	 * ..." ("": everything due is back). */
	char stays[400];
};
struct grant *book_remove(struct owner_book *b, unsigned i);
bool book_any_changed(const struct owner_book *b);
int book_index(const struct owner_book *b, const struct grant *g);
void book_settle(struct owner_book *b, struct book_putback *out);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The threads of a traced job, so that its process is reported once: at
 * the exit-stop of its last thread. */
#ifndef NUMACTL2_TRACEES_H
#define NUMACTL2_TRACEES_H

#include <stdbool.h>
#include <sys/types.h>

struct tracee {
	pid_t tid;
	pid_t tgid;		/* its process */
	bool exited;		/* its exit-stop was seen */
};

struct tracees {
	struct tracee *t;
	size_t n, size;
};

/* The entry of tid, or NULL. */
struct tracee *tracees_find(struct tracees *ts, pid_t tid);

/* Adds tid (its process read from /proc/TID/status; tid itself when that
 * fails) unless it is there; NULL without memory. */
struct tracee *tracees_add(struct tracees *ts, pid_t tid);

void tracees_remove(struct tracees *ts, pid_t tid);

/* Whether no other thread of tgid is still short of its exit-stop. */
bool tracees_last_thread(const struct tracees *ts, pid_t tgid);

void tracees_free(struct tracees *ts);

#endif

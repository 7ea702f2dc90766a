/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What lease records are checked against: a process's start time, state,
 * user and parent from /proc/PID/stat, read once per PID and run
 * (procfacts.c). */
#ifndef NUMACTL2_PROCFACTS_H
#define NUMACTL2_PROCFACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum proc_state {
	PROC_RUNS,		/* the facts below hold */
	PROC_GONE,		/* no such process, or a zombie whose threads have ended */
	PROC_UNKNOWN,		/* it exists, but /proc/PID/stat cannot be read (hidepid) */
};

struct proc_facts {
	pid_t pid;		/* 0: an empty slot */
	enum proc_state state;
	bool kthread;
	uid_t uid;		/* owner of /proc/PID: its effective user, or root */
	pid_t ppid;
	unsigned long long start;	/* clock ticks after boot */
};

/* The facts of the PIDs looked up so far: an open-addressed table. */
struct proc_cache {
	size_t size, used;	/* size: 0 or a power of two */
	struct proc_facts *slot;
};

const struct proc_facts *proc_facts(struct proc_cache *c, pid_t pid);
void proc_cache_free(struct proc_cache *c);

#endif

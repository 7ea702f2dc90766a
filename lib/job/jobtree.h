/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the job started, for --report: every descendant of the job's own
 * process, found through /proc/PID/task/TID/children and its numa_maps
 * read at each sample, the last sample of each process kept once it has
 * gone. The job's children are not traced (strace -f and gdb trace them),
 * so a process that lived less than a sample period may be missed. */
#ifndef NUMACTL2_JOBTREE_H
#define NUMACTL2_JOBTREE_H

#include <sys/types.h>

#include "job/numamaps.h"

/* At most this many processes are kept, and looked at in one sample. */
#define JOBTREE_MAX 4096

struct jobtree_proc {
	pid_t pid;
	unsigned long long start;	/* /proc/PID/stat's: the same PID, another process */
	char name[32];			/* /proc/PID/comm at its last sample */
	struct placement pl;		/* its last sample that held pages */
};

/* Starts zeroed; jobtree_free() lets it go. */
struct jobtree {
	struct jobtree_proc *p;
	unsigned n, size;
};

/* Reads the numa_maps of every descendant of job now; one that cannot be
 * read, or that holds no pages (its address space gone), keeps its last
 * sample. 0 or -ENOMEM. */
int jobtree_sample(struct jobtree *t, pid_t job);

void jobtree_free(struct jobtree *t);

#endif

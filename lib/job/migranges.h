/* SPDX-License-Identifier: GPL-2.0-or-later */
/* numactl2 --pid --migrate: which of a process's memory is moved. Its
 * private anonymous mappings (heap, stack, anonymous mmaps) that hold
 * pages and follow the task's policy: a mapping whose numa_maps policy
 * differs from the task's has one of its own (mbind) and is left alone. */
#ifndef NUMACTL2_MIGRANGES_H
#define NUMACTL2_MIGRANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "policy/mpol2.h"

struct mig_range {
	unsigned long start, end;	/* [start, end) */
	bool huge;			/* has transparent huge pages (smaps' AnonHugePages) */
};

/* Ascending; migranges_free() lets them go. */
struct mig_ranges {
	struct mig_range *r;
	unsigned n;
	unsigned own_policy;	/* private anonymous mappings left alone: a policy of their own */
};

/* A /proc/PID/maps line: true, with its range, for a private anonymous
 * mapping (no file; unnamed, [heap], [stack] or [anon:NAME]), not for a
 * file, shared memory or the kernel's [vvar], [vdso], [vsyscall]. Pure. */
bool migranges_maps_line(const char *line, struct mig_range *r);

/* The policy S as numa_maps prints it (mpol_to_str, then " weights=..."
 * when it has weights of its own) into BUF; 0, or -ENAMETOOLONG. Pure. */
int migranges_policy_text(const struct mpol2_state *s, char *buf, size_t len);

/* What a /proc/PID/numa_maps line says of its mapping. */
enum mig_line {
	MIG_SKIP,	/* no pages (or not a numa_maps line) */
	MIG_TASK,	/* pages, and the task's policy (POLICY) */
	MIG_OWN,	/* pages, and a policy of its own */
};

/* The mapping of a numa_maps line, its start into *START; POLICY is the
 * task's (migranges_policy_text). Pure. */
enum mig_line migranges_numamaps_line(const char *line, const char *policy, unsigned long *start);

/* The ranges of PID to move (from /proc/PID/smaps: maps' lines, each
 * mapping's AnonHugePages after its own), TASK being its policy read at the
 * same time (get_mempolicy2); 0 or -errno (-ENOENT or -ESRCH: the process
 * is gone). */
int migranges_read(pid_t pid, const struct mpol2_state *task, struct mig_ranges *out);

void migranges_free(struct mig_ranges *r);

#endif

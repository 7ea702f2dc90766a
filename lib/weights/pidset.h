/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A set of PIDs of any size (pidset.c): the holders of one node's lease. */
#ifndef NUMACTL2_PIDSET_H
#define NUMACTL2_PIDSET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct pidset {
	size_t count, room;
	size_t sorted;		/* pid[0..sorted-1] are sorted and unique */
	pid_t *pid;
};

int pidset_add(struct pidset *s, pid_t pid);
void pidset_sort(struct pidset *s);
bool pidset_has(const struct pidset *s, pid_t pid);
void pidset_free(struct pidset *s);

#endif

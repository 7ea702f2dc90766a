/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Lease records: the process that holds a lease, by PID and start time, in
 * a file of its own beside the flock() (record.c; the design is in lease.c). */
#ifndef NUMACTL2_RECORD_H
#define NUMACTL2_RECORD_H

#include <sys/types.h>

/* "The process PID, started START clock ticks after boot, holds the lease on
 * the weight file DEV:INO." */
struct lease_record {
	dev_t dev;
	ino_t ino;
	pid_t pid;
	unsigned long long start;
};

typedef void record_fn(const struct lease_record *r, void *arg);

const char *record_dir(void);
int record_make(int fd);
void record_remove(int fd);
void record_scan(record_fn *fn, void *arg);

#endif

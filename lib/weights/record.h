/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Lease records: the process that holds a lease, by PID and start time, in
 * a file of its own beside the flock() (record.c; the design is in lease.c). */
#ifndef NUMACTL2_RECORD_H
#define NUMACTL2_RECORD_H

#include <stdbool.h>
#include <sys/types.h>

/* "numactl2-lease." DEV INO PID START and a random part, with dots. */
#define RECORD_NAME_MAX 112

/* "The process PID, started START clock ticks after boot, holds the lease on
 * the weight file DEV:INO." */
struct lease_record {
	dev_t dev;
	ino_t ino;
	pid_t pid;
	unsigned long long start;
	bool this_run;		/* PID is the process that reads it, or the
				 * numactl2 it runs under: never another job */
};

typedef void record_fn(const struct lease_record *r, void *arg);
typedef bool record_known_fn(const struct lease_record *r, void *arg);

const char *record_dir(void);
int record_make(int fd, char name[RECORD_NAME_MAX]);
void record_remove(const char *name);
void record_scan(record_known_fn *known, record_fn *fn, void *arg);
void record_clear(int fd);

#endif

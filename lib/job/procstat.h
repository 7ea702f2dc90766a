/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the job's watcher reads of a process in /proc: its stat line's state,
 * start time and exit code, its name, and its children. */
#ifndef NUMACTL2_PROCSTAT_H
#define NUMACTL2_PROCSTAT_H

#include <stddef.h>
#include <sys/types.h>

/* "State" (field 3), the start time (22, which tells a process from one
 * that got its PID since) and "exit_code" (52, wait(2)'s format, Linux 3.5)
 * of /proc/PID/stat; 0 or -errno. */
int proc_stat_read(pid_t pid, char *state, unsigned long long *start, int *exit_code);

/* /proc/PID/comm, or "?" once it is gone. */
void proc_comm_read(pid_t pid, char *name, size_t size);

/* Calls each(child, arg) (each may be NULL) for every child of every task
 * of process pid (/proc/PID/task/TID/children); returns how many there were.
 * A task that has just exited may still list the children it passes on. */
unsigned proc_children(pid_t pid, void (*each)(pid_t child, void *arg), void *arg);

#endif

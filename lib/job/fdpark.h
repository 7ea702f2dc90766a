/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Descriptors kept by a process without being among its open descriptors:
 * in flight on a socket it holds (SCM_RIGHTS), so that /proc/PID/fd and
 * fdinfo do not show them, while the open file descriptions (and the flock
 * locks on them) stay as they are. The watcher keeps the job's lease
 * descriptors so: it is not named as a holder, and can end the lease lock
 * the job's children share when the job ends. */
#ifndef NUMACTL2_FDPARK_H
#define NUMACTL2_FDPARK_H

/* Sends each of the n descriptors fd[] that is not -1 onto a new socket
 * and closes it there; returns that socket, or -errno (nothing closed). */
int fd_park(const int *fd, unsigned n);

/* Takes them back from the socket park, in the order given, into fd[]
 * (each that was parked, -1 for the others); closes park. 0 or -errno. */
int fd_unpark(int park, int *fd, unsigned n);

#endif

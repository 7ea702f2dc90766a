/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The jobs that hold weights, known by their pidfds: a grant made for a
 * pidfd a client passed, or for a PID a restarted service read back. */
#ifndef NUMACTL2_OWNER_JOBS_H
#define NUMACTL2_OWNER_JOBS_H

#include <stddef.h>
#include <sys/types.h>

#include "owner/book.h"

/* The PID a pidfd names, or -ESRCH once it has ended, or -errno. */
pid_t pidfd_pid(int pidfd);
int grant_for_pidfd(int pidfd, struct grant **out);
int grant_new(pid_t pid, struct grant **out);
int grant_keep(struct owner_book *b, struct grant *g, const uint8_t *weight);
void grant_name_now(const struct grant *g, char *out, size_t len);

#endif

// SPDX-License-Identifier: GPL-2.0-or-later
/* numactl2 --pid: another process's policy through its pidfd.
 *
 * The kernel series lets set_mempolicy2 and get_mempolicy2 act on the task
 * of args->pidfd (a process's pidfd names its main thread, a thread pidfd
 * that thread). A policy is per thread, so a process is retuned through a
 * thread pidfd of each of its threads (remote_set_threads). The new policy
 * is checked when the call is made and installed by the task itself, so
 * its next allocations follow it; the pages it has are not moved. The
 * numbers are those the kernel lists for this build's ABI (mpol2.c): a
 * kernel that lists none has neither call, and nothing is called. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policy/nodes.h"
#include "policy/remote.h"
#include "policy/threads.h"
#include "syscalls.h"
#include "uapi/mempolicy2_pidfd.h"

_Static_assert(sizeof(struct mpol_args_pidfd) == MPOL_ARGS_SIZE_VER2, "VER2");

#define LONG_BITS (8 * sizeof(unsigned long))

int remote_open(pid_t pid, bool thread)
{
	int fd = sys_pidfd_open(pid, thread ? PIDFD_THREAD : 0);

	return fd < 0 ? -errno : fd;
}

/* A node mask and weights of BITS + 1 entries each, as mpol2.c's calls
 * count them (pol_maxnodes one past the last bit, whichever way a kernel
 * counts), zeroed. */
struct remote_buffers {
	struct mpol_args_pidfd args;
	unsigned long *mask;
	uint8_t *weight;
};

static int buffers_alloc(struct remote_buffers *b, unsigned bits, int pidfd)
{
	memset(b, 0, sizeof(*b));
	b->mask = calloc(bits / LONG_BITS + 1, sizeof(*b->mask));
	b->weight = calloc(bits + 1, sizeof(*b->weight));
	if (!b->mask || !b->weight) {
		free(b->mask);
		free(b->weight);
		return -ENOMEM;
	}
	b->args.v1.pol_maxnodes = bits + 1;
	b->args.pidfd = pidfd;
	return 0;
}

static void buffers_free(struct remote_buffers *b)
{
	free(b->mask);
	free(b->weight);
}

int remote_set_policy(int pidfd, const struct policy *p)
{
	const struct mpol2_numbers *nr = mpol2_numbers();
	unsigned bits = p->nodes ? (unsigned)p->nodes->size : 0;
	struct remote_buffers b;
	int rc;

	if (!nr)
		return -ENOSYS;
	if (buffers_alloc(&b, bits, pidfd) < 0)
		return -ENOMEM;
	b.args.v1.mode = (__u16)p->mode;
	b.args.v1.mode_flags = (__u16)p->flags;
	for (int n = bits ? nodes_first(p->nodes) : -1; n >= 0;
	     n = nodes_next(p->nodes, (unsigned)n + 1)) {
		b.mask[(unsigned)n / LONG_BITS] |= 1UL << ((unsigned)n % LONG_BITS);
		b.weight[n] = (uint8_t)policy_weight(p, (unsigned)n);
	}
	if (bits)
		b.args.v1.pol_nodes = (uintptr_t)b.mask;
	if (p->has_weights)
		b.args.v1.il_weights = (uintptr_t)b.weight;
	/* The whole policy is replaced: without --home-node, -1 (none). */
	b.args.v1.home_node = p->home_node;
	rc = set_mempolicy2(nr->set, &b.args.v1, sizeof(b.args),
			    MPOL_MF_PIDFD | MPOL_MF_HOME_NODE) < 0 ? -errno : 0;
	buffers_free(&b);
	return rc;
}

/* threads_each's visit: P on the thread TID. */
static int set_thread(pid_t tid, const void *p)
{
	int fd = remote_open(tid, true);
	int rc;

	if (fd < 0)
		return fd;
	rc = remote_set_policy(fd, p);
	close(fd);
	return rc;
}

int remote_set_threads(pid_t pid, const struct policy *p, pid_t *failed)
{
	return threads_each(pid, pid, set_thread, p, failed);
}

int remote_get_policy(int pidfd, struct mpol2_state *s)
{
	const struct mpol2_numbers *nr = mpol2_numbers();
	unsigned bits = (unsigned)s->nodes->size;
	struct remote_buffers b;

	s->weight = NULL;
	if (!nr)
		return -ENOSYS;
	if (buffers_alloc(&b, bits, pidfd) < 0)
		return -ENOMEM;
	b.args.v1.pol_nodes = (uintptr_t)b.mask;
	b.args.v1.il_weights = (uintptr_t)b.weight;
	if (get_mempolicy2(nr->get, &b.args.v1, sizeof(b.args), 0, MPOL_F_PIDFD) < 0) {
		int rc = -errno;

		buffers_free(&b);
		return rc;
	}
	s->mode = b.args.v1.mode;
	s->mode_flags = b.args.v1.mode_flags;
	s->own_weights = mpol2_own_weights(b.weight, bits + 1);	/* all 0: the global table */
	s->home_node = b.args.v1.home_node;
	numa_bitmask_clearall(s->nodes);
	for (unsigned n = 0; n < bits; n++)
		if (b.mask[n / LONG_BITS] & (1UL << (n % LONG_BITS)))
			numa_bitmask_setbit(s->nodes, n);
	s->weight = b.weight;
	free(b.mask);
	return 0;
}

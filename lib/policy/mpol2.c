// SPDX-License-Identifier: GPL-2.0-or-later
/* set_mempolicy2/get_mempolicy2/mbind2 where the running kernel has them.
 *
 * Their numbers exist only on a kernel with the series, and on a stock
 * kernel the same numbers may be other calls (or come later). So a number
 * is used only when the kernel itself lists it by name, for this build's
 * ABI, in MPOL2_SYSCALLS_FILE, a sysfs file only the kernel series
 * creates. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "libnumactl2.h"
#include "policy/mpol2.h"
#include "syscalls.h"
#include "sysfile/sysfile.h"
#include "uapi/mempolicy2_pidfd.h"

/* The ABI this build calls the kernel with, as the kernel's list names it:
 * x86_64's three (one table, two ABIs, and the i386 table), elsewhere the
 * machine the kernel reports (its UTS_MACHINE). */
static const char *own_abi(void)
{
#if defined(__x86_64__) && defined(__ILP32__)
	return "x32";
#elif defined(__x86_64__)
	return "x86_64";
#elif defined(__i386__)
	return "i386";
#else
	/* The running kernel's machine, the same for every request of the
	 * process: asked once, by numbers(), the only caller. */
	static struct utsname u;

	return uname(&u) == 0 ? u.machine : "";
#endif
}

/* One "name abi number" line: the number into NR's slot for name when ABI
 * is the line's. Other names are calls of a later series: ignored. */
static bool parse_syscall_line(char *line, const char *abi, struct mpol2_numbers *nr)
{
	char *save = NULL;
	char *name = strtok_r(line, " ", &save);
	char *line_abi = strtok_r(NULL, " ", &save);
	char *num = strtok_r(NULL, " ", &save);
	unsigned long v;

	if (!name || !line_abi || !num || strtok_r(NULL, " ", &save) ||
	    nc2_parse_ulong(num, LONG_MAX, &v) < 0)
		return false;
	if (strcmp(line_abi, abi) != 0)
		return true;
	if (strcmp(name, "set_mempolicy2") == 0)
		nr->set = (long)v;
	else if (strcmp(name, "get_mempolicy2") == 0)
		nr->get = (long)v;
	else if (strcmp(name, "mbind2") == 0)
		nr->mbind = (long)v;
	return true;
}

bool mpol2_parse_syscalls(char *buf, const char *abi, struct mpol2_numbers *nr)
{
	char *save = NULL;

	*nr = (struct mpol2_numbers){ -1, -1, -1 };
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!parse_syscall_line(line, abi, nr)) {
			*nr = (struct mpol2_numbers){ -1, -1, -1 };
			return false;
		}
	return nr->set >= 0 && nr->get >= 0 && nr->mbind >= 0;
}

/* The running kernel's calls, read once for the process: a fact of the
 * kernel, not of a request, the same for every one. */
static const struct mpol2_numbers *numbers(void)
{
	static struct mpol2_numbers nr;
	static int known;	/* 0: not read yet, 1: present, -1: absent */
	char buf[4096];	/* a sysfs file's most */

	if (!known)
		known = sysfile_read_sysfs(MPOL2_SYSCALLS_FILE, buf, sizeof(buf)) == 0 &&
			mpol2_parse_syscalls(buf, own_abi(), &nr) ? 1 : -1;
	return known > 0 ? &nr : NULL;
}

bool nc2_mpol2_present(void)
{
	return numbers() != NULL;
}

/* The kernel's node mask is __u64 words, node n in bit n % 64 of word n / 64,
 * for 32-bit and 64-bit programs alike. */
#define WORD_BITS 64

_Static_assert(sizeof(struct mpol_args_pidfd) == MPOL_ARGS_SIZE_VER2, "VER2");

/* The call's buffers: pol_maxnodes follows set_mempolicy's maxnode (one past
 * the last bit), and both buffers hold that many entries (the mask in whole
 * __u64 words), zeroed past the mask, whichever way a kernel counts. The arguments are VER2's, with the
 * pidfd: the kernel reads it only with the pidfd flag and the VER2 size. */
struct mpol2_buffers {
	struct mpol_args_pidfd args;
	uint64_t *mask;
	uint8_t *weight;
};

static int buffers_alloc(struct mpol2_buffers *b, unsigned bits, int pidfd)
{
	memset(b, 0, sizeof(*b));
	b->mask = calloc(bits / WORD_BITS + 1, sizeof(*b->mask));
	b->weight = calloc(bits + 1, sizeof(*b->weight));
	if (!b->mask || !b->weight) {
		free(b->mask);
		free(b->weight);
		return -ENOMEM;
	}
	if (pidfd != MPOL2_SELF)
		b->args.pidfd = pidfd;
	return 0;
}

static void buffers_free(struct mpol2_buffers *b)
{
	free(b->mask);
	free(b->weight);
}

/* The calling task's calls pass VER1's arguments, another task's VER2's:
 * a kernel without the pidfd patch still takes the former. */
static size_t args_size(int pidfd)
{
	return pidfd == MPOL2_SELF ? sizeof(struct mpol_args) : sizeof(struct mpol_args_pidfd);
}

static int fill_args(struct mpol2_buffers *b, const struct policy *p, int pidfd)
{
	unsigned bits = p->nodes ? (unsigned)p->nodes->size : 0;

	if (buffers_alloc(b, bits, pidfd) < 0)
		return -ENOMEM;
	b->args.v1.mode = (__u16)p->mode;
	b->args.v1.mode_flags = (__u16)p->flags;
	b->args.v1.home_node = p->home_node;
	for (int n = bits ? nc2_nodes_first(p->nodes) : -1; n >= 0;
	     n = nc2_nodes_next(p->nodes, (unsigned)n + 1)) {
		b->mask[(unsigned)n / WORD_BITS] |= UINT64_C(1) << ((unsigned)n % WORD_BITS);
		b->weight[n] = (uint8_t)nc2_policy_weight(p, (unsigned)n);
	}
	b->args.v1.pol_maxnodes = bits ? bits + 1 : 0;
	b->args.v1.pol_nodes = bits ? (uintptr_t)b->mask : 0;
	if (p->has_weights)
		b->args.v1.il_weights = (uintptr_t)b->weight;
	return 0;
}

/* Only a call the kernel listed: without one (a test build's
 * NUMACTL2_TEST_TASK_LOCAL on a host kernel), ENOSYS; so for ranges.
 * Another task's whole policy is replaced (MPOL_MF_HOME_NODE): without
 * --home-node, its home node becomes -1 (none). */
int mpol2_set_task(int pidfd, const struct policy *p)
{
	unsigned flags = pidfd == MPOL2_SELF ? 0 : MPOL_MF_PIDFD | MPOL_MF_HOME_NODE;
	struct mpol2_buffers b;
	int rc;

	if (!numbers())
		return -ENOSYS;
	rc = fill_args(&b, p, pidfd);
	if (rc == 0 && set_mempolicy2(numbers()->set, &b.args.v1, args_size(pidfd), flags) < 0)
		rc = -errno;
	buffers_free(&b);
	return rc;
}

int mpol2_set_range(const struct policy *p, void *addr, unsigned long len, unsigned mbind_flags)
{
	struct mpol2_buffers b;
	int rc;

	if (!numbers())
		return -ENOSYS;
	rc = fill_args(&b, p, MPOL2_SELF);

	if (p->home_node >= 0)
		mbind_flags |= MPOL_MF_HOME_NODE;
	if (rc == 0 && mbind2(numbers()->mbind, addr, len, &b.args.v1, sizeof(b.args.v1), mbind_flags) < 0)
		rc = -errno;
	buffers_free(&b);
	return rc;
}

/* get_mempolicy2 returns all zeros for a policy that follows the global
 * table, and the policy's own weights (some nonzero) otherwise. */
bool mpol2_own_weights(const uint8_t *w, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (w[i])
			return true;
	return false;
}

/* S's weights array becomes the call's buffer, one entry for each bit of
 * S->nodes and a spare (s->weight stays NULL on failure). */
int mpol2_get_task(int pidfd, struct mpol2_state *s)
{
	unsigned flags = pidfd == MPOL2_SELF ? 0 : MPOL_F_PIDFD;
	unsigned bits = (unsigned)s->nodes->size;
	struct mpol2_buffers b;

	s->weight = NULL;
	if (!numbers())
		return -ENOSYS;
	if (buffers_alloc(&b, bits, pidfd) < 0)
		return -ENOMEM;
	b.args.v1.pol_maxnodes = bits + 1;
	b.args.v1.pol_nodes = (uintptr_t)b.mask;
	b.args.v1.il_weights = (uintptr_t)b.weight;
	if (get_mempolicy2(numbers()->get, &b.args.v1, args_size(pidfd), 0, flags) < 0) {
		int rc = -errno;

		buffers_free(&b);
		return rc;
	}
	s->mode = b.args.v1.mode;
	s->mode_flags = b.args.v1.mode_flags;
	/* all zero: the policy follows the global table */
	s->own_weights = mpol2_own_weights(b.weight, bits + 1);
	s->home_node = b.args.v1.home_node;
	numa_bitmask_clearall(s->nodes);
	for (unsigned n = 0; n < bits; n++)
		if (b.mask[n / WORD_BITS] & (UINT64_C(1) << (n % WORD_BITS)))
			numa_bitmask_setbit(s->nodes, n);
	s->weight = b.weight;
	free(b.mask);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* set_mempolicy2/get_mempolicy2/mbind2 where the running kernel has them.
 *
 * Their numbers exist only on a kernel with the series, and on a stock
 * kernel the same numbers may be other calls (or come later). So a number
 * is used only when the kernel itself lists it by name, for this build's
 * ABI, in MPOL2_SYSCALLS_FILE, a sysfs file only the kernel series
 * creates. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "policy/mpol2.h"
#include "policy/nodes.h"
#include "syscalls.h"

/* sysfs only: a file planted elsewhere must not choose a syscall number. */
static int read_syscall_list(char *buf, size_t len)
{
	struct statfs fs;
	ssize_t n;
	int fd = open(MPOL2_SYSCALLS_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstatfs(fd, &fs) < 0 || fs.f_type != SYSFS_MAGIC) {
		close(fd);
		return -EPERM;
	}
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

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
	    parse_ulong(num, LONG_MAX, &v) < 0)
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

static const struct mpol2_numbers *numbers(void)
{
	static struct mpol2_numbers nr;
	static int known;	/* 0: not read yet, 1: present, -1: absent */
	char buf[4096];	/* a sysfs file's most */

	if (!known)
		known = read_syscall_list(buf, sizeof(buf)) == 0 &&
			mpol2_parse_syscalls(buf, own_abi(), &nr) ? 1 : -1;
	return known > 0 ? &nr : NULL;
}

bool mpol2_present(void)
{
	return numbers() != NULL;
}

#define LONG_BITS (8 * sizeof(unsigned long))

/* The call's buffers: pol_maxnodes follows set_mempolicy's maxnode (one past
 * the last bit), and both buffers hold that many entries, zeroed past the
 * mask, whichever way a kernel counts. BITS is the node mask's size. */
struct mpol2_buffers {
	struct mpol_args args;
	unsigned long *mask;
	uint8_t *weight;
};

static int buffers_alloc(struct mpol2_buffers *b, unsigned bits)
{
	memset(b, 0, sizeof(*b));
	b->mask = calloc(bits / LONG_BITS + 1, sizeof(*b->mask));
	b->weight = calloc(bits + 1, sizeof(*b->weight));
	if (b->mask && b->weight)
		return 0;
	free(b->mask);
	free(b->weight);
	return -ENOMEM;
}

static void buffers_free(struct mpol2_buffers *b)
{
	free(b->mask);
	free(b->weight);
}

static int fill_args(struct mpol2_buffers *b, const struct policy *p)
{
	unsigned bits = p->nodes ? (unsigned)p->nodes->size : 0;

	if (buffers_alloc(b, bits) < 0)
		return -ENOMEM;
	b->args.mode = (__u16)p->mode;
	b->args.mode_flags = (__u16)p->flags;
	b->args.home_node = p->home_node;
	for (int n = bits ? nodes_first(p->nodes) : -1; n >= 0;
	     n = nodes_next(p->nodes, (unsigned)n + 1)) {
		b->mask[(unsigned)n / LONG_BITS] |= 1UL << ((unsigned)n % LONG_BITS);
		b->weight[n] = (uint8_t)policy_weight(p, (unsigned)n);
	}
	b->args.pol_maxnodes = bits ? bits + 1 : 0;
	b->args.pol_nodes = bits ? (uintptr_t)b->mask : 0;
	if (p->has_weights)
		b->args.il_weights = (uintptr_t)b->weight;
	return 0;
}

/* Only a call the kernel listed: without one (a test build's
 * NUMACTL2_TEST_TASK_LOCAL on a host kernel), ENOSYS; so for ranges. */
int mpol2_set_task(const struct policy *p)
{
	struct mpol2_buffers b;
	int rc;

	if (!numbers())
		return -ENOSYS;
	rc = fill_args(&b, p);

	if (rc == 0 && set_mempolicy2(numbers()->set, &b.args, sizeof(b.args), 0) < 0)
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
	rc = fill_args(&b, p);

	if (p->home_node >= 0)
		mbind_flags |= MPOL_MF_HOME_NODE;
	if (rc == 0 && mbind2(numbers()->mbind, addr, len, &b.args, sizeof(b.args), mbind_flags) < 0)
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
int mpol2_get_task(struct mpol2_state *s)
{
	struct mpol2_buffers b;
	unsigned bits = (unsigned)s->nodes->size;

	s->weight = NULL;
	if (buffers_alloc(&b, bits) < 0)
		return -ENOMEM;
	b.args.pol_maxnodes = bits + 1;
	b.args.pol_nodes = (uintptr_t)b.mask;
	b.args.il_weights = (uintptr_t)b.weight;
	if (get_mempolicy2(numbers()->get, &b.args, sizeof(b.args), 0, 0) < 0) {
		int rc = -errno;

		buffers_free(&b);
		return rc;
	}
	s->mode = b.args.mode;
	s->mode_flags = b.args.mode_flags;
	/* all zero: the policy follows the global table */
	s->own_weights = mpol2_own_weights(b.weight, bits + 1);
	s->home_node = b.args.home_node;
	numa_bitmask_clearall(s->nodes);
	for (unsigned n = 0; n < bits; n++)
		if (b.mask[n / LONG_BITS] & (1UL << (n % LONG_BITS)))
			numa_bitmask_setbit(s->nodes, n);
	s->weight = b.weight;
	free(b.mask);
	return 0;
}

const struct mpol2_numbers *mpol2_numbers(void)
{
	return numbers();
}

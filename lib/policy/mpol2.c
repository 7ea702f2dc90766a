/* set_mempolicy2/get_mempolicy2/mbind2 where the running kernel has them.
 *
 * Their numbers are the project's, and on a stock kernel the same numbers
 * may be other calls (457 is statmount on 6.12). So a number is used only
 * when the kernel itself lists it by name in MPOL2_SYSCALLS_FILE, a sysfs
 * file only the kernel series creates. */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "policy/mpol2.h"
#include "syscalls.h"

struct mpol2_numbers {
	long set, get, mbind;
};

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

/* "name number" lines; all three names must be there. */
static bool parse_syscall_list(char *buf, struct mpol2_numbers *nr)
{
	char *save = NULL;

	*nr = (struct mpol2_numbers){ -1, -1, -1 };
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long num;
		char *sp = strchr(line, ' ');

		if (!sp || parse_ulong(sp + 1, 4095, &num) < 0)
			return false;
		*sp = '\0';	/* the name, in place */
		if (strcmp(line, "set_mempolicy2") == 0)
			nr->set = (long)num;
		else if (strcmp(line, "get_mempolicy2") == 0)
			nr->get = (long)num;
		else if (strcmp(line, "mbind2") == 0)
			nr->mbind = (long)num;
	}
	return nr->set >= 0 && nr->get >= 0 && nr->mbind >= 0;
}

static const struct mpol2_numbers *numbers(void)
{
	static struct mpol2_numbers nr;
	static int known;	/* 0: not read yet, 1: present, -1: absent */
	char buf[256];

	if (!known)
		known = read_syscall_list(buf, sizeof(buf)) == 0 &&
			parse_syscall_list(buf, &nr) ? 1 : -1;
	return known > 0 ? &nr : NULL;
}

bool mpol2_present(void)
{
	return numbers() != NULL;
}

#define LONG_BITS (8 * sizeof(unsigned long))
#define MASK_LONGS (PARSE_MAX_NODES / LONG_BITS + 1)

/* The call's buffers: pol_maxnodes follows set_mempolicy's maxnode (one past
 * the last bit), and both buffers hold that many entries, zeroed past the
 * mask, whichever way a kernel counts. */
struct mpol2_buffers {
	struct mpol_args args;
	unsigned long mask[MASK_LONGS];
	uint8_t weight[PARSE_MAX_NODES + 1];
};

static void fill_args(struct mpol2_buffers *b, const struct policy *p)
{
	unsigned bits = p->nodes ? p->nodes->size : 0;

	memset(b, 0, sizeof(*b));
	if (bits > PARSE_MAX_NODES)
		bits = PARSE_MAX_NODES;
	b->args.mode = (__u16)p->mode;
	b->args.mode_flags = (__u16)p->flags;
	b->args.home_node = p->home_node;
	for (unsigned n = 0; n < bits; n++) {
		if (!numa_bitmask_isbitset(p->nodes, n))
			continue;
		b->mask[n / LONG_BITS] |= 1UL << (n % LONG_BITS);
		b->weight[n] = (uint8_t)weight_effective(p->weight[n]);
	}
	b->args.pol_maxnodes = bits ? bits + 1 : 0;
	b->args.pol_nodes = bits ? (uintptr_t)b->mask : 0;
	if (p->has_weights)
		b->args.il_weights = (uintptr_t)b->weight;
}

int mpol2_set_task(const struct policy *p)
{
	struct mpol2_buffers b;

	fill_args(&b, p);
	if (set_mempolicy2(numbers()->set, &b.args, sizeof(b.args), 0) < 0)
		return -errno;
	return 0;
}

int mpol2_set_range(const struct policy *p, void *addr, unsigned long len, unsigned mbind_flags)
{
	struct mpol2_buffers b;

	fill_args(&b, p);
	if (p->home_node >= 0)
		mbind_flags |= MPOL_MF_HOME_NODE;
	if (mbind2(numbers()->mbind, addr, len, &b.args, sizeof(b.args), mbind_flags) < 0)
		return -errno;
	return 0;
}

int mpol2_get_task(struct mpol2_state *s)
{
	struct mpol2_buffers b;
	unsigned bits = s->nodes->size < PARSE_MAX_NODES ? s->nodes->size : PARSE_MAX_NODES;

	memset(&b, 0, sizeof(b));
	b.args.pol_maxnodes = bits + 1;
	b.args.pol_nodes = (uintptr_t)b.mask;
	b.args.il_weights = (uintptr_t)b.weight;
	if (get_mempolicy2(numbers()->get, &b.args, sizeof(b.args), 0, 0) < 0)
		return -errno;
	s->mode = b.args.mode;
	s->own_weights = b.args.mode_flags & MPOL_F_TASK_WEIGHTS;
	s->home_node = b.args.home_node;
	numa_bitmask_clearall(s->nodes);
	for (unsigned n = 0; n < bits; n++) {
		if (b.mask[n / LONG_BITS] & (1UL << (n % LONG_BITS)))
			numa_bitmask_setbit(s->nodes, n);
		s->weight[n] = b.weight[n];
	}
	return 0;
}

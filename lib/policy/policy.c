// SPDX-License-Identifier: GPL-2.0-or-later
/* Setting a policy with the stock calls (set_mempolicy, mbind), or with
 * mpol2.c's when its weights are task-local; its weights' array; numactl's
 * names for the modes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "policy/mpol2.h"
#include "policy/policy.h"
#include "syscalls.h"

static const char *const policy_names[] = {
	"default", "preferred", "bind", "interleave", "local",
	"preferred-many", "weighted-interleave",
};

/* numactl's names, which --show prints and scripts match. */
struct policy_word nc2_policy_name(int mode)
{
	struct policy_word w;

	if (mode >= 0 && (size_t)mode < sizeof(policy_names) / sizeof(policy_names[0]))
		snprintf(w.s, sizeof(w.s), "%s", policy_names[mode]);
	else
		snprintf(w.s, sizeof(w.s), "[%d]", mode);
	return w;
}

/* The kernel wants maxnode one past the bits it reads. */
static unsigned long maxnode_of(const struct bitmask *nodes)
{
	return nodes ? nodes->size + 1 : 0;
}

static const unsigned long *mask_of(const struct bitmask *nodes)
{
	return nodes ? nodes->maskp : NULL;
}

/* One weight for each node the mask can hold (0: not given), all 0 to
 * start: the mask is P's nodes, set before any weight is. */
int policy_weights_alloc(struct policy *p)
{
	p->weight = calloc(p->nodes->size, sizeof(*p->weight));
	if (!p->weight)
		return -ENOMEM;
	p->nweights = (unsigned)p->nodes->size;
	return 0;
}

int policy_set_task(const struct policy *p)
{
	if (p->task_local)
		return mpol2_set_task(MPOL2_SELF, p);
	if (set_mempolicy(p->mode | (int)p->flags, mask_of(p->nodes), maxnode_of(p->nodes)) < 0)
		return -errno;
	return 0;
}

/* mbind2 sets the weights and the home node with the policy; on a stock
 * kernel the home node follows through set_mempolicy_home_node (5.17+). */
int policy_set_range(const struct policy *p, void *addr, unsigned long len, unsigned mbind_flags)
{
	if (p->task_local)
		return mpol2_set_range(p, addr, len, mbind_flags);
	if (mbind(addr, len, p->mode | (int)p->flags, mask_of(p->nodes),
		  maxnode_of(p->nodes), mbind_flags) < 0)
		return -errno;
	if (p->home_node >= 0 && set_mempolicy_home_node(addr, len, (unsigned long)p->home_node, 0) < 0)
		return -errno;
	return 0;
}

/* Only asked after set_mempolicy() said EINVAL: tries mode 6 on the nodes
 * that have memory, then puts the task's policy back. */
bool kernel_has_weighted_interleave(void)
{
	struct bitmask *old = numa_allocate_nodemask();
	struct bitmask *mem = numa_get_mems_allowed();
	int mode = MPOL_DEFAULT;
	bool ok;

	if (get_mempolicy(&mode, old->maskp, old->size + 1, NULL, 0) < 0)
		mode = MPOL_DEFAULT;
	ok = set_mempolicy(MPOL_WEIGHTED_INTERLEAVE, mem->maskp, mem->size + 1) == 0;
	if (ok)
		(void)set_mempolicy(mode, mode == MPOL_DEFAULT || mode == MPOL_LOCAL ?
				    NULL : old->maskp, old->size + 1);
	numa_bitmask_free(old);
	numa_bitmask_free(mem);
	return ok;
}

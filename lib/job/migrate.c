// SPDX-License-Identifier: GPL-2.0-or-later
/* numactl2 --pid --migrate: moves a process's pages where its new policy
 * would place them. move_pages(2) on the pid, first asking where each
 * page of a batch is (nodes NULL), then moving those the plan puts
 * elsewhere, grouped by node: the kernel migrates its list each time the
 * node changes. A transparent huge page moves whole with the first of its
 * pages that moves; its other pages then report that node, or busy, and
 * where they ended is asked again before anything counts as failed: a page
 * that left its node moved, with its huge page, even where the plan put
 * it elsewhere. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job/migrate.h"
#include "libnumactl2.h"
#include "syscalls.h"
#include "weights/table.h"

/* A PMD-mapped transparent huge page: 2 MiB with 4 KiB pages (x86-64, and
 * arm64 with 4 KiB pages). A range that has any moves in such blocks. */
#define THP_BLOCK (2UL << 20)

/* Weighted interleave by the policy's weights, or the global table's. */
static int plan_weight(const struct policy *p, unsigned n, unsigned *w)
{
	if (p->mode != MPOL_WEIGHTED_INTERLEAVE || p->has_weights) {
		*w = nc2_policy_weight(p, n);
		return 0;
	}
	return gw_read(n, w);
}

int migrate_plan(struct migrate_job *j, const struct policy *p, unsigned *node)
{
	unsigned n = 0;
	int rc;

	if (!p->nodes)
		return -EINVAL;
	j->node = calloc((size_t)numa_bitmask_weight(p->nodes) + 1, sizeof(*j->node));
	j->weight = calloc((size_t)numa_bitmask_weight(p->nodes) + 1, sizeof(*j->weight));
	if (!j->node || !j->weight)
		return -ENOMEM;
	for (int i = nc2_nodes_first(p->nodes); i >= 0; i = nc2_nodes_next(p->nodes, (unsigned)i + 1)) {
		rc = plan_weight(p, (unsigned)i, &j->weight[n]);
		if (rc < 0) {
			*node = (unsigned)i;
			return rc;
		}
		j->node[n++] = i;
	}
	return migplan_init(&j->plan, p->mode, j->node, j->weight, n);
}

/* One batch: the pages asked about, and those to move with their nodes. */
struct batch {
	void *addr[MIGRATE_BATCH];
	unsigned long block[MIGRATE_BATCH];	/* migplan_targets' blocks */
	int now[MIGRATE_BATCH];
	int to[MIGRATE_BATCH];
	unsigned n;
	void *move[MIGRATE_BATCH];
	int from[MIGRATE_BATCH];
	int node[MIGRATE_BATCH];
	int status[MIGRATE_BATCH];
	unsigned m;
};

/* The pages of B the plan puts on another node, by node in the plan's order. */
static void moves_by_node(const struct migrate_job *j, struct batch *b)
{
	b->m = 0;
	for (unsigned k = 0; k < j->plan.n; k++)
		for (unsigned i = 0; i < b->n; i++) {
			if (b->to[i] != j->node[k] || b->to[i] == b->now[i])
				continue;
			b->move[b->m] = b->addr[i];
			b->from[b->m] = b->now[i];
			b->node[b->m] = b->to[i];
			b->status[b->m++] = -EAGAIN;	/* not reached: not written */
		}
}

static void page_failed(struct migrate_result *r, const struct batch *b, unsigned k)
{
	if (!r->failed++) {
		r->fail_addr = (unsigned long)b->move[k];
		r->fail_err = b->status[k] < 0 ? b->status[k] : -EBUSY;
	}
}

/* Where the moved pages are now (B->now, asked again), each counted: off
 * the node it was on (moved: to its node, or with its huge page by another
 * of its pages), gone meanwhile (freed by the process: neither), or still
 * where it was (failed). A page asked to move was never on its node. */
static int count_after(const struct migrate_job *j, struct batch *b, struct migrate_result *r)
{
	if (numa_move_pages(j->pid, b->m, b->move, NULL, b->now, 0) < 0)
		return -errno;
	for (unsigned k = 0; k < b->m; k++) {
		if (b->now[k] < 0)
			continue;
		if (b->now[k] != b->from[k])
			r->moved++;
		else
			page_failed(r, b, k);
	}
	return r->failed ? -EIO : 0;
}

static bool all_on_their_node(const struct batch *b)
{
	for (unsigned k = 0; k < b->m; k++)
		if (b->status[k] != b->node[k])
			return false;
	return true;
}

static int move_batch(struct migrate_job *j, struct batch *b, struct migrate_result *r)
{
	int rc, err;

	if (numa_move_pages(j->pid, b->n, b->addr, NULL, b->now, 0) < 0)
		return -errno;
	migplan_targets(&j->plan, b->now, b->block, b->to, b->n);
	moves_by_node(j, b);
	b->n = 0;
	if (b->m == 0)
		return 0;
	/* > 0: that many pages not moved, their status not all written. */
	rc = numa_move_pages(j->pid, b->m, b->move, b->node, b->status, MPOL_MF_MOVE);
	if (rc == 0 && all_on_their_node(b)) {
		r->moved += b->m;
		return 0;
	}
	err = rc < 0 ? -errno : 0;
	rc = count_after(j, b, r);
	return err ? err : rc;
}

int migrate_run(struct migrate_job *j, struct migrate_result *r)
{
	struct batch *b = calloc(1, sizeof(*b));
	unsigned long page = (unsigned long)sysconf(_SC_PAGESIZE);
	int rc = 0;

	memset(r, 0, sizeof(*r));
	if (!b)
		return -ENOMEM;
	for (unsigned i = 0; rc == 0 && i < j->ranges.n; i++) {
		/* Each mapping split from the first node on: the same mapping
		 * always ends the same, whatever other mappings hold. */
		if (b->n)
			rc = move_batch(j, b, r);
		migplan_restart(&j->plan);
		for (unsigned long a = j->ranges.r[i].start; rc == 0 && a < j->ranges.r[i].end; a += page) {
			b->block[b->n] = j->ranges.r[i].huge ? a & ~(THP_BLOCK - 1) : a;
			b->addr[b->n++] = (void *)a;
			if (b->n == MIGRATE_BATCH)
				rc = move_batch(j, b, r);
		}
	}
	if (rc == 0 && b->n)
		rc = move_batch(j, b, r);
	free(b);
	return rc;
}

int migrate_job_new(pid_t pid, struct migrate_job **j)
{
	*j = calloc(1, sizeof(**j));
	if (!*j)
		return -ENOMEM;
	(*j)->pid = pid;
	return 0;
}

int migrate_read_ranges(struct migrate_job *j, const struct mpol2_state *task)
{
	return migranges_read(j->pid, task, &j->ranges);
}

void migrate_job_free(struct migrate_job *j)
{
	migranges_free(&j->ranges);
	free(j->node);
	free(j->weight);
	free(j);
}

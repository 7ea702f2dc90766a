// SPDX-License-Identifier: GPL-2.0-or-later
/* --weights=auto: each node's bandwidth from the job's own CPUs (HMAT,
 * else sysfs and the SLIT distances), and the weights ours and the
 * kernel's rounding give for it. */
#include <errno.h>
#include <stdlib.h>

#include "bandwidth/autoweights.h"
#include "bandwidth/hmat.h"
#include "bandwidth/nodeperf.h"
#include "error/error.h"
#include "libnumactl2.h"

/* The nodes of the set, and what sysfs says of each (the kernel's figure). */
static int read_sysfs(const struct bitmask *nodes, struct auto_weights *aw, unsigned *bad_node)
{
	bool missing = false;

	aw->n = 0;
	for (int node = nc2_nodes_first(nodes); node >= 0; node = nc2_nodes_next(nodes, (unsigned)node + 1)) {
		unsigned long mbps = 0;
		unsigned i = aw->n;

		if (i == BW_MAX_NODES)
			return -E2BIG;
		aw->node[i] = (unsigned)node;
		aw->access[i] = nodeperf_bandwidth((unsigned)node, &mbps);
		aw->kbw[i] = (double)mbps;
		if (aw->access[i] < 0 && !missing) {
			*bad_node = (unsigned)node;
			missing = true;
		}
		aw->n++;
	}
	return missing ? -ENODATA : 0;
}

/* Every pair of the job's initiators and the set's nodes from HMAT's rows,
 * or false with *missing the node a pair of which is not there. */
static bool from_rows(const struct hmat_rows *rows, struct auto_weights *aw, unsigned *missing)
{
	for (unsigned j = 0; j < aw->n; j++) {
		aw->bw[j] = 0;
		for (unsigned k = 0; k < aw->init.n; k++) {
			uint32_t b = rows->mbps[aw->init.node[k]][aw->node[j]];

			*missing = aw->node[j];
			if (!b)
				return false;
			aw->bw[j] += initiators_share(&aw->init, k) * b;
		}
		aw->exact[j] = true;
		if (aw->access[j] < 0)
			aw->kbw[j] = aw->bw[j];
	}
	aw->source = AUTO_HMAT;
	aw->srat = rows->from_srat;
	return true;
}

static void worse(struct auto_weights *aw, enum auto_source s)
{
	if (s > aw->source)
		aw->source = s;
}

/* Node j's bandwidth from initiator node I: sysfs's as is where I is nearest
 * to it (the firmware's own figure for I: exact), else a guess, scaled by
 * distance (a node twice as far gets half as much) but never above the
 * nearest initiator's figure, the best the kernel found for node j. */
static double from_initiator(struct auto_weights *aw, unsigned j, unsigned i, const bool *near)
{
	unsigned t = aw->node[j], dn, di;

	if (near[i]) {
		worse(aw, AUTO_NEAREST);
		return aw->kbw[j];
	}
	aw->exact[j] = false;
	for (unsigned n = 0; n < BW_MAX_NODES; n++)
		if (near[n] && nodeperf_distance(n, t, &dn) && nodeperf_distance(i, t, &di)) {
			worse(aw, AUTO_SLIT);
			return aw->kbw[j] * bw_min(1, (double)dn / di);
		}
	worse(aw, AUTO_AS_IS);
	return aw->kbw[j];
}

static void from_sysfs(struct auto_weights *aw)
{
	aw->source = AUTO_HMAT;
	for (unsigned j = 0; j < aw->n; j++) {
		bool near[BW_MAX_NODES];

		initiators_nearest(aw->node[j], near);
		aw->bw[j] = 0;
		aw->exact[j] = true;
		for (unsigned k = 0; k < aw->init.n; k++)
			aw->bw[j] += initiators_share(&aw->init, k) *
				     from_initiator(aw, j, aw->init.node[k], near);
	}
}

/* What every source needs: the set's sysfs figures (*sysfs: what reading
 * them returned) and the job's initiators. */
static int read_start(const struct bitmask *nodes, const struct bitmask *cpunodes,
		      const struct bitmask *cpus, struct auto_weights *aw, unsigned *bad_node,
		      int *sysfs)
{
	int rc;

	*sysfs = read_sysfs(nodes, aw, bad_node);
	if (*sysfs == -E2BIG)
		return *sysfs;
	rc = initiators_read(cpunodes, cpus, &aw->init);
	if (rc == -ENODATA)
		return *sysfs < 0 ? *sysfs : -ESRCH;
	return rc;
}

static void find_local(struct auto_weights *aw)
{
	for (unsigned j = 0; j < aw->n; j++)
		aw->local[j] = initiators_local(&aw->init, aw->node[j]);
}

int auto_weights_read(const struct bitmask *nodes, const struct bitmask *cpunodes,
		      const struct bitmask *cpus, struct auto_weights *aw, unsigned *bad_node)
{
	struct hmat_rows *rows;		/* 16 KiB: not on the stack */
	unsigned missing;
	int sysfs, rc = read_start(nodes, cpunodes, cpus, aw, bad_node, &sysfs);

	if (rc < 0)
		return rc;
	rows = malloc(sizeof(*rows));
	aw->hmat_rc = rows ? hmat_read_rows(rows) : -ENOMEM;
	if (aw->hmat_rc == 0 && !from_rows(rows, aw, &missing))
		aw->hmat_rc = -ENODATA;
	free(rows);
	if (aw->hmat_rc == -ENOMEM)
		return aw->hmat_rc;
	if (aw->hmat_rc != 0 && sysfs < 0)
		return sysfs;
	if (aw->hmat_rc != 0)
		from_sysfs(aw);
	find_local(aw);
	return 0;
}

int auto_weights_read_rows(const struct bitmask *nodes, const struct bitmask *cpunodes,
			   const struct bitmask *cpus, const struct hmat_rows *rows,
			   struct auto_weights *aw, unsigned *bad_node)
{
	int sysfs, rc = read_start(nodes, cpunodes, cpus, aw, bad_node, &sysfs);

	if (rc < 0)
		return rc;
	aw->hmat_rc = 0;
	if (!from_rows(rows, aw, bad_node))
		return -ENODATA;
	find_local(aw);
	return 0;
}

bool auto_weights_approximated(const struct auto_weights *aw)
{
	return aw->source >= AUTO_SLIT;
}

double auto_worst_case(const struct auto_weights *aw, const uint8_t *w, double *total)
{
	double t = 0;
	unsigned sum = 0;

	*total = 0;
	for (unsigned j = 0; j < aw->n; j++)
		if (aw->exact[j] && w[j]) {
			sum += w[j];
			*total += aw->bw[j];
		}
	for (unsigned j = 0; j < aw->n; j++)
		if (aw->exact[j] && w[j] && (t == 0 || bw_node_limit(aw->bw[j], sum, w[j]) < t))
			t = bw_node_limit(aw->bw[j], sum, w[j]);
	return t;
}

/* numactl2's weights for the local nodes alone, when they are some but not all. */
static void choose_local(struct auto_weights *aw, unsigned budget)
{
	double sub[BW_MAX_NODES];
	struct bw_choice c;

	aw->nlocal = 0;
	for (unsigned j = 0; j < aw->n; j++)
		if (aw->local[j])
			sub[aw->nlocal++] = aw->bw[j];
	if (aw->nlocal == aw->n ||
	    bw_choose_weights(sub, aw->nlocal, budget, aw->wlocal, &c) < 0)
		aw->nlocal = 0;
	else
		aw->tlocal = c.t;
}

/* The kernel's weights are always at its own budget of 32, whatever ours is,
 * and from what it reads (sysfs), whichever CPUs the job is on. */
int auto_weights_choose(struct auto_weights *aw, unsigned budget)
{
	int rc = bw_choose_weights(aw->bw, aw->n, budget, aw->w, &aw->choice);

	if (rc < 0)
		return rc;
	aw->budget = budget;
	choose_local(aw, budget);
	return bw_kernel_weights(aw->kbw, aw->n, BW_BUDGET_DEFAULT, aw->kernel);
}

int nc2_auto_local_nodes(const struct bitmask *cpunodes, const struct bitmask *cpus,
		     struct bitmask **out, struct nc2_error *e)
{
	struct initiators in;
	int rc = initiators_read(cpunodes, cpus, &in);

	if (rc == -ENODATA)
		return error_set(e, LOCAL_NO_CPU_NODE, 0);
	if (rc < 0)
		return error_set(e, LOCAL_UNREAD, rc);
	*out = numa_allocate_nodemask();
	if (!*out)
		return error_set(e, LOCAL_UNREAD, ENOMEM);
	for (unsigned node = 0; node < BW_MAX_NODES && node < (*out)->size; node++)
		if (initiators_has_memory(node) && initiators_local(&in, node))
			numa_bitmask_setbit(*out, node);
	if (nc2_nodes_first(*out) >= 0)
		return 0;
	numa_bitmask_free(*out);
	*out = NULL;
	return error_set(e, LOCAL_NONE_NEAR, 0);
}

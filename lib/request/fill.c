// SPDX-License-Identifier: GPL-2.0-or-later
/* A request filled: its defaults, and the user's words through setters
 * that check them (the node list, "local" included, the kind of --weights,
 * the budget, the lease and measure options), so that every front end
 * gives them the same meaning and the same refusals (msg/reqerror.c). */
#include <errno.h>
#include <string.h>

#include "bandwidth/measure.h"
#include "error/error.h"
#include "libnumactl2.h"
#include "policy/nodes.h"

#define MIB(bytes) ((unsigned)((bytes) >> 20))

void nc2_request_init(struct request *r, struct policy *p)
{
	memset(r, 0, sizeof(*r));
	memset(p, 0, sizeof(*p));
	p->mode = POLICY_NONE;
	p->home_node = -1;
	r->policy = p;
	r->budget = BW_BUDGET_CHOOSE;
	r->measure_size = MEASURE_SIZE_DEFAULT;
	r->measure_secs = MEASURE_SECS_DEFAULT;
}

void nc2_request_set_policy(struct request *r, int mode, const char *option)
{
	r->policy->mode = mode;
	r->policy->option = option;
}

/* Numbers too large for libnuma's int are refused before it wraps them:
 * no machine has such a node. */
int nc2_nodes_parse(const char *arg, bool all, struct bitmask **out, struct nc2_error *e)
{
	if (nc2_parse_list_numbers(arg, INT_MAX, &e->parse) < 0)
		return error_set_name(e, REQ_NODE_ABSENT, 0, arg);
	*out = nodes_parse(arg, all, e->libnuma_said, sizeof(e->libnuma_said));
	if (!*out || nc2_nodes_first(*out) < 0)
		return error_set_name(e, REQ_NODE_LIST, 0, arg);
	return 0;
}

static bool is_local(const char *arg)
{
	return strcmp(arg, "local") == 0;
}

int nc2_request_set_nodes(struct request *r, const char *arg, bool all, struct nc2_error *e)
{
	r->nodes_local = is_local(arg);
	r->policy->nodes = NULL;
	if (r->nodes_local)
		return 0;
	return nc2_nodes_parse(arg, all, &r->policy->nodes, e);
}

int nc2_nodes_check_words(const char *arg, struct nc2_error *e)
{
	if (!is_local(arg) && nc2_parse_node_list(arg, &e->parse) < 0)
		return error_set_name(e, REQ_NODE_SYNTAX, 0, arg);
	return 0;
}

int nc2_request_set_cpus(struct request *r, const struct bitmask *cpunodes,
			 const struct bitmask *cpus, struct nc2_error *e)
{
	r->cpunodes = cpunodes;
	r->cpus = cpus;
	if (!r->nodes_local)
		return 0;
	return nc2_auto_local_nodes(cpunodes, cpus, &r->policy->nodes, e);
}

/* A weight list read whole, each weight in range (which nodes are in the
 * set is known once the nodes are: nc2_request_resolve()). */
static int read_list(struct request *r, const char *arg, struct nc2_error *e)
{
	int rc = nc2_parse_weight_list(arg, &r->list, &e->parse);

	if (rc == -ENOMEM)
		return error_set_name(e, REQ_NOMEM_LIST, ENOMEM, arg);
	return rc < 0 ? error_set_name(e, REQ_WEIGHT_LIST, 0, arg) : 0;
}

static enum nc2_weights_kind weights_kind(const char *arg)
{
	if (strcmp(arg, "auto") == 0)
		return NC2_WEIGHTS_AUTO;
	if (strcmp(arg, "measured") == 0)
		return NC2_WEIGHTS_MEASURED;
	return NC2_WEIGHTS_LIST;
}

/* A bad list is said before what is missing, as with -w. */
int nc2_request_set_weights(struct request *r, const char *arg, struct nc2_error *e)
{
	struct policy *p = r->policy;

	r->weights_kind = weights_kind(arg);
	if (r->weights_kind == NC2_WEIGHTS_LIST && read_list(r, arg, e) < 0)
		return -1;
	if (p->mode != MPOL_INTERLEAVE && p->mode != MPOL_WEIGHTED_INTERLEAVE)
		return error_set_name(e, REQ_WEIGHTS_NEED_INTERLEAVE, 0, arg);
	r->weights = arg;
	p->mode = MPOL_WEIGHTED_INTERLEAVE;
	return 0;
}

int nc2_request_set_budget(struct request *r, const char *arg, struct nc2_error *e)
{
	unsigned long budget;

	if (r->weights_kind != NC2_WEIGHTS_AUTO && r->weights_kind != NC2_WEIGHTS_MEASURED)
		return error_set_name(e, REQ_BUDGET_NEEDS_AUTO, 0, arg);
	if (nc2_parse_ulong(arg, BW_BUDGET_MAX, &budget) < 0 || budget == 0)
		return error_set_name(e, REQ_BUDGET_INVALID, 0, arg);
	r->budget = (unsigned)budget;
	return 0;
}

int nc2_request_set_lease(struct request *r, bool force, bool wait, unsigned secs,
			  struct nc2_error *e)
{
	if (force && wait)
		return error_set_name(e, REQ_FORCE_WITH_WAIT, 0, NULL);
	r->lease.force = force;
	r->lease.wait = wait;
	r->lease.wait_secs = secs;
	return 0;
}

int nc2_wait_secs(const char *option, const char *arg, unsigned *secs, struct nc2_error *e)
{
	unsigned long s = 0;

	if (arg && (nc2_parse_ulong(arg, WAIT_MAX_SECS, &s) < 0 || !s)) {
		e->option = option;
		return error_set_name(e, REQ_WAIT_INVALID, 0, arg);
	}
	*secs = (unsigned)s;
	return 0;
}

void nc2_request_set_measure(struct request *r, unsigned long long size, unsigned secs)
{
	if (size)
		r->measure_size = size;
	if (secs)
		r->measure_secs = secs;
}

void nc2_request_free(struct request *r)
{
	nc2_weight_list_free(&r->list);
}

int nc2_measure_room(const struct bitmask *nodes, unsigned long long size,
		     struct nc2_error *e)
{
	unsigned long long room;

	e->value = MIB(size);
	if ((unsigned)numa_bitmask_weight(nodes) > BW_MAX_NODES)
		return error_set_name(e, REQ_MEASURE_TOO_MANY, 0, NULL);
	if (measure_check_size(nodes, size, &e->node) < 0)
		return error_set_name(e, REQ_MEASURE_NODE_ROOM, 0, NULL);
	room = nc2_memcg_room();
	if (room >= size)
		return 0;
	e->count = MIB(room);
	return error_set_name(e, REQ_MEASURE_CGROUP_ROOM, 0, NULL);
}

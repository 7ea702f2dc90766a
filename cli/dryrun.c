// SPDX-License-Identifier: GPL-2.0-or-later
/* --dry-run: what a run would do, on stdout; nothing is changed. */
#include <stdio.h>

#include "cli/dryrun.h"
#include "cli/prepare.h"
#include "libnumactl2.h"

static void print_global_op(const struct ctl *ctl)
{
	if (ctl->global_op == GLOBAL_AUTO)
		printf("would turn on the kernel's auto interleave weights\n");
	else if (nc2_admin_print_set(stdout, ctl->global_op == GLOBAL_SET ? &ctl->weights : NULL,
				 ctl->error) < 0)
		cli_request_failed(ctl->error);
}

/* The admin's change, asked as a dry run: it fails as the run would. */
static int global_op_dry(const struct ctl *ctl)
{
	if (nc2_request_admin_dry(cli_admin_op(ctl), &ctl->weights, &ctl->req.lease, ctl->error) < 0) {
		(void)fflush(stdout);
		cli_request_failed(ctl->error);
	}
	return 0;
}

int dry_run(struct ctl *ctl)
{
	const struct policy *p = &ctl->policy;
	int refused;

	if (ctl->global_op != GLOBAL_NONE) {
		print_global_op(ctl);
		return global_op_dry(ctl);
	}
	/* A dry run fails as the run would, with its message, where it can
	 * tell: after its plan, so that the weights refused are seen. */
	refused = nc2_request_dry_check(&ctl->req, ctl->plan, ctl->error);
	printf("policy: %s%s\n",
	       p->mode == POLICY_NONE ? "default (unchanged)" : nc2_policy_name(p->mode).s,
	       p->flags & MPOL_F_NUMA_BALANCING ? " (balancing)" : "");
	if (p->nodes)
		nc2_nodes_fprint(stdout, "nodes", p->nodes);
	if (nc2_request_print_weights(stdout, &ctl->req, ctl->plan, ctl->error) < 0)
		cli_request_failed(ctl->error);
	if (ctl->cpunodes)
		nc2_nodes_fprint(stdout, "cpunodebind", ctl->cpunodes);
	if (ctl->cpus)
		nc2_nodes_fprint(stdout, "physcpubind", ctl->cpus);
	if (p->home_node >= 0)
		printf("home node: %d\n", p->home_node);
	if (ctl->use_shm)
		printf("region: %s %s, offset %llu, length %llu\n", ctl->shm.file ? "file" : "shm",
		       ctl->shm.file ? ctl->shm.file : ctl->shm.sysv_keyfile, ctl->shm.offset,
		       ctl->shm.length);
	if (ctl->report != REPORT_NONE)
		printf("report: %s, to %s\n", ctl->report == REPORT_JSON ? "json" : "table",
		       ctl->report_file ? ctl->report_file : "stderr");
	if (ctl->command) {
		printf("command:");
		for (char **a = ctl->command; *a; a++)
			printf(" %s", *a);
		printf("\n");
	}
	if (p->has_weights)
		printf("why the weights go there: %s\n", nc2_request_why(nc2_plan_why(ctl->plan)));
	if (refused < 0) {
		(void)fflush(stdout);
		cli_request_failed(ctl->error);
	}
	return 0;
}

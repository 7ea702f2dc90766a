// SPDX-License-Identifier: GPL-2.0-or-later
/* The plugin's options, registered with spank_option_register() so that
 * srun, sbatch and salloc all know them (a static spank_options table is
 * ignored by sbatch and salloc in Slurm 22.05). Each value is checked in its
 * callback by the library's request setters, so that bad input fails in
 * srun/sbatch before a job exists, with numactl2's message, and so does a
 * value too long to keep; what needs the node's own NUMA layout (the node
 * list against its nodes, the weights against the set) is checked in the
 * task (task.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "msg/messages.h"
#include "msg/reqerror.h"
#include "libnumactl2.h"
#include "slurm/plugin.h"

struct plugin_opts opts;

/* The option strings, kept: Slurm frees its own after the callback. */
static char nodes_arg[4096], weights_arg[8192];

/* Where a callback's refusal is said: slurm_error() in srun/sbatch. */
static int refuse(const char *msg)
{
	slurm_error("numactl2: %s", msg);
	return -1;
}

/* ARG in SLOT, or -1 with the refusal said when it does not fit: a value
 * cut short would be another request. */
static int keep(char *slot, size_t len, const char *option, const char *arg)
{
	char msg[MSG_MAX];
	size_t n = strlen(arg);

	if (n >= len) {
		msg_too_long(msg, sizeof(msg), option, n, len - 1);
		return refuse(msg);
	}
	memcpy(slot, arg, n + 1);
	return 0;
}

/* The request's words that need no machine: srun/sbatch may run on a host
 * with other nodes than the job's, whose task checks the list against its
 * own (task.c). */
static int words_refused(const struct nc2_error *e)
{
	char msg[REQ_MSG_MAX];

	msg_error(msg, sizeof(msg), e, "");
	return refuse(msg);
}

/* ARG through CHECK with an error of its own: 0, or -1 with the refusal said. */
static int words_checked(int (*check)(const char *arg, struct nc2_error *e), const char *arg)
{
	struct nc2_error *e = nc2_error_new();
	int rc;

	if (!e)
		return refuse("out of memory");
	rc = check(arg, e) < 0 ? words_refused(e) : 0;
	nc2_error_free(e);
	return rc;
}

static int nodes_cb(int val, const char *optarg, int remote)
{
	(void)val;
	(void)remote;
	if (!optarg)
		optarg = "";
	if (keep(nodes_arg, sizeof(nodes_arg), "--weighted-interleave", optarg) < 0 ||
	    words_checked(nc2_nodes_check_words, optarg) < 0)
		return -1;
	opts.nodes = nodes_arg;
	return 0;
}

/* The weights as the task's request will take them, over no nodes yet. */
static int weights_words(const char *arg, struct nc2_error *e)
{
	struct request r;
	struct policy p;
	int rc;

	nc2_request_init(&r, &p);
	nc2_request_set_policy(&r, MPOL_WEIGHTED_INTERLEAVE, "--weighted-interleave");
	rc = nc2_request_set_weights(&r, arg, e);
	nc2_request_free(&r);
	return rc;
}

static int weights_cb(int val, const char *optarg, int remote)
{
	(void)val;
	(void)remote;
	if (!optarg)
		optarg = "";
	if (keep(weights_arg, sizeof(weights_arg), "--weights", optarg) < 0 ||
	    words_checked(weights_words, optarg) < 0)
		return -1;
	opts.weights = weights_arg;
	return 0;
}

/* --weights-wait's seconds, as numactl2 --wait takes them; without its
 * optional argument Slurm may hand over "", which means no limit. */
static int wait_words(const char *arg, struct nc2_error *e)
{
	return nc2_wait_secs("--weights-wait", arg && *arg ? arg : NULL, &opts.wait_secs, e);
}

static int wait_cb(int val, const char *optarg, int remote)
{
	(void)val;
	(void)remote;
	if (words_checked(wait_words, optarg) < 0)
		return -1;
	opts.wait = true;
	return 0;
}

static int report_cb(int val, const char *optarg, int remote)
{
	(void)val;
	(void)optarg;
	(void)remote;
	opts.report = true;
	return 0;
}

static struct spank_option options[] = {
	{ "weighted-interleave", "NODES",
	  "numactl2: weighted interleave of each task's memory over NODES (as numactl2 -w; "
	  "local: the nodes nearest to each task's CPUs)",
	  1, 0, nodes_cb },
	{ "weights", "LIST|auto|measured",
	  "numactl2: the interleave weights, as numactl2 --weights (auto: from the bandwidth "
	  "each task's CPUs get from each node)", 1, 0, weights_cb },
	{ "weights-wait", "SECS",
	  "numactl2: wait (at most SECS) while another job leases other global weights, as "
	  "numactl2 --wait", 2, 0, wait_cb },
	{ "numa-report", NULL,
	  "numactl2: each task says its policy and weights on its stderr", 0, 0, report_cb },
};

int options_register(spank_t sp)
{
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		if (spank_option_register(sp, &options[i]) != ESPANK_SUCCESS)
			return -1;
	return 0;
}

/* The rules between the options, as numactl2's. */
int options_check(char *msg, size_t len)
{
	if (opts.weights && !opts.nodes)
		snprintf(msg, len, "--weights needs --weighted-interleave");
	else if (opts.wait && !opts.weights)
		snprintf(msg, len, "--weights-wait needs --weights");
	else if (opts.report && !opts.nodes)
		snprintf(msg, len, "--numa-report needs --weighted-interleave");
	else
		return 0;
	return -1;
}

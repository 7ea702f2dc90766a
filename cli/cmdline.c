// SPDX-License-Identifier: GPL-2.0-or-later
/* numactl2's command line: each option is handled in exactly one case,
 * with numactl's order rules. Nothing here changes the system. */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmdline.h"
#include "cli/ctl.h"
#include "cli/opttable.h"
#include "cli/pid.h"
#include "cli/prepare.h"
#include "cli/usage.h"
#include "libnumactl2.h"
#include "msg/messages.h"

/* Per-parse ordering facts that numactl's rules depend on. */
struct order {
	bool node_spec_seen;
	const char *last_nodes;		/* for "same" */
};

/* Numbers too large for libnuma's int are refused before it wraps them. */
static void check_list_numbers(const char *what, const char *arg)
{
	struct parse_err e;

	if (nc2_parse_list_numbers(arg, INT_MAX, &e) < 0)
		usage_error("invalid %s: '%s' (%s is out of range)", what, arg, e.item);
}

/* A node list as given: "same" for the one before. */
static const char *same_nodes(struct order *o, const char *arg)
{
	if (strcmp(arg, "same") == 0) {
		if (!o->last_nodes)
			usage_error("'same' needs an earlier node list");
		arg = o->last_nodes;
	}
	o->node_spec_seen = true;
	return arg;
}

static struct bitmask *nodes_arg(const struct ctl *ctl, struct order *o, const char *arg)
{
	struct bitmask *mask;

	arg = same_nodes(o, arg);
	o->last_nodes = arg;
	if (nc2_nodes_parse(arg, ctl->all, &mask, ctl->error) < 0)
		cli_request_failed(ctl->error);
	return mask;
}

/* "local" (the nodes nearest to the job's CPUs) is found once all is read (check.c). */
static void set_policy(struct ctl *ctl, struct order *o, int mode, const char *opt, const char *arg)
{
	if (ctl->policy.mode != POLICY_NONE)
		usage_error("options %s and %s cannot be combined", ctl->policy.option, opt);
	nc2_request_set_policy(&ctl->req, mode, opt);
	if (!arg)
		return;
	arg = same_nodes(o, arg);
	if (nc2_request_set_nodes(&ctl->req, arg, ctl->all, ctl->error) < 0)
		cli_request_failed(ctl->error);
	if (!ctl->req.nodes_local)
		o->last_nodes = arg;
}

/* -w may stand alone before --interleave/-i (the seed's spelling): getopt then
 * took the next option as its argument, and it goes back to be parsed. */
static void weighted_option(struct ctl *ctl, struct order *o, int argc, char **argv)
{
	ctl->weighted = true;
	if (optarg[0] == '-' && optind <= argc && optarg == argv[optind - 1]) {
		optind--;
		return;
	}
	set_policy(ctl, o, MPOL_WEIGHTED_INTERLEAVE, "--weighted-interleave", optarg);
}

static void cpunodes_option(struct ctl *ctl, struct order *o, const char *arg)
{
	if (ctl->use_shm)
		usage_error("cannot bind CPUs together with --shm/--file");
	ctl->cpunodes = nodes_arg(ctl, o, arg);
}

static void cpus_option(struct ctl *ctl, struct order *o, const char *arg)
{
	if (ctl->use_shm)
		usage_error("cannot bind CPUs together with --shm/--file");
	o->node_spec_seen = true;
	check_list_numbers("CPU list", arg);
	ctl->cpus = nc2_cpus_parse(arg, ctl->all);
	if (!ctl->cpus || nc2_nodes_first(ctl->cpus) < 0)
		usage_error("invalid CPU list: '%s'", arg);
}

static void all_option(struct ctl *ctl, const struct order *o)
{
	if (o->node_spec_seen)
		usage_error("--all must come before all node and CPU lists");
	ctl->all = true;
}

/* numactl's rule: region settings come before --shm/--file. */
static void before_region(const struct ctl *ctl, const char *opt)
{
	if (ctl->use_shm)
		usage_error("%s must come before --shm/--file", opt);
}

static void region_option(struct ctl *ctl, const char *opt, const char **target)
{
	if (ctl->use_shm)
		usage_error("only one --shm or --file");
	if (ctl->policy.mode != POLICY_NONE)
		usage_error("%s must come before the policy (%s)", opt, ctl->policy.option);
	if (ctl->cpunodes || ctl->cpus)
		usage_error("cannot bind CPUs together with %s", opt);
	ctl->use_shm = true;
	*target = optarg;
}

static void region_action(struct ctl *ctl, char action, const char *opt)
{
	size_t n = strlen(ctl->shm_actions);

	if (!ctl->use_shm)
		usage_error("%s must come after --shm/--file", opt);
	if (n + 1 >= sizeof(ctl->shm_actions))
		usage_error("too many region actions");
	ctl->shm_actions[n] = action;
}

/* numactl's rule: --verify checks the policy given before it, which has nodes. */
static void verify_option(struct ctl *ctl)
{
	region_action(ctl, SHM_VERIFY, "--verify");
	if (ctl->policy.mode == POLICY_NONE)
		usage_error("--verify needs a policy before it");
	if (!ctl->policy.nodes)
		usage_error("--verify needs a policy with nodes (not %s)", ctl->policy.option);
}

static unsigned long long size_option(const struct ctl *ctl, const char *opt, const char *what)
{
	struct parse_err e;
	unsigned long long v;

	before_region(ctl, opt);
	if (nc2_parse_size(optarg, &v, &e) < 0)
		usage_parse_error(&e, what);
	return v;
}

static void shmmode_option(struct ctl *ctl)
{
	struct parse_err e;

	before_region(ctl, "--shmmode");
	if (nc2_parse_octal_mode(optarg, &ctl->shm.mode, &e) < 0)
		usage_parse_error(&e, "mode");
}

static void shmid_option(struct ctl *ctl)
{
	before_region(ctl, "--shmid");
	if (nc2_parse_ulong(optarg, 255, &ctl->shm.shmid) < 0)
		usage_error("invalid shm id: '%s' (0-255)", optarg);
}

static void home_node_option(struct ctl *ctl)
{
	unsigned long node;

	if (ctl->policy.home_node >= 0)
		usage_error("--home-node given twice");
	if (nc2_parse_ulong(optarg, (unsigned long)numa_max_node(), &node) < 0)
		usage_error("invalid home node: '%s' (0-%d)", optarg, numa_max_node());
	ctl->policy.home_node = (int)node;
}

/* "local" is a set of nodes, found once all is read: not one node now. */
static void preferred_option(struct ctl *ctl, struct order *o)
{
	set_policy(ctl, o, MPOL_PREFERRED, "--preferred", optarg);
	if (ctl->req.nodes_local || numa_bitmask_weight(ctl->policy.nodes) != 1)
		usage_error("--preferred takes one node: '%s'", optarg);
}

static void once(const char **slot, const char *opt)
{
	if (*slot)
		usage_error("%s given twice", opt);
	*slot = optarg;
}

/* numactl acts on the first of --show and --hardware and exits there. */
static void show_or_hardware(struct ctl *ctl, bool *opt)
{
	if (!ctl->show && !ctl->hardware)
		*opt = true;
}

static void global_option(struct ctl *ctl, enum global_op op)
{
	if (ctl->global_op != GLOBAL_NONE)
		usage_error("only one of --set-global-weights, --reset-global-weights and --auto-global-weights");
	ctl->global_op = op;
	ctl->global_arg = optarg;
}


static void wait_option(struct ctl *ctl)
{
	if (ctl->wait)
		usage_error("--wait given twice");
	if (nc2_wait_secs("--wait", optarg, &ctl->wait_secs, ctl->error) < 0)
		cli_request_failed(ctl->error);
	ctl->wait = true;
}

static void report_option(struct ctl *ctl)
{
	if (ctl->report != REPORT_NONE)
		usage_error("--report given twice");
	if (!optarg || strcmp(optarg, "table") == 0)
		ctl->report = REPORT_TABLE;
	else if (strcmp(optarg, "json") == 0)
		ctl->report = REPORT_JSON;
	else
		usage_error("invalid --report format: '%s' (table or json)", optarg);
}

#define MEASURE_MAX_SECS 3600

static void measure_time_option(struct ctl *ctl)
{
	unsigned long secs;

	if (ctl->measure_secs)
		usage_error("--measure-time given twice");
	if (nc2_parse_ulong(optarg, MEASURE_MAX_SECS, &secs) < 0 || !secs)
		usage_error("invalid --measure-time: '%s' (1-%d seconds)", optarg, MEASURE_MAX_SECS);
	ctl->measure_secs = (unsigned)secs;
}

static void measure_size_option(struct ctl *ctl)
{
	struct parse_err e;

	if (ctl->measure_size)
		usage_error("--measure-size given twice");
	if (nc2_parse_size(optarg, &ctl->measure_size, &e) < 0)
		usage_parse_error(&e, "measure size");
	if (ctl->measure_size < MEASURE_SIZE_MIN)
		usage_error("invalid --measure-size: '%s' (at least 1m)", optarg);
}

static void one_option(struct ctl *ctl, struct order *o, enum cli_opt c, int argc, char **argv)
{
	switch (c) {
	case OPT_ALL: all_option(ctl, o); break;
	case OPT_INTERLEAVE: set_policy(ctl, o, MPOL_INTERLEAVE, "--interleave", optarg); break;
	case OPT_WEIGHTED: weighted_option(ctl, o, argc, argv); break;
	case OPT_MEMBIND: set_policy(ctl, o, MPOL_BIND, "--membind", optarg); break;
	case OPT_PREFERRED: preferred_option(ctl, o); break;
	case OPT_PREFERRED_MANY: set_policy(ctl, o, MPOL_PREFERRED_MANY, "--preferred-many", optarg); break;
	case OPT_LOCALALLOC: set_policy(ctl, o, MPOL_LOCAL, "--localalloc", NULL); break;
	case OPT_CPUNODEBIND: case OPT_CPUBIND: cpunodes_option(ctl, o, optarg); break;
	case OPT_PHYSCPUBIND: cpus_option(ctl, o, optarg); break;
	case OPT_BALANCING: ctl->balancing = true; break;
	case OPT_SHOW: show_or_hardware(ctl, &ctl->show); break;
	case OPT_HARDWARE: show_or_hardware(ctl, &ctl->hardware); break;
	case OPT_SHM: region_option(ctl, "--shm", &ctl->shm.sysv_keyfile); break;
	case OPT_FILE: region_option(ctl, "--file", &ctl->shm.file); break;
	case OPT_LENGTH: ctl->shm.length = size_option(ctl, "--length", "length"); break;
	case OPT_OFFSET: ctl->shm.offset = size_option(ctl, "--offset", "offset"); break;
	case OPT_SHMMODE: shmmode_option(ctl); break;
	case OPT_SHMID: shmid_option(ctl); break;
	case OPT_HUGE: before_region(ctl, "--huge"); ctl->shm.huge = true; break;
	case OPT_STRICT: ctl->strict = true; break;
	case OPT_TOUCH: region_action(ctl, SHM_TOUCH, "--touch"); break;
	case OPT_DUMP: region_action(ctl, SHM_DUMP, "--dump"); break;
	case OPT_DUMP_NODES: region_action(ctl, SHM_DUMP_NODES, "--dump-nodes"); break;
	case OPT_VERIFY: verify_option(ctl); break;
	case OPT_CPU_COMPRESS: ctl->cpu_compress = true; break;
	case OPT_JSON: ctl->json = true; break;
	case OPT_WEIGHTS: once(&ctl->weights_arg, "--weights"); break;
	case OPT_WEIGHT_BUDGET: once(&ctl->budget_arg, "--weight-budget"); break;
	case OPT_DRY_RUN: ctl->dry_run = true; break;
	case OPT_NO_GLOBAL: ctl->no_global = true; break;
	case OPT_GLOBAL_WEIGHTS: ctl->global_forced = true; break;
	case OPT_HOME_NODE: home_node_option(ctl); break;
	case OPT_WAIT: wait_option(ctl); break;
	case OPT_FORCE: ctl->force = true; break;
	case OPT_RESTORE: ctl->restore = true; break;
	case OPT_KEEP_WEIGHTS: ctl->keep_weights = true; break;
	case OPT_REPORT: report_option(ctl); break;
	case OPT_REPORT_FILE: once(&ctl->report_file, "--report-file"); break;
	case OPT_MEASURE: ctl->measure = true; break;
	case OPT_MEASURE_SIZE: measure_size_option(ctl); break;
	case OPT_MEASURE_TIME: measure_time_option(ctl); break;
	case OPT_PID: pid_option(ctl, optarg); break;
	case OPT_MIGRATE: ctl->migrate = true; break;
	case OPT_SET_GLOBAL: global_option(ctl, GLOBAL_SET); break;
	case OPT_RESET_GLOBAL: global_option(ctl, GLOBAL_RESET); break;
	case OPT_AUTO_GLOBAL: global_option(ctl, GLOBAL_AUTO); break;
	case OPT_HELP: cli_usage();
	case OPT_VERSION: cli_version();
	}
}

/* getopt's own messages would name argv[0], which may be a path. */
static void __attribute__((noreturn)) bad_option(int c, char **argv)
{
	if (c == ':')
		usage_error("option '%s' requires an argument", argv[optind - 1]);
	/* A long option given an argument it does not take: "--force=1". */
	if (optopt && strncmp(argv[optind - 1], "--", 2) == 0)
		usage_error("option '%.*s' doesn't allow an argument",
			    (int)strcspn(argv[optind - 1], "="), argv[optind - 1]);
	if (optopt)
		usage_error("invalid option -- '%c'", optopt);
	usage_error("unrecognized option '%s'", argv[optind - 1]);
}

/* The long name of C when its argument is optional and was not given:
 * getopt takes "--wait 5" as --wait and a command "5". */
static const char *bare_optional(int c)
{
	if (optarg)
		return NULL;
	for (const struct option *o = cli_longopts; o->name; o++)
		if (o->val == c && o->has_arg == optional_argument)
			return o->name;
	return NULL;
}

void cli_parse(struct ctl *ctl, int argc, char **argv)
{
	struct order o = { 0 };
	int c;

	nc2_request_init(&ctl->req, &ctl->policy);
	ctl->shm.mode = 0600;
	while ((c = getopt_long(argc, argv, cli_shortopts, cli_longopts, NULL)) != -1) {
		if (c == '?' || c == ':')
			bad_option(c, argv);
		one_option(ctl, &o, (enum cli_opt)c, argc, argv);
		ctl->bare_optional = bare_optional(c);
	}
	/* "--wait -- 5": the command was meant. */
	if (optind > 1 && strcmp(argv[optind - 1], "--") == 0)
		ctl->bare_optional = NULL;
	if (optind < argc)
		ctl->command = argv + optind;
}

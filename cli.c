/* numactl2's command line: numactl's options, in numactl's order rules,
 * plus the weight options. Nothing here changes the system. */
#include <err.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "closeout.h"
#include "ctl.h"
#include "nodes.h"
#include "syscalls.h"
#include "version.h"
#include "weights.h"

enum {
	OPT_CPU_COMPRESS = CHAR_MAX + 1,
	OPT_VERSION,
	OPT_WEIGHTS,
	OPT_DRY_RUN,
	OPT_NO_GLOBAL,
	OPT_SET_GLOBAL,
	OPT_RESET_GLOBAL,
	OPT_AUTO_GLOBAL,
};

static const struct option longopts[] = {
	{ "all",                  no_argument,       NULL, 'a' },
	{ "interleave",           required_argument, NULL, 'i' },
	{ "weighted-interleave",  required_argument, NULL, 'w' },
	{ "preferred",            required_argument, NULL, 'p' },
	{ "preferred-many",       required_argument, NULL, 'P' },
	{ "cpunodebind",          required_argument, NULL, 'N' },
	{ "cpubind",              required_argument, NULL, 'c' },
	{ "physcpubind",          required_argument, NULL, 'C' },
	{ "membind",              required_argument, NULL, 'm' },
	{ "localalloc",           no_argument,       NULL, 'l' },
	{ "balancing",            no_argument,       NULL, 'b' },
	{ "show",                 no_argument,       NULL, 's' },
	{ "hardware",             no_argument,       NULL, 'H' },
	{ "shm",                  required_argument, NULL, 'S' },
	{ "file",                 required_argument, NULL, 'f' },
	{ "offset",               required_argument, NULL, 'o' },
	{ "length",               required_argument, NULL, 'L' },
	{ "strict",               no_argument,       NULL, 't' },
	{ "shmmode",              required_argument, NULL, 'M' },
	{ "shmid",                required_argument, NULL, 'I' },
	{ "huge",                 no_argument,       NULL, 'u' },
	{ "touch",                no_argument,       NULL, 'T' },
	{ "dump",                 no_argument,       NULL, 'd' },
	{ "dump-nodes",           no_argument,       NULL, 'D' },
	{ "cpu-compress",         no_argument,       NULL, OPT_CPU_COMPRESS },
	{ "weights",              required_argument, NULL, OPT_WEIGHTS },
	{ "dry-run",              no_argument,       NULL, OPT_DRY_RUN },
	{ "no-global-weights",    no_argument,       NULL, OPT_NO_GLOBAL },
	{ "set-global-weights",   required_argument, NULL, OPT_SET_GLOBAL },
	{ "reset-global-weights", no_argument,       NULL, OPT_RESET_GLOBAL },
	{ "auto-global-weights",  no_argument,       NULL, OPT_AUTO_GLOBAL },
	{ "help",                 no_argument,       NULL, 'h' },
	{ "version",              no_argument,       NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

/* Built from longopts, as numactl does, so the two cannot drift; '+' stops
 * at the command's name so that its own options pass through. */
static void short_options(char *s)
{
	*s++ = '+';
	*s++ = ':';	/* a missing argument comes back as ':' */
	for (const struct option *o = longopts; o->name; o++) {
		if (o->val > CHAR_MAX)
			continue;
		*s++ = (char)o->val;
		if (o->has_arg == required_argument)
			*s++ = ':';
	}
	*s = '\0';
}

static void __attribute__((noreturn)) usage(void)
{
	fputs(
"Usage: numactl2 [options] [--] command [args...]\n"
"  or:  numactl2 --show | --hardware\n"
"  or:  numactl2 [--length=LEN] --shm=KEYFILE|--file=FILE policy [--touch] [--dump]\n"
"  or:  numactl2 --set-global-weights=LIST | --reset-global-weights | --auto-global-weights\n"
"Run a command with a NUMA memory policy: numactl's options, plus weighted interleave\n"
"with per-node weights.\n"
"\n"
"Options:\n"
"  -i, --interleave=NODES      interleave memory over NODES\n"
"  -w, --weighted-interleave=NODES\n"
"                              weighted interleave over NODES; '-w' directly before\n"
"                              --interleave or -i means the same\n"
"      --weights=LIST          per-node weights, LIST is NODES:WEIGHT[,...], NODES is\n"
"                              N or A-B, WEIGHT is 1-255; nodes not named get 1.\n"
"                              Makes --interleave weighted\n"
"      --no-global-weights     fail rather than change the system-wide weights\n"
"      --dry-run               print what would be done; change nothing, run nothing\n"
"  -m, --membind=NODES         allocate only on NODES\n"
"  -p, --preferred=NODE        prefer NODE, fall back to others\n"
"  -P, --preferred-many=NODES  prefer NODES, fall back to others\n"
"  -l, --localalloc            allocate on the node of the CPU that runs\n"
"  -b, --balancing             NUMA balancing with --membind or --preferred-many\n"
"  -N, --cpunodebind=NODES     run on the CPUs of NODES (-c, --cpubind is an old alias)\n"
"  -C, --physcpubind=CPUS      run on CPUS\n"
"  -a, --all                   allow nodes and CPUs outside the cpuset\n"
"  -s, --show                  show the policy in effect, with weights\n"
"  -H, --hardware              show the nodes, distances, bandwidths and weights\n"
"      --cpu-compress          print CPU ranges in --hardware\n"
"  -S, --shm=KEYFILE           set the policy on a System V shared memory segment\n"
"  -f, --file=FILE             set the policy on a file in tmpfs or hugetlbfs\n"
"  -L, --length=LEN            length of the region, with k, m, g or t suffix\n"
"  -o, --offset=OFF            offset into the region\n"
"  -M, --shmmode=MODE          octal mode for a new segment or file\n"
"  -I, --shmid=ID              project id for the segment's key\n"
"  -u, --huge                  use huge pages for a new segment\n"
"  -t, --strict                fail when region pages are already elsewhere\n"
"  -T, --touch                 fault the region in now\n"
"  -d, --dump                  print the region's policies\n"
"  -D, --dump-nodes            print the region's nodes\n"
"      --set-global-weights=LIST\n"
"                              write the system-wide weights and exit (root)\n"
"      --reset-global-weights  set every system-wide weight to 1 (root)\n"
"      --auto-global-weights   let the kernel set them from bandwidth (6.16+, root)\n"
"  -h, --help                  display this help and exit\n"
"      --version               output version information and exit\n"
"\n"
"NODES is a list such as 0,2-3, or all; !NODES inverts it, +NODES is relative\n"
"to the cpuset, and netdev:DEV, file:PATH, ip:HOST, block:PATH and pci:BUS name\n"
"the node of a device. Without set_mempolicy2 in the kernel, --weights changes\n"
"the system-wide weights in " "/sys/kernel/mm/mempolicy/weighted_interleave\n"
"and says so on stderr.\n"
"\n"
"Exit status: 1 for a usage, parse or kernel error; 126 if the command could not\n"
"be run, 127 if it was not found; otherwise the command's own status.\n",
	      stdout);
	exit(close_stdout(0));
}

static void __attribute__((noreturn)) version(void)
{
	printf("numactl2 %s\n", NUMACTL2_VERSION);
	exit(close_stdout(0));
}

void usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	fputs("Try 'numactl2 --help' for more information.\n", stderr);
	exit(1);
}

/* Per-parse ordering facts that numactl's rules depend on. */
struct order {
	bool node_spec_seen;
	const char *last_nodes;		/* for "same" */
};

/* Numbers too large for libnuma's int are refused before it wraps them. */
static void check_list_numbers(const char *what, const char *arg)
{
	struct parse_err e;

	if (parse_list_numbers(arg, INT_MAX, &e) < 0)
		usage_error("invalid %s: '%s' (%s is out of range)", what, arg, e.item);
}

static struct bitmask *parse_nodes_arg(const struct ctl *ctl, struct order *o, const char *arg)
{
	struct bitmask *mask;

	if (strcmp(arg, "same") == 0) {
		if (!o->last_nodes)
			usage_error("'same' needs an earlier node list");
		arg = o->last_nodes;
	}
	o->last_nodes = arg;
	o->node_spec_seen = true;
	check_list_numbers("node list", arg);
	mask = nodes_parse(arg, ctl->all);
	if (!mask || nodes_first(mask) < 0) {
		const char *why = nodes_last_warning();

		usage_error("invalid node list: '%s'%s%s%s", arg, *why ? " (" : "", why, *why ? ")" : "");
	}
	return mask;
}

static void set_policy(struct ctl *ctl, struct order *o, int mode, const char *opt, const char *arg)
{
	if (ctl->policy.mode != POLICY_NONE)
		usage_error("options %s and %s cannot be combined", ctl->policy.option, opt);
	ctl->policy.mode = mode;
	ctl->policy.option = opt;
	ctl->policy.nodes = arg ? parse_nodes_arg(ctl, o, arg) : NULL;
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

static void shm_option_before(const struct ctl *ctl, const char *opt)
{
	if (ctl->use_shm)
		usage_error("%s must come before --shm/--file", opt);
}

static void shm_target(struct ctl *ctl, const char *opt)
{
	if (ctl->use_shm)
		usage_error("only one --shm or --file");
	if (ctl->policy.mode != POLICY_NONE)
		usage_error("%s must come before the policy (%s)", opt, ctl->policy.option);
	if (ctl->cpunodes || ctl->cpus)
		usage_error("cannot bind CPUs together with %s", opt);
	ctl->use_shm = true;
}

static void shm_action(struct ctl *ctl, char action, const char *opt)
{
	size_t n = strlen(ctl->shm_actions);

	if (!ctl->use_shm)
		usage_error("%s must come after --shm/--file", opt);
	if (n + 1 >= sizeof(ctl->shm_actions))
		usage_error("too many region actions");
	ctl->shm_actions[n] = action;
}

static unsigned long long size_arg(const char *arg, const char *what)
{
	struct parse_err e;
	unsigned long long v;
	char msg[128];

	if (parse_size(arg, &v, &e) < 0) {
		parse_strerror(&e, what, msg, sizeof(msg));
		usage_error("%s", msg);
	}
	return v;
}

static void cpubind_option(struct ctl *ctl, struct order *o, int c, const char *arg)
{
	if (ctl->use_shm)
		usage_error("cannot bind CPUs together with --shm/--file");
	if (c == 'C') {
		o->node_spec_seen = true;
		check_list_numbers("CPU list", arg);
		ctl->cpus = cpus_parse(arg, ctl->all);
		if (!ctl->cpus || nodes_first(ctl->cpus) < 0)
			usage_error("invalid CPU list: '%s'", arg);
	} else {
		ctl->cpunodes = parse_nodes_arg(ctl, o, arg);
	}
}

static void shm_value_option(struct ctl *ctl, int c, const char *arg)
{
	struct parse_err e;
	char msg[128];

	switch (c) {
	case 'L':
		shm_option_before(ctl, "--length");
		ctl->shm.length = size_arg(arg, "length");
		break;
	case 'o':
		shm_option_before(ctl, "--offset");
		ctl->shm.offset = size_arg(arg, "offset");
		break;
	case 'M':
		shm_option_before(ctl, "--shmmode");
		if (parse_octal_mode(arg, &ctl->shm.mode, &e) < 0) {
			parse_strerror(&e, "mode", msg, sizeof(msg));
			usage_error("%s", msg);
		}
		break;
	case 'I':
		shm_option_before(ctl, "--shmid");
		if (parse_ulong(arg, 255, &ctl->shm.shmid) < 0)
			usage_error("invalid shm id: '%s' (0-255)", arg);
		break;
	}
}

static void policy_option(struct ctl *ctl, struct order *o, int c, const char *arg)
{
	switch (c) {
	case 'i':
		set_policy(ctl, o, MPOL_INTERLEAVE, "--interleave", arg);
		break;
	case 'm':
		set_policy(ctl, o, MPOL_BIND, "--membind", arg);
		break;
	case 'p':
		set_policy(ctl, o, MPOL_PREFERRED, "--preferred", arg);
		if (numa_bitmask_weight(ctl->policy.nodes) != 1)
			usage_error("--preferred takes one node: '%s'", arg);
		break;
	case 'P':
		set_policy(ctl, o, MPOL_PREFERRED_MANY, "--preferred-many", arg);
		break;
	case 'l':
		set_policy(ctl, o, MPOL_LOCAL, "--localalloc", NULL);
		break;
	}
}

static void new_option(struct ctl *ctl, int c, const char *arg)
{
	switch (c) {
	case OPT_WEIGHTS:
		if (ctl->weights_arg)
			usage_error("--weights given twice");
		ctl->weights_arg = arg;
		break;
	case OPT_SET_GLOBAL:
	case OPT_RESET_GLOBAL:
	case OPT_AUTO_GLOBAL:
		if (ctl->global_op != GLOBAL_NONE)
			usage_error("only one of --set-global-weights, --reset-global-weights and --auto-global-weights");
		ctl->global_op = c == OPT_SET_GLOBAL ? GLOBAL_SET :
				 c == OPT_RESET_GLOBAL ? GLOBAL_RESET : GLOBAL_AUTO;
		ctl->global_arg = arg;
		break;
	case OPT_DRY_RUN:
		ctl->dry_run = true;
		break;
	case OPT_NO_GLOBAL:
		ctl->no_global = true;
		break;
	case OPT_CPU_COMPRESS:
		ctl->cpu_compress = true;
		break;
	}
}

static void one_option(struct ctl *ctl, struct order *o, int c, int argc, char **argv)
{
	switch (c) {
	case 'a':
		if (o->node_spec_seen)
			usage_error("--all must come before all node and CPU lists");
		ctl->all = true;
		break;
	case 'w':
		weighted_option(ctl, o, argc, argv);
		break;
	case 'i': case 'm': case 'p': case 'P': case 'l':
		policy_option(ctl, o, c, optarg);
		break;
	case 'N': case 'c': case 'C':
		cpubind_option(ctl, o, c, optarg);
		break;
	case 'b': ctl->balancing = true; break;
	case 's': ctl->show = true; break;
	case 'H': ctl->hardware = true; break;
	case 'S': shm_target(ctl, "--shm"); ctl->shm.sysv_keyfile = optarg; break;
	case 'f': shm_target(ctl, "--file"); ctl->shm.file = optarg; break;
	case 'L': case 'o': case 'M': case 'I':
		shm_value_option(ctl, c, optarg);
		break;
	case 'u': shm_option_before(ctl, "--huge"); ctl->shm.huge = true; break;
	case 't': ctl->strict = true; break;
	case 'T': shm_action(ctl, SHM_TOUCH, "--touch"); break;
	case 'd': shm_action(ctl, SHM_DUMP, "--dump"); break;
	case 'D': shm_action(ctl, SHM_DUMP_NODES, "--dump-nodes"); break;
	case 'h': usage();
	case OPT_VERSION: version();
	default: new_option(ctl, c, optarg); break;
	}
}

/* getopt's own messages would name argv[0], which may be a path. */
static void __attribute__((noreturn)) bad_option(int c, char **argv)
{
	if (c == ':')
		usage_error("option '%s' requires an argument", argv[optind - 1]);
	if (optopt)
		usage_error("invalid option -- '%c'", optopt);
	usage_error("unrecognized option '%s'", argv[optind - 1]);
}

void cli_parse(struct ctl *ctl, int argc, char **argv)
{
	char shortopts[2 * sizeof(longopts) / sizeof(longopts[0]) + 3];
	struct order o = { 0 };
	int c;

	ctl->policy.mode = POLICY_NONE;
	ctl->shm.mode = 0600;
	short_options(shortopts);
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == '?' || c == ':')
			bad_option(c, argv);
		one_option(ctl, &o, c, argc, argv);
	}
	if (optind < argc)
		ctl->command = argv + optind;
}

/* --weights: every node it names must be in the interleave set. */
static void check_weights(struct ctl *ctl)
{
	struct policy *p = &ctl->policy;
	struct parse_err e;
	char msg[160];

	if (p->mode != MPOL_INTERLEAVE && p->mode != MPOL_WEIGHTED_INTERLEAVE)
		usage_error("--weights needs --weighted-interleave or --interleave");
	if (parse_weight_list(ctl->weights_arg, &ctl->weights, &e) < 0) {
		parse_strerror(&e, "weight list", msg, sizeof(msg));
		usage_error("%s", msg);
	}
	for (unsigned n = 0; n <= ctl->weights.max_node; n++) {
		if (!ctl->weights.weight[n])
			continue;
		if (n >= p->nodes->size || !numa_bitmask_isbitset(p->nodes, n))
			usage_error("node %u in --weights is not in the interleave set", n);
		p->weight[n] = ctl->weights.weight[n];
	}
	p->mode = MPOL_WEIGHTED_INTERLEAVE;
	p->has_weights = true;
}

static void check_global_op(struct ctl *ctl)
{
	struct parse_err e;
	char msg[160];

	if (ctl->policy.mode != POLICY_NONE || ctl->command || ctl->use_shm || ctl->weights_arg)
		usage_error("global weight options run alone, without a policy or command");
	if (ctl->global_op == GLOBAL_SET && parse_weight_list(ctl->global_arg, &ctl->weights, &e) < 0) {
		parse_strerror(&e, "weight list", msg, sizeof(msg));
		usage_error("%s", msg);
	}
}

static void check_policy(struct ctl *ctl)
{
	struct policy *p = &ctl->policy;

	if (ctl->weighted) {
		if (p->mode == MPOL_INTERLEAVE)
			p->mode = MPOL_WEIGHTED_INTERLEAVE;
		else if (p->mode != MPOL_WEIGHTED_INTERLEAVE)
			usage_error("-w needs a node list, or --interleave after it");
	}
	if (ctl->weights_arg)
		check_weights(ctl);
	if (ctl->balancing) {
		if (p->mode != MPOL_BIND && p->mode != MPOL_PREFERRED_MANY)
			usage_error("--balancing needs --membind or --preferred-many");
		p->flags |= MPOL_F_NUMA_BALANCING;
	}
	if (ctl->use_shm && p->mode == POLICY_NONE && ctl->shm_actions[0] == '\0')
		usage_error("--shm/--file needs a policy after it");
}

/* All of the input is checked here, before anything is changed. */
void cli_validate(struct ctl *ctl)
{
	if (ctl->global_op != GLOBAL_NONE) {
		check_global_op(ctl);
		return;
	}
	check_policy(ctl);
	if (ctl->policy.has_weights && ctl->no_global && weights_target() == WEIGHTS_GLOBAL)
		errx(1, "this kernel has no task-local weights (set_mempolicy2), and "
		     "--no-global-weights forbids changing the global ones");
	if (ctl->strict && !ctl->use_shm)
		usage_error("--strict must come with --shm/--file");
	if (ctl->show || ctl->hardware || ctl->use_shm || ctl->dry_run)
		return;
	if (!ctl->command)
		usage_error("no command given");
}

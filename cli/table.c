/* numactl2's option table, and what is derived from it: getopt's tables
 * and the --help text that help2man turns into the man page. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/table.h"
#include "cli/closeout.h"
#include "cli/version.h"

/* In --help order. */
const struct cli_option cli_options[] = {
	{ "interleave",          required_argument, OPT_INTERLEAVE, "NODES", "interleave memory over NODES" },
	{ "weighted-interleave", required_argument, OPT_WEIGHTED, "NODES",
	  "weighted interleave over NODES; '-w' directly before\n--interleave or -i means the same" },
	{ "weights",             required_argument, OPT_WEIGHTS, "LIST",
	  "per-node weights, LIST is NODES:WEIGHT[,...], NODES is\nN or A-B, WEIGHT is 1-255; nodes not named get 1.\n"
	  "auto: from the nodes' bandwidth (HMAT), the weights\nthat maximise the modelled throughput; measured:\nthe same from --measure, in the same run.\n"
	  "Makes --interleave weighted" },
	{ "weight-budget",       required_argument, OPT_WEIGHT_BUDGET, "N",
	  "the most --weights=auto or measured may sum to, 1-255 (default 32,\nthe kernel's): a larger sum rounds closer to the\n"
	  "bandwidths but spreads a small allocation less evenly" },
	{ "no-global-weights",   no_argument,       OPT_NO_GLOBAL, NULL,
	  "fail rather than change the system-wide weights" },
	{ "global-weights",      no_argument,       OPT_GLOBAL_WEIGHTS, NULL,
	  "put --weights in the system-wide table even where the\nkernel has task-local weights (set_mempolicy2)" },
	{ "wait",                optional_argument, OPT_WAIT, "SECONDS",
	  "when a running job leases other global weights for\nthese nodes, wait for it (at most SECONDS) instead\nof failing" },
	{ "force",               no_argument,       OPT_FORCE, NULL,
	  "change global weights that running jobs lease (root)" },
	{ "restore-weights",     no_argument,       OPT_RESTORE, NULL,
	  "stay as the command's parent and, when it ends, put\nback the global weights this run changed, unless\nanother job leases them by then" },
	{ "report",              optional_argument, OPT_REPORT, "FORMAT",
	  "run the command as a child and, when it ends, print\nwhere its pages went (heap, anonymous, file) per\nnode, next to the share asked for; FORMAT is table\n(the default) or json; on stderr" },
	{ "report-file",         required_argument, OPT_REPORT_FILE, "FILE",
	  "write the report to FILE instead of stderr" },
	{ "measure",             no_argument,       OPT_MEASURE, NULL,
	  "measure each node's bandwidth from the CPUs the job\nwould run on, print it and the weights it gives,\nand exit; '--weights=measured' uses them in the run" },
	{ "measure-size",        required_argument, OPT_MEASURE_SIZE, "SIZE",
	  "memory to measure on each node (default 256m)" },
	{ "measure-time",        required_argument, OPT_MEASURE_TIME, "SECONDS",
	  "time for the whole measurement (default 10)" },
	{ "dry-run",             no_argument,       OPT_DRY_RUN, NULL,
	  "print what would be done; change nothing, run nothing" },
	{ "membind",             required_argument, OPT_MEMBIND, "NODES", "allocate only on NODES" },
	{ "preferred",           required_argument, OPT_PREFERRED, "NODE", "prefer NODE, fall back to others" },
	{ "preferred-many",      required_argument, OPT_PREFERRED_MANY, "NODES", "prefer NODES, fall back to others" },
	{ "localalloc",          no_argument,       OPT_LOCALALLOC, NULL, "allocate on the node of the CPU that runs" },
	{ "balancing",           no_argument,       OPT_BALANCING, NULL, "NUMA balancing with --membind or --preferred-many" },
	{ "cpunodebind",         required_argument, OPT_CPUNODEBIND, "NODES",
	  "run on the CPUs of NODES (-c, --cpubind is an old alias)" },
	{ "cpubind",             required_argument, OPT_CPUBIND, "NODES", NULL },
	{ "physcpubind",         required_argument, OPT_PHYSCPUBIND, "CPUS", "run on CPUS" },
	{ "all",                 no_argument,       OPT_ALL, NULL, "allow nodes and CPUs outside the cpuset" },
	{ "show",                no_argument,       OPT_SHOW, NULL, "show the policy in effect, with weights" },
	{ "hardware",            no_argument,       OPT_HARDWARE, NULL, "show the nodes, distances, bandwidths and weights" },
	{ "cpu-compress",        no_argument,       OPT_CPU_COMPRESS, NULL, "print CPU ranges in --hardware" },
	{ "shm",                 required_argument, OPT_SHM, "KEYFILE",
	  "set the policy on a System V shared memory segment" },
	{ "file",                required_argument, OPT_FILE, "FILE", "set the policy on a file in tmpfs or hugetlbfs" },
	{ "length",              required_argument, OPT_LENGTH, "LEN", "length of the region, with k, m, g or t suffix" },
	{ "offset",              required_argument, OPT_OFFSET, "OFF", "offset into the region" },
	{ "shmmode",             required_argument, OPT_SHMMODE, "MODE", "octal mode for a new segment or file" },
	{ "shmid",               required_argument, OPT_SHMID, "ID", "project id for the segment's key" },
	{ "home-node",           required_argument, OPT_HOME_NODE, "NODE",
	  "home node of the region's policy (mbind2, or\nset_mempolicy_home_node with --membind/--preferred-many)" },
	{ "huge",                no_argument,       OPT_HUGE, NULL, "use huge pages for a new segment" },
	{ "strict",              no_argument,       OPT_STRICT, NULL, "fail when region pages are already elsewhere" },
	{ "touch",               no_argument,       OPT_TOUCH, NULL, "fault the region in now" },
	{ "dump",                no_argument,       OPT_DUMP, NULL, "print the region's policies" },
	{ "dump-nodes",          no_argument,       OPT_DUMP_NODES, NULL, "print the region's nodes" },
	{ "verify",              no_argument,       OPT_VERIFY, NULL,
	  "fault the region in and check each page's policy\nand node against the policy before it" },
	{ "set-global-weights",  required_argument, OPT_SET_GLOBAL, "LIST",
	  "write the system-wide weights and exit (root)" },
	{ "reset-global-weights", no_argument,      OPT_RESET_GLOBAL, NULL, "set every system-wide weight to 1 (root)" },
	{ "auto-global-weights", no_argument,       OPT_AUTO_GLOBAL, NULL,
	  "let the kernel set them from bandwidth (6.16+, root)" },
	{ "help",                no_argument,       OPT_HELP, NULL, "display this help and exit" },
	{ "version",             no_argument,       OPT_VERSION, NULL, "output version information and exit" },
	{ NULL, 0, 0, NULL, NULL }
};

/* '+' stops at the command's name so that its own options pass through;
 * ':' makes a missing argument come back as ':'. */
void cli_getopt_tables(struct option *longopts, char *shortopts)
{
	*shortopts++ = '+';
	*shortopts++ = ':';
	for (const struct cli_option *o = cli_options; o->name; o++) {
		*longopts++ = (struct option){ o->name, o->has_arg, NULL, o->val };
		if (o->val > CHAR_MAX)
			continue;
		*shortopts++ = (char)o->val;
		if (o->has_arg != no_argument)
			*shortopts++ = ':';
		if (o->has_arg == optional_argument)
			*shortopts++ = ':';
	}
	*longopts = (struct option){ 0 };
	*shortopts = '\0';
}

#define HELP_COLUMN 30

/* "  -i, --interleave=NODES", padded to the help column, or on a line of
 * its own when longer; continuation lines start at the help column. */
static void print_option_help(const struct cli_option *o)
{
	char head[64];
	int len;

	len = snprintf(head, sizeof(head), "  %c%c%c --%s%s%s%s%s",
		       o->val <= CHAR_MAX ? '-' : ' ', o->val <= CHAR_MAX ? o->val : ' ',
		       o->val <= CHAR_MAX ? ',' : ' ', o->name,
		       o->has_arg == optional_argument ? "[" : "", o->arg ? "=" : "",
		       o->arg ? o->arg : "", o->has_arg == optional_argument ? "]" : "");
	fputs(head, stdout);
	if (len > HELP_COLUMN - 2)
		printf("\n%*s", HELP_COLUMN, "");
	else
		printf("%*s", HELP_COLUMN - len, "");
	for (const char *h = o->help; *h; h++) {
		putchar(*h);
		if (*h == '\n')
			printf("%*s", HELP_COLUMN, "");
	}
	putchar('\n');
}

void cli_usage(void)
{
	fputs("Usage: numactl2 [options] [--] command [args...]\n"
	      "  or:  numactl2 --show | --hardware\n"
	      "  or:  numactl2 [--length=LEN] --shm=KEYFILE|--file=FILE policy [--touch] [--dump]\n"
	      "  or:  numactl2 --set-global-weights=LIST | --reset-global-weights | --auto-global-weights\n"
	      "Run a command with a NUMA memory policy: numactl's options, plus weighted interleave\n"
	      "with per-node weights.\n"
	      "\n"
	      "Options:\n", stdout);
	for (const struct cli_option *o = cli_options; o->name; o++)
		if (o->help)
			print_option_help(o);
	fputs("\n"
	      "NODES is a list such as 0,2-3, or all; !NODES inverts it, +NODES is relative\n"
	      "to the cpuset, and netdev:DEV, file:PATH, ip:HOST, block:PATH and pci:BUS name\n"
	      "the node of a device. Where the kernel lists set_mempolicy2 (the kernel/ series),\n"
	      "--weights are the program's own; elsewhere --weights changes the system-wide\n"
	      "weights in /sys/kernel/mm/mempolicy/weighted_interleave and says so on stderr.\n"
	      "A job run under global weights leases them: while it or a process it forked\n"
	      "lives, numactl2 refuses to give its nodes other weights.\n"
	      "\n"
	      "Exit status: 1 for a usage, parse or kernel error; 126 if the command could not\n"
	      "be run, 127 if it was not found; otherwise the command's own status.\n",
	      stdout);
	exit(close_stdout(0));
}

void cli_version(void)
{
	printf("numactl2 %s\n", NUMACTL2_VERSION);
	exit(close_stdout(0));
}

/* numactl2's option table, and what is derived from it: getopt's tables
 * and the --help text that help2man turns into the man page. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/table.h"
#include "cli/closeout.h"
#include "cli/version.h"

/* The options in --help order, one entry each:
 *   OPT(name, ID, has_arg, arg, help)       OPT_ID is its short letter
 *   LONG_OPT(name, ID, has_arg, arg, help)  long-only: OPT_ID is above CHAR_MAX
 * arg names the argument in --help ("" for none); help "" is an alias --help
 * does not list, and '\n' in it continues at the help column. getopt's tables are
 * made from this list at compile time (made at each start, they cost ~760
 * instructions before the exec, bench/overhead). */
#define CLI_OPTIONS(OPT, LONG_OPT) \
	OPT(     "interleave",           INTERLEAVE,     required_argument, "NODES", \
		 "interleave memory over NODES") \
	OPT(     "weighted-interleave",  WEIGHTED,       required_argument, "NODES", \
		 "weighted interleave over NODES; '-w' directly before\n--interleave or -i means the same") \
	LONG_OPT("weights",              WEIGHTS,        required_argument, "LIST", \
		 "per-node weights, LIST is NODES:WEIGHT[,...], NODES is\nN or A-B, WEIGHT is 1-255; nodes not named get 1.\n" \
		 "auto: from the nodes' bandwidth (HMAT), the weights\nthat maximise the modelled throughput; measured:\nthe same from --measure, in the same run.\n" \
		 "Makes --interleave weighted") \
	LONG_OPT("weight-budget",        WEIGHT_BUDGET,  required_argument, "N", \
		 "the most --weights=auto or measured may sum to, 1-255\n(default: the smallest sum that models 99% of the\nnodes' bandwidth): a larger sum rounds closer to the\n" \
		 "bandwidths but spreads a small allocation less evenly") \
	LONG_OPT("no-global-weights",    NO_GLOBAL,      no_argument,       "",   \
		 "fail rather than change the system-wide weights") \
	LONG_OPT("global-weights",       GLOBAL_WEIGHTS, no_argument,       "",   \
		 "put --weights in the system-wide table even where the\nkernel has task-local weights (set_mempolicy2)") \
	LONG_OPT("wait",                 WAIT,           optional_argument, "SECONDS", \
		 "when a running job leases other global weights for\nthese nodes, wait for it (at most SECONDS) instead\nof failing") \
	LONG_OPT("force",                FORCE,          no_argument,       "",   \
		 "change global weights that running jobs lease (root)") \
	LONG_OPT("restore-weights",      RESTORE,        no_argument,       "",   \
		 "once the command has ended, put back the global\nweights this run changed (a watcher process does),\nunless another job leases them by then") \
	LONG_OPT("report",               REPORT,         optional_argument, "FORMAT", \
		 "when the command ends, print where its own pages\nwent (heap, anonymous, file) per node, next to the\nshare asked for; FORMAT is table (the default) or\njson; on stderr") \
	LONG_OPT("report-file",          REPORT_FILE,    required_argument, "FILE", \
		 "write the report to FILE instead of stderr") \
	LONG_OPT("measure",              MEASURE,        no_argument,       "",   \
		 "measure each node's bandwidth from the CPUs the job\nwould run on, print it and the weights it gives,\nand exit; '--weights=measured' uses them in the run") \
	LONG_OPT("measure-size",         MEASURE_SIZE,   required_argument, "SIZE", \
		 "memory to measure on each node (default 256m)") \
	LONG_OPT("measure-time",         MEASURE_TIME,   required_argument, "SECONDS", \
		 "time for the whole measurement (default 10)") \
	LONG_OPT("dry-run",              DRY_RUN,        no_argument,       "",   \
		 "print what would be done; change nothing, run nothing") \
	OPT(     "membind",              MEMBIND,        required_argument, "NODES", \
		 "allocate only on NODES") \
	OPT(     "preferred",            PREFERRED,      required_argument, "NODE", \
		 "prefer NODE, fall back to others") \
	OPT(     "preferred-many",       PREFERRED_MANY, required_argument, "NODES", \
		 "prefer NODES, fall back to others") \
	OPT(     "localalloc",           LOCALALLOC,     no_argument,       "",   \
		 "allocate on the node of the CPU that runs") \
	OPT(     "balancing",            BALANCING,      no_argument,       "",   \
		 "NUMA balancing with --membind or --preferred-many") \
	OPT(     "cpunodebind",          CPUNODEBIND,    required_argument, "NODES", \
		 "run on the CPUs of NODES (-c, --cpubind is an old alias)") \
	OPT(     "cpubind",              CPUBIND,        required_argument, "NODES",   "") \
	OPT(     "physcpubind",          PHYSCPUBIND,    required_argument, "CPUS", \
		 "run on CPUS") \
	OPT(     "all",                  ALL,            no_argument,       "",   \
		 "allow nodes and CPUs outside the cpuset") \
	OPT(     "show",                 SHOW,           no_argument,       "",   \
		 "show the policy in effect, with weights") \
	LONG_OPT("pid",                  PID,            required_argument, "PID", \
		 "set the policy given, weights included, of every thread\nof the running process PID (of thread PID alone if it is\nnot a main thread) instead of running a command; with\n--show, print its policy. New allocations follow it;\n" \
		 "pages already placed stay, unless --migrate. Needs\nthe kernel/ series") \
	LONG_OPT("migrate",              MIGRATE,        no_argument,       "",   \
		 "with --pid and a policy: also move the pages the\nprocess has to where the policy would place them\n(move_pages)") \
	OPT(     "hardware",             HARDWARE,       no_argument,       "",   \
		 "show the nodes, distances, bandwidths and weights") \
	LONG_OPT("cpu-compress",         CPU_COMPRESS,   no_argument,       "",   \
		 "print CPU ranges in --hardware") \
	OPT(     "shm",                  SHM,            required_argument, "KEYFILE", \
		 "set the policy on a System V shared memory segment") \
	OPT(     "file",                 FILE,           required_argument, "FILE", \
		 "set the policy on a file in tmpfs or hugetlbfs") \
	OPT(     "length",               LENGTH,         required_argument, "LEN", \
		 "length of the region, with k, m, g or t suffix") \
	OPT(     "offset",               OFFSET,         required_argument, "OFF", \
		 "offset into the region") \
	OPT(     "shmmode",              SHMMODE,        required_argument, "MODE", \
		 "octal mode for a new segment or file") \
	OPT(     "shmid",                SHMID,          required_argument, "ID", \
		 "project id for the segment's key") \
	LONG_OPT("home-node",            HOME_NODE,      required_argument, "NODE", \
		 "home node of the region's policy (mbind2, or\nset_mempolicy_home_node with --membind/--preferred-many)") \
	OPT(     "huge",                 HUGE,           no_argument,       "",   \
		 "use huge pages for a new segment") \
	OPT(     "strict",               STRICT,         no_argument,       "",   \
		 "fail when region pages are already elsewhere") \
	OPT(     "touch",                TOUCH,          no_argument,       "",   \
		 "fault the region in now") \
	OPT(     "dump",                 DUMP,           no_argument,       "",   \
		 "print the region's policies") \
	OPT(     "dump-nodes",           DUMP_NODES,     no_argument,       "",   \
		 "print the region's nodes") \
	OPT(     "verify",               VERIFY,         no_argument,       "",   \
		 "fault the region in and check each page's policy\nand node against the policy before it") \
	LONG_OPT("set-global-weights",   SET_GLOBAL,     required_argument, "LIST", \
		 "write the system-wide weights and exit (root)") \
	LONG_OPT("reset-global-weights", RESET_GLOBAL,   no_argument,       "",   \
		 "set every system-wide weight to 1 (root)") \
	LONG_OPT("auto-global-weights",  AUTO_GLOBAL,    no_argument,       "",   \
		 "let the kernel set them from bandwidth (6.16+, root)") \
	OPT(     "help",                 HELP,           no_argument,       "",   \
		 "display this help and exit") \
	LONG_OPT("version",              VERSION,        no_argument,       "",   \
		 "output version information and exit") \
	/* end of CLI_OPTIONS */

/* Each entry's kind agrees with its letter in enum cli_opt. */
#define ASSERT_SHORT(name, id, has_arg, arg, help) \
	_Static_assert(OPT_##id <= CHAR_MAX, "--" name " has no letter: list it with LONG_OPT");
#define ASSERT_LONG(name, id, has_arg, arg, help) \
	_Static_assert(OPT_##id > CHAR_MAX, "--" name " has a letter: list it with OPT");
CLI_OPTIONS(ASSERT_SHORT, ASSERT_LONG)

#define LONGOPT(name, id, has_arg, arg, help) { name, has_arg, NULL, OPT_##id },
const struct option cli_longopts[] = { CLI_OPTIONS(LONGOPT, LONGOPT) { 0 } };

/* '+' stops at the command's name so that its own options pass through;
 * ':' makes a missing argument come back as ':'. A letter is followed by
 * one ':' when it takes an argument, by two when the argument is optional. */
#define COLONS_no_argument
#define COLONS_required_argument ':',
#define COLONS_optional_argument ':', ':',
#define SHORTOPT(name, id, has_arg, arg, help) OPT_##id, COLONS_##has_arg
#define NO_SHORTOPT(name, id, has_arg, arg, help)
const char cli_shortopts[] = { '+', ':', CLI_OPTIONS(SHORTOPT, NO_SHORTOPT) '\0' };

/* What --help says of each option, entry by entry with cli_longopts: the
 * argument's name and the text, each ending in '\0'. One string, not a table
 * of pointers: each pointer in a PIE's data is a relocation at every start
 * (bench/overhead). */
#define OPTION_HELP(name, id, has_arg, arg, help) arg "\0" help "\0"
static const char option_help[] = CLI_OPTIONS(OPTION_HELP, OPTION_HELP);

#define HELP_COLUMN 30

/* "  -i, --interleave=NODES", padded to the help column, or on a line of
 * its own when longer; continuation lines start at the help column. */
static void print_option_help(const struct option *o, const char *arg, const char *help)
{
	char head[64];
	int len;

	len = snprintf(head, sizeof(head), "  %c%c%c --%s%s%s%s%s",
		       o->val <= CHAR_MAX ? '-' : ' ', o->val <= CHAR_MAX ? o->val : ' ',
		       o->val <= CHAR_MAX ? ',' : ' ', o->name,
		       o->has_arg == optional_argument ? "[" : "", *arg ? "=" : "", arg,
		       o->has_arg == optional_argument ? "]" : "");
	fputs(head, stdout);
	if (len > HELP_COLUMN - 2)
		printf("\n%*s", HELP_COLUMN, "");
	else
		printf("%*s", HELP_COLUMN - len, "");
	for (const char *c = help; *c; c++) {
		putchar(*c);
		if (*c == '\n')
			printf("%*s", HELP_COLUMN, "");
	}
	putchar('\n');
}

void cli_usage(void)
{
	const char *arg = option_help;

	fputs("Usage: numactl2 [options] [--] command [args...]\n"
	      "  or:  numactl2 --show | --hardware\n"
	      "  or:  numactl2 --pid=PID policy | --show --pid=PID\n"
	      "  or:  numactl2 [--length=LEN] --shm=KEYFILE|--file=FILE policy [--touch] [--dump]\n"
	      "  or:  numactl2 --set-global-weights=LIST | --reset-global-weights | --auto-global-weights\n"
	      "Run a command with a NUMA memory policy: numactl's options, plus weighted interleave\n"
	      "with per-node weights.\n"
	      "\n"
	      "Options:\n", stdout);
	for (size_t i = 0; cli_longopts[i].name; i++) {
		const char *help = arg + strlen(arg) + 1;

		if (*help)
			print_option_help(&cli_longopts[i], arg, help);
		arg = help + strlen(help) + 1;
	}
	fputs("\n"
	      "NODES is a list such as 0,2-3, or all; !NODES inverts it, +NODES is relative\n"
	      "to the cpuset, and netdev:DEV, file:PATH, ip:HOST, block:PATH and pci:BUS name\n"
	      "the node of a device. Where the kernel lists set_mempolicy2 (the kernel/ series),\n"
	      "--weights are the program's own; elsewhere --weights changes the system-wide\n"
	      "weights in /sys/kernel/mm/mempolicy/weighted_interleave and says so on stderr.\n"
	      "A job run under global weights leases them: while it runs, or a process it\n"
	      "forked keeps the descriptors it inherited, numactl2 refuses to give its nodes\n"
	      "other weights.\n"
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

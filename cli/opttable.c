// SPDX-License-Identifier: GPL-2.0-or-later
/* numactl2's option table, and what is derived from it: getopt's tables
 * and the text of each option in --help (cli/usage.c prints it, and
 * help2man turns it into the man page). */
#include <stddef.h>

#include "cli/opttable.h"

/* The options in --help order, one entry each:
 *   OPT(name, ID, has_arg, arg, help)       OPT_ID is its short letter
 *   LONG_OPT(name, ID, has_arg, arg, help)  long-only: OPT_ID is above CHAR_MAX
 * arg names the argument in --help ("" for none); help "" is an alias --help
 * does not list, and '\n' in it continues at the help column. getopt's tables are
 * made from this list at compile time. */
#define CLI_OPTIONS(OPT, LONG_OPT) \
	OPT(     "interleave",           INTERLEAVE,     required_argument, "NODES", \
		 "interleave memory over NODES") \
	OPT(     "weighted-interleave",  WEIGHTED,       required_argument, "NODES", \
		 "interleave by weight over NODES; -w just before\n--interleave or -i means the same") \
	LONG_OPT("weights",              WEIGHTS,        required_argument, "LIST", \
		 "NODES:WEIGHT[,...] (NODES: N or A-B; WEIGHT:\n1-255; nodes not named get 1), auto (from the\n" \
		 "bandwidth the job's CPUs get from each node,\nHMAT) or measured (--measure in the same run).\n" \
		 "Makes --interleave weighted") \
	LONG_OPT("weight-budget",        WEIGHT_BUDGET,  required_argument, "N", \
		 "the most auto or measured weights may sum to\n(1-255; by default numactl2 chooses it)") \
	LONG_OPT("no-global-weights",    NO_GLOBAL,      no_argument,       "",   \
		 "fail rather than change the system-wide weights") \
	LONG_OPT("global-weights",       GLOBAL_WEIGHTS, no_argument,       "",   \
		 "use the system-wide weights even where the kernel\ngives the command weights of its own") \
	LONG_OPT("wait",                 WAIT,           optional_argument, "SECONDS", \
		 "when a running job holds other system-wide weights\nfor these nodes, wait for it (at most SECONDS)\ninstead of failing") \
	LONG_OPT("force",                FORCE,          no_argument,       "",   \
		 "change weights that running jobs hold (root)") \
	LONG_OPT("keep-weights",         KEEP_WEIGHTS,   no_argument,       "",   \
		 "keep this run's system-wide weights; by default\nthe table goes back once no running job needs them") \
	LONG_OPT("restore-weights",      RESTORE,        no_argument,       "",   \
		 "put back this run's weights as soon as the command\nends, before numactl2 returns, and name\neach node it leaves and why") \
	LONG_OPT("report",               REPORT,         optional_argument, "FORMAT", \
		 "when the command ends, print on stderr where its\npages went, per node; FORMAT is table or json") \
	LONG_OPT("report-file",          REPORT_FILE,    required_argument, "FILE", \
		 "write the report to FILE instead of stderr") \
	LONG_OPT("measure",              MEASURE,        no_argument,       "",   \
		 "measure each node's bandwidth from the job's\nCPUs, print it and its weights, and exit") \
	LONG_OPT("measure-size",         MEASURE_SIZE,   required_argument, "SIZE", \
		 "memory to measure on each node (default 256m)") \
	LONG_OPT("measure-time",         MEASURE_TIME,   required_argument, "SECONDS", \
		 "time for the whole measurement (default 10)") \
	LONG_OPT("dry-run",              DRY_RUN,        no_argument,       "",   \
		 "print what would be done, change nothing") \
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
		 "run on the CPUs of NODES (-c, --cpubind: old name)") \
	OPT(     "cpubind",              CPUBIND,        required_argument, "NODES",   "") \
	OPT(     "physcpubind",          PHYSCPUBIND,    required_argument, "CPUS", \
		 "run on CPUS") \
	OPT(     "all",                  ALL,            no_argument,       "",   \
		 "allow nodes and CPUs outside the cpuset") \
	OPT(     "show",                 SHOW,           no_argument,       "",   \
		 "show the policy in effect, with weights") \
	LONG_OPT("pid",                  PID,            required_argument, "PID", \
		 "set the policy of the running process PID (every\nthread) instead of running a command; with --show,\n" \
		 "print it. Needs a kernel with per-process weights") \
	LONG_OPT("migrate",              MIGRATE,        no_argument,       "",   \
		 "with --pid and a policy: also move the pages\nthe process has to where the policy places them") \
	OPT(     "hardware",             HARDWARE,       no_argument,       "",   \
		 "show the nodes, distances, bandwidths and weights") \
	LONG_OPT("json",                 JSON,           no_argument,       "",   \
		 "with --show: the same as JSON, with numactl2d's\nholders (pid, user, command, weights)") \
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
		 "home node of the region's policy") \
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
		 "let the kernel set them from bandwidth (root)") \
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
 * argument's name ("" for none) and the text ("" for an alias --help does
 * not list). */
#define OPTION_HELP(name, id, has_arg, arg, help) { arg, help },
static const struct {
	const char *arg, *help;
} option_help[] = { CLI_OPTIONS(OPTION_HELP, OPTION_HELP) };

const char *cli_option_help(size_t i, const char **arg)
{
	*arg = option_help[i].arg;
	return option_help[i].help;
}

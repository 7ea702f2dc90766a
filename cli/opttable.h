/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one table of numactl2's options: getopt's long and short options and
 * the --help text all come from it, so none of them can drift. */
#ifndef NUMACTL2_CLI_OPTTABLE_H
#define NUMACTL2_CLI_OPTTABLE_H

#include <getopt.h>
#include <limits.h>
#include <stddef.h>

/* Every option has a name here, its short letter where it has one, and
 * long-only options values above any char. cli.c switches over this enum
 * without a default, so -Wswitch (an error here) refuses an option that
 * the table has and the parser does not handle. */
enum cli_opt {
	OPT_ALL = 'a',
	OPT_INTERLEAVE = 'i',
	OPT_WEIGHTED = 'w',
	OPT_MEMBIND = 'm',
	OPT_PREFERRED = 'p',
	OPT_PREFERRED_MANY = 'P',
	OPT_LOCALALLOC = 'l',
	OPT_BALANCING = 'b',
	OPT_CPUNODEBIND = 'N',
	OPT_CPUBIND = 'c',
	OPT_PHYSCPUBIND = 'C',
	OPT_SHOW = 's',
	OPT_HARDWARE = 'H',
	OPT_SHM = 'S',
	OPT_FILE = 'f',
	OPT_LENGTH = 'L',
	OPT_OFFSET = 'o',
	OPT_SHMMODE = 'M',
	OPT_SHMID = 'I',
	OPT_HUGE = 'u',
	OPT_STRICT = 't',
	OPT_TOUCH = 'T',
	OPT_DUMP = 'd',
	OPT_DUMP_NODES = 'D',
	OPT_VERIFY = 'V',
	OPT_HELP = 'h',
	OPT_CPU_COMPRESS = CHAR_MAX + 1,
	OPT_VERSION,
	OPT_WEIGHTS,
	OPT_WEIGHT_BUDGET,
	OPT_DRY_RUN,
	OPT_NO_GLOBAL,
	OPT_SET_GLOBAL,
	OPT_RESET_GLOBAL,
	OPT_AUTO_GLOBAL,
	OPT_GLOBAL_WEIGHTS,
	OPT_HOME_NODE,
	OPT_WAIT,
	OPT_FORCE,
	OPT_RESTORE,
	OPT_KEEP_WEIGHTS,
	OPT_REPORT,
	OPT_REPORT_FILE,
	OPT_MEASURE,
	OPT_MEASURE_SIZE,
	OPT_MEASURE_TIME,
	OPT_PID,
	OPT_MIGRATE,
	OPT_JSON,
};

/* getopt_long()'s tables, made from the option table (opttable.c). */
extern const struct option cli_longopts[];
extern const char cli_shortopts[];

/* Option I's --help text ("" for an alias --help does not list) and, in
 * *ARG, its argument's name ("" for none). */
const char *cli_option_help(size_t i, const char **arg);

#endif

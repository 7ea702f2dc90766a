// SPDX-License-Identifier: GPL-2.0-or-later
/* --help and --version, and usage errors: one line naming what is wrong,
 * then where help is, exit 1. */
#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/usage.h"
#include "cli/closeout.h"
#include "cli/opttable.h"
#include "cli/version.h"

/* --help's groups, in order: a line ending in ':' is a group's title, any
 * other the long name of an option of the table (cli/opttable.c) whose text
 * follows. test/cli.bats checks that --help lists every option once. A name
 * the table does not have prints nothing: keep-weights is listed here for
 * the option the lease code adds. */
static const char help_layout[] =
	"Policy (as numactl):\n"
	"interleave\nweighted-interleave\nmembind\npreferred\npreferred-many\n"
	"localalloc\nbalancing\ncpunodebind\ncpubind\nphyscpubind\nall\n"
	"Weights:\n"
	"weights\nweight-budget\nmeasure\nmeasure-size\nmeasure-time\n"
	"The job:\n"
	"dry-run\nreport\nreport-file\nshow\njson\nhardware\ncpu-compress\npid\nmigrate\n"
	"Shared memory and files (as numactl):\n"
	"shm\nfile\nlength\noffset\nshmmode\nshmid\nhome-node\nhuge\nstrict\ntouch\n"
	"dump\ndump-nodes\nverify\n"
	"The system-wide weight table:\n"
	"no-global-weights\nglobal-weights\nwait\nforce\nrestore-weights\n"
	"keep-weights\nset-global-weights\nreset-global-weights\nauto-global-weights\n"
	"Other:\n"
	"help\nversion\n";

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

/* The option named NAME (LEN bytes), if the table lists it with a text. */
static void print_named_option(const char *name, size_t len)
{
	for (size_t i = 0; cli_longopts[i].name; i++) {
		const char *arg, *help = cli_option_help(i, &arg);

		if (strlen(cli_longopts[i].name) == len &&
		    !strncmp(cli_longopts[i].name, name, len) && *help)
			print_option_help(&cli_longopts[i], arg, help);
	}
}

static void print_options(void)
{
	for (const char *l = help_layout; *l;) {
		size_t len = strcspn(l, "\n");

		if (l[len - 1] == ':')
			printf("\n%.*s\n", (int)len, l);
		else
			print_named_option(l, len);
		l += len + 1;
	}
}

void cli_usage(void)
{
	fputs("Usage: numactl2 [options] [--] command [args...]\n"
	      "  or:  numactl2 --show | --hardware\n"
	      "  or:  numactl2 --pid=PID policy | --show --pid=PID\n"
	      "  or:  numactl2 [--length=LEN] --shm=KEYFILE|--file=FILE policy [--touch]\n"
	      "  or:  numactl2 --set-global-weights=LIST | --reset-global-weights\n"
	      "Run a command with a NUMA memory policy: numactl's options, plus weighted\n"
	      "interleave with a weight for each node.\n", stdout);
	print_options();
	fputs("\n"
	      "NODES is a list such as 0,2-3, or all; !NODES inverts it, +NODES counts in\n"
	      "the cpuset, and netdev:DEV, file:PATH, ip:HOST, block:PATH and pci:BUS name\n"
	      "the node of a device. As the policy's nodes, local is the nodes nearest to\n"
	      "the CPUs the command runs on (--cpunodebind, --physcpubind,\n"
	      "else its affinity).\n"
	      "\n"
	      "Where the kernel gives a process weights of its own, --weights are the\n"
	      "command's alone. Elsewhere numactl2 writes them to the system-wide table\n"
	      "(/sys/kernel/mm/mempolicy/weighted_interleave), says so on\n"
	      "stderr, and holds them for the job while it runs: a job that needs other\n"
	      "weights on the same nodes waits (--wait) or fails. Once the last job\n"
	      "that needs them has ended, the table and the kernel's auto mode are back\n"
	      "as they were (--keep-weights keeps them).\n"
	      "\n"
	      "The manual: man numactl2 (exit status, files, how to report a bug).\n"
	      "\n"
	      "Examples:\n"
	      "  numactl2 -w 0,1 --weights=0:9,1:1 ./stream    # 9 pages on 0 per 1 on 1\n"
	      "  numactl2 -w all --weights=auto --dry-run ./app  # what would be done\n"
	      "  numactl2 --set-global-weights=0:5,1:1           # the admin's weights\n",
	      stdout);
	exit(close_stdout(0));
}

void cli_version(void)
{
	printf("numactl2 %s\n" NUMACTL2_LICENSE NUMACTL2_BUGS, NUMACTL2_VERSION);
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

/* The one place where a parser's error becomes a usage error. */
void usage_parse_error(const struct parse_err *e, const char *what)
{
	char msg[160];

	nc2_parse_strerror(e, what, msg, sizeof(msg));
	usage_error("%s", msg);
}

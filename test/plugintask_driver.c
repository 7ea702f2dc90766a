// SPDX-License-Identifier: GPL-2.0-or-later
/* The Slurm plugin's task (slurm/task.c) without Slurm, for test/frontends.bats
 * to compare with numactl2: plugintask_driver NODES [WEIGHTS [PROGRAM]]
 * applies --weighted-interleave=NODES --weights=WEIGHTS (WEIGHTS "-": none)
 * to this process, as the task of a step would before its exec of PROGRAM,
 * and says on stderr what slurm_spank_task_init() says (slurm/spank.c),
 * "numactl2: task 0: ..." being --numa-report's line. Exit 0, or 1 where
 * the task would fail. */
#include <stdio.h>
#include <string.h>

#include "slurm/task.h"

extern char **environ;

static void said(const char *line)
{
	if (line[0])
		fprintf(stderr, "numactl2: %s\n", line);
}

int main(int argc, char **argv)
{
	static struct task_outcome out;
	struct plugin_opts o = { 0 };
	struct task_program prog = { .env = environ };

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: plugintask_driver NODES [WEIGHTS|- [PROGRAM]]\n");
		return 2;
	}
	o.nodes = argv[1];
	o.weights = argc > 2 && strcmp(argv[2], "-") != 0 ? argv[2] : NULL;
	prog.argv0 = argc > 3 ? argv[3] : NULL;
	if (task_apply(&o, &prog, &out) < 0) {
		said(out.notice);
		said(out.error);
		return 1;
	}
	said(out.notice);
	said(out.changed);
	said(out.approximated);
	fprintf(stderr, "numactl2: task 0: %s\n", out.said);
	return 0;
}

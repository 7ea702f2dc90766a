// SPDX-License-Identifier: GPL-2.0-or-later
/* numactl2's Slurm SPANK plugin: --weighted-interleave and --weights for
 * srun, sbatch and salloc, applied in each task of a step on its node
 * (task.c). It runs inside srun/sbatch and slurmstepd: it never exits and
 * never writes to stdout; refusals go through slurm_error(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <slurm/spank.h>

#include "msg/messages.h"
#include "msg/reqerror.h"
#include "slurm/plugin.h"

SPANK_PLUGIN(numactl2, 1);

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	(void)ac;
	(void)av;
	return options_register(sp);
}

/* Slurm's own --mem-bind sets the policy too: one of them, not both. */
static bool slurm_mem_bind(spank_t sp)
{
	char type[64];

	if (spank_remote(sp))
		return spank_getenv(sp, "SLURM_MEM_BIND_TYPE", type, sizeof(type)) == ESPANK_SUCCESS &&
		       type[0] && strcmp(type, "none") != 0;
	return false;
}

/* The options together, in srun/sbatch before a job exists and in the step. */
int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
	char msg[MSG_MAX];

	(void)sp;
	(void)ac;
	(void)av;
	if (options_check(msg, sizeof(msg)) < 0) {
		slurm_error("numactl2: %s", msg);
		return -1;
	}
	return 0;
}

#ifdef NUMACTL2_TEST_BUILD
/* Test build only: the task's NUMACTL2_* test hooks (a copy of the weight
 * table, its lease records, numactl2d's socket) come from the job's environment, which the
 * task is not running in yet. Without a copy of the table it refuses to
 * run: the test build runs as root in slurmd's tasks, and must never write
 * the host's real table. */
static int test_hooks(spank_t sp)
{
	static const char *const vars[] = {
		"NUMACTL2_SYSFS_WI", "NUMACTL2_SYSFS_NODE",
		"NUMACTL2_TEST_FAIL_NODE", "NUMACTL2_OWNER_SOCKET", "NUMACTL2_TEST_ONE_NODE_WEIGHS",
	};
	char v[1024];

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (spank_getenv(sp, vars[i], v, sizeof(v)) == ESPANK_SUCCESS)
			setenv(vars[i], v, 1);
	if (getenv("NUMACTL2_SYSFS_WI"))
		return 0;
	slurm_error("numactl2: test build without NUMACTL2_SYSFS_WI: it would use the real weight table");
	return -1;
}
#else
static int test_hooks(spank_t sp)
{
	(void)sp;
	return 0;
}
#endif

/* In the task, as the user, before its exec. */
/* The program the task execs, and the job's environment it runs in. */
static struct task_program task_program(spank_t sp)
{
	struct task_program prog = { 0 };
	int argc = 0;
	char **argv = NULL;

	if (spank_get_item(sp, S_JOB_ARGV, &argc, &argv) == ESPANK_SUCCESS && argc > 0 &&
	    spank_get_item(sp, S_JOB_ENV, &prog.env) == ESPANK_SUCCESS)
		prog.argv0 = argv[0];
	return prog;
}

int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
	static struct task_outcome out;
	struct task_program prog;
	uint32_t task = 0;

	(void)ac;
	(void)av;
	if (!opts.nodes)
		return 0;
	if (slurm_mem_bind(sp)) {
		slurm_error("numactl2: --weighted-interleave cannot be combined with Slurm's "
			    "--mem-bind: choose one");
		return -1;
	}
	if (test_hooks(sp) < 0)
		return -1;
	prog = task_program(sp);
	if (task_apply(&opts, &prog, &out) < 0) {
		if (out.notice[0])
			slurm_error("numactl2: %s", out.notice);
		slurm_error("numactl2: %s", out.error);
		return -1;
	}
	if (out.notice[0])
		fprintf(stderr, "numactl2: %s\n", out.notice);
	if (out.changed[0])
		fprintf(stderr, "numactl2: %s\n", out.changed);
	if (out.approximated[0])
		fprintf(stderr, "numactl2: %s\n", out.approximated);
	if (opts.report) {
		(void)spank_get_item(sp, S_TASK_GLOBAL_ID, &task);
		fprintf(stderr, "numactl2: task %u: %s\n", task, out.said);
	}
	return 0;
}

/* In slurmstepd, as root, once the step's tasks have ended: what the CLI's
 * watcher does at a job's end (lib/request/jobend.c), the tasks' weights
 * given back to the table's owner, which puts back what they alone held.
 * A failure goes to slurmd's log. */
int slurm_spank_exit(spank_t sp, int ac, char **av)
{
	static struct job_end end;
	char msg[MSG_MAX];

	(void)ac;
	(void)av;
	if (!spank_remote(sp) || !opts.nodes || test_hooks(sp) < 0)
		return 0;
	nc2_request_job_ended(NULL, false, &end);
	if (end.settled && msg_settle(msg, sizeof(msg), &end.settle))
		slurm_info("numactl2: %s", msg);
	nc2_error_free(end.settle.error);
	return 0;
}

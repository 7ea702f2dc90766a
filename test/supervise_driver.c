// SPDX-License-Identifier: GPL-2.0-or-later
/* Runs a command through supervise.c, and ends as numactl2 does
 * (cli/exec.c), so that bats can check the child handling (exit status,
 * signals, exec failures, the exit-stop hook) on its own:
 *   supervise_driver [-t] COMMAND [ARGS...]
 * With -t the job is traced, and at the last exit-stop of each of its
 * processes the driver prints to stderr, for the command's own process,
 *   "exit-stop: status S, numa_maps N lines"
 * (N > 0: the address space is still there), for any other
 *   "exit-stop of another process: status S, numa_maps N lines",
 * and when the job has ended with processes still running,
 *   "running: N". */
#include <stdio.h>
#include <string.h>

#include "cli/exec.h"

static void at_exit(const struct job_exit *x, void *arg)
{
	char path[64], line[4096];
	unsigned lines = 0;
	FILE *f;

	(void)arg;
	snprintf(path, sizeof(path), "/proc/%d/numa_maps", (int)x->tid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		lines++;
	if (f)
		fclose(f);
	fprintf(stderr, "exit-stop%s: status %d, numa_maps %u lines\n",
		x->main ? "" : " of another process", x->exit_status, lines);
}

int main(int argc, char **argv)
{
	struct job job = { 0 };
	int status;

	if (argc > 1 && strcmp(argv[1], "-t") == 0) {
		job.at_exit = at_exit;
		argv++;
		argc--;
	}
	if (argc < 2) {
		fputs("usage: supervise_driver [-t] COMMAND [ARGS...]\n", stderr);
		return 2;
	}
	job.command = argv + 1;
	status = supervise_run(&job);
	if (job.running)
		fprintf(stderr, "running: %u\n", job.running);
	if (status < 0)
		supervise_failed(&job, NULL);
	supervise_exit(&job, status);
}

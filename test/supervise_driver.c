// SPDX-License-Identifier: GPL-2.0-or-later
/* Runs a command as numactl2 runs one under --report or --restore-weights
 * (supervise.c: numactl2 execs it, a watcher acts at its end), so that bats
 * can check the watcher on its own:
 *   supervise_driver [-t|-s] COMMAND [ARGS...]
 * Without an option the watcher waits for the job's end (its pidfd); -t
 * traces it, -s samples it. The watcher prints to stderr, with -t at the
 * exit-stop of the job's last thread,
 *   "exit-stop: status S, numa_maps N lines"
 * (N > 0: the address space is still there), with -s the number of samples
 *   "samples: N"
 * and then, at that exit-stop (-t) or once the job is gone,
 *   "watcher: ended, status S, running R" (S "unknown" when not known). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/exec.h"
#include "job/supervise.h"

static unsigned samples;

static void at_exit(const struct job_exit *x, void *arg)
{
	char path[64], line[4096];
	unsigned lines = 0;
	FILE *f;

	(void)arg;
	if (x->sample) {
		samples++;
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/numa_maps", (int)x->tid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		lines++;
	if (f)
		fclose(f);
	fprintf(stderr, "exit-stop: status %d, numa_maps %u lines\n", x->exit_status, lines);
}

/* Traced, before the job's parent can see it end; else once it has. */
static int watch(struct job *job)
{
	if (nc2_supervise_watch(job) < 0)
		return 0;
	int status;

	if (nc2_job_how(job) == WATCH_SAMPLE)
		fprintf(stderr, "samples: %u\n", samples);
	if (nc2_job_status(job, &status))
		fprintf(stderr, "watcher: ended, status %d, running %u\n", status,
			nc2_job_running(job));
	else
		fprintf(stderr, "watcher: ended, status unknown, running %u\n",
			nc2_job_running(job));
	supervise_release(job);
	return 0;
}

int main(int argc, char **argv)
{
	enum job_watch how = WATCH_END;
	struct nc2_error *err;
	struct job *job;
	int e;

	if (argc > 1 && (strcmp(argv[1], "-t") == 0 || strcmp(argv[1], "-s") == 0)) {
		how = argv[1][1] == 't' ? WATCH_TRACE : WATCH_SAMPLE;
		argv++;
		argc--;
	}
	if (argc < 2) {
		fputs("usage: supervise_driver [-t|-s] COMMAND [ARGS...]\n", stderr);
		return 2;
	}
	job = nc2_job_new(argv + 1, how);
	err = nc2_error_new();
	if (!job || !err) {
		fputs("supervise_driver: out of memory\n", stderr);
		return 1;
	}
	nc2_job_set_hooks(job, at_exit, NULL, NULL);
	switch (supervise_start(job, err)) {
	case 1:
		return watch(job);
	case -1:
		supervise_failed(err);
	}
	execvp(argv[1], argv + 1);
	e = errno;
	supervise_exec_failed(job);
	exec_failed(argv[1], e, NULL);
}

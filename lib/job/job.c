// SPDX-License-Identifier: GPL-2.0-or-later
/* The job as the front ends hold it (struct job, supervise.h): made, its
 * hooks set, and what the watcher found read. */
#include <stdlib.h>

#include "job/supervise.h"

struct job *nc2_job_new(char **command, enum job_watch how)
{
	struct job *job = calloc(1, sizeof(*job));

	if (job) {
		job->command = command;
		job->how = how;
	}
	return job;
}

void nc2_job_free(struct job *job)
{
	free(job);
}

void nc2_job_set_hooks(struct job *job, void (*at_exit)(const struct job_exit *x, void *arg),
		       void (*at_sample_started)(pid_t job, void *arg), void *arg)
{
	job->at_exit = at_exit;
	job->at_sample_started = at_sample_started;
	job->arg = arg;
}

enum job_watch nc2_job_how(const struct job *job)
{
	return job->how;
}

pid_t nc2_job_pid(const struct job *job)
{
	return job->pid;
}

bool nc2_job_status(const struct job *job, int *status)
{
	*status = job->wait_status;
	return job->status_known;
}

unsigned nc2_job_running(const struct job *job)
{
	return job->running;
}

bool nc2_job_sampled(const struct job *job)
{
	return job->sampled;
}

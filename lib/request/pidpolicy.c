// SPDX-License-Identifier: GPL-2.0-or-later
/* --pid=PID: a running process's policy, weights included, read through
 * its pidfd, then set (a policy given) on every thread of it, or printed
 * (--show), and with --migrate its pages moved after. Everything is read
 * before anything changes: a kernel without the calls, a process that is
 * gone or not ours, and --migrate's ranges and plan. PID naming a thread
 * other than the main one: that thread alone. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error/error.h"
#include "job/migrate.h"
#include "libnumactl2.h"
#include "policy/mpol2.h"
#include "policy/remote.h"
#include "policy/threads.h"
#include "print/show.h"


/* --migrate: what moves and where to, read before the policy changes;
 * *J stays NULL when it cannot be. */
static int migrate_prepare(const struct pid_request *r, const struct mpol2_state *s,
			   struct migrate_job **j, struct nc2_error *e)
{
	int rc = migrate_job_new(r->pid, j);

	if (rc < 0)
		return error_set(e, PID_MIGRATE_PLAN, rc);
	rc = migrate_plan(*j, r->policy, &e->node);
	if (rc < 0)
		error_set(e, PID_MIGRATE_PLAN, rc);
	else if ((rc = migrate_read_ranges(*j, s)) < 0)
		error_set(e, PID_MIGRATE_RANGES, rc);
	if (rc < 0) {
		migrate_job_free(*j);
		*j = NULL;
	}
	return rc;
}

/* The policy on the named task, then on the other threads of its process. */
static int set_policy(const struct pid_request *r, int fd, struct nc2_error *e)
{
	bool process = threads_tgid(r->pid) == r->pid;
	int rc = mpol2_set_task(fd, r->policy);

	if (rc < 0)
		return error_set(e, PID_SET, rc);
	rc = process ? remote_set_threads(r->pid, r->policy, &e->thread) : 0;
	return rc < 0 ? error_set(e, PID_THREADS, rc) : 0;
}

static int print_state(const struct pid_request *r, const struct mpol2_state *s,
		       struct nc2_error *e)
{
	int rc = show_print_pid(r->out, r->pid, s);

	return rc < 0 ? error_set(e, PID_PRINT, rc) : 0;
}

static int move_job_pages(struct migrate_job *j, struct nc2_error *e)
{
	int rc = migrate_run(j, &e->moved);

	return rc < 0 ? error_set(e, PID_MOVE, rc) : 0;
}

/* Read first, then printed or set; with --migrate the pages move last. */
static int act(const struct pid_request *r, int fd, struct mpol2_state *s,
	       struct nc2_error *e)
{
	struct migrate_job *j = NULL;
	int rc = mpol2_get_task(fd, s);

	if (rc < 0)
		return error_set(e, PID_READ, rc);
	if (r->migrate && migrate_prepare(r, s, &j, e) < 0)
		return -1;
	rc = r->policy ? set_policy(r, fd, e) : print_state(r, s, e);
	if (rc == 0 && j)
		rc = move_job_pages(j, e);
	if (j)
		migrate_job_free(j);
	return rc;
}

int nc2_pid_apply(const struct pid_request *r, struct nc2_error *e)
{
	struct mpol2_state s = { 0 };
	int fd, rc;

	error_clear(e);
	e->value = (unsigned)r->pid;
	e->mode = r->policy ? r->policy->mode : POLICY_NONE;
	memset(&e->moved, 0, sizeof(e->moved));
	fd = remote_open(r->pid);
	if (fd < 0)
		return error_set(e, PID_OPEN, fd);
	s.nodes = numa_allocate_nodemask();
	rc = act(r, fd, &s, e);
	close(fd);
	free(s.weight);
	numa_bitmask_free(s.nodes);
	return rc;
}

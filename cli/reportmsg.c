// SPDX-License-Identifier: GPL-2.0-or-later
/* --report's messages: why a job got no report, or why it was not written. */
#include <err.h>
#include <errno.h>
#include <sys/wait.h>

#include "cli/reportmsg.h"
#include "msg/reqerror.h"

void report_exit_warnings(const struct report *r, struct nc2_error *e)
{
	char msg[REQ_MSG_MAX];

	if (nc2_report_failed(r, e) < 0) {
		msg_error(msg, sizeof(msg), e, NULL);
		warnx("%s", msg);
	}
}

void report_finish(struct report *r, const struct job *job, struct nc2_error *e)
{
	char msg[REQ_MSG_MAX];
	bool seen = nc2_report_seen(r);
	int status;

	/* ptrace(2): a tracee killed by SIGKILL may end without an exit-stop
	 * (Linux 6.18 stops it all the same). */
	if (!seen && nc2_job_how(job) == WATCH_SAMPLE)
		warnx("no report: the job ended before its pages could be sampled");
	else if (!seen && nc2_job_status(job, &status) && WIFSIGNALED(status))
		warnx("no report: the job, killed by signal %d, ended without an exit-stop",
		      WTERMSIG(status));
	else if (!seen)
		warnx("no report: the job ended without an exit-stop");
	if (nc2_report_close(r, e) < 0) {
		msg_error(msg, sizeof(msg), e, NULL);
		warnx("%s", msg);
	}
}

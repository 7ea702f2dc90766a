// SPDX-License-Identifier: GPL-2.0-or-later
/* --report's messages: why a job got no report, or why it was not written. */
#include <err.h>
#include <errno.h>
#include <sys/wait.h>

#include "cli/reportmsg.h"
#include "msg/reqerror.h"

void report_exit_warnings(const struct report *r, const char *path)
{
	struct report_said s;

	report_say(r, &s);
	if (s.read_errno) {
		errno = s.read_errno;
		warn("no report: cannot read /proc/%d/numa_maps", (int)s.read_pid);
	} else if (s.write_errno) {
		errno = s.write_errno;
		warn("cannot write the report%s%s", path ? " to " : "", path ? path : "");
	}
}

void report_finish(struct report *r, const struct job *job, struct nc2_error *e)
{
	char msg[REQ_MSG_MAX];
	struct report_said s;
	int status;

	report_say(r, &s);
	/* ptrace(2): a tracee killed by SIGKILL may end without an exit-stop
	 * (Linux 6.18 stops it all the same). */
	if (!s.seen && nc2_job_how(job) == WATCH_SAMPLE)
		warnx("no report: the job ended before its pages could be sampled");
	else if (!s.seen && nc2_job_status(job, &status) && WIFSIGNALED(status))
		warnx("no report: the job, killed by signal %d, ended without an exit-stop",
		      WTERMSIG(status));
	else if (!s.seen)
		warnx("no report: the job ended without an exit-stop");
	if (report_close(r, e) < 0) {
		msg_error(msg, sizeof(msg), e, NULL);
		warnx("%s", msg);
	}
}

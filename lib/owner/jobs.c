// SPDX-License-Identifier: GPL-2.0-or-later
/* A grant's job: its pidfd (which says when it ends), and its start time,
 * user and name from /proc, read while the pidfd still names a live
 * process, so that a PID used again is never taken for the job. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "owner/jobs.h"
#include "sysfile/sysfile.h"
#include "syscalls.h"

/* The PID a pidfd names, from /proc/self/fdinfo: -1 once it has ended. */
pid_t pidfd_pid(int pidfd)
{
	char path[64], buf[1024], *p;
	int pid;

	int rc;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", pidfd);
	rc = sysfile_read(path, buf, sizeof(buf));
	if (rc < 0)
		return rc;
	/* Pid: -1 once the process has ended. */
	p = strstr(buf, "\nPid:\t");
	if (!p || sscanf(p + 6, "%d", &pid) != 1 || pid <= 0)
		return -ESRCH;
	return pid;
}

/* Start time (field 22) and name of /proc/PID/stat, and its owner. The
 * name may hold anything, ')' too: the fields follow the last ')'. */
static int read_job(struct grant *g)
{
	char path[64], buf[1024], *open_p, *close_p;
	struct stat st;
	int rc;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)g->pid);
	rc = sysfile_read(path, buf, sizeof(buf));
	if (rc < 0)
		return rc == -ENOENT ? -ESRCH : rc;
	open_p = strchr(buf, '(');
	close_p = strrchr(buf, ')');
	if (!open_p || !close_p || close_p < open_p ||
	    sscanf(close_p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
		   &g->start) != 1)
		return -EBADMSG;
	snprintf(g->comm, sizeof(g->comm), "%.*s", (int)(close_p - open_p - 1), open_p + 1);
	snprintf(path, sizeof(path), "/proc/%d", (int)g->pid);
	if (stat(path, &st) < 0)
		return -ESRCH;
	g->uid = st.st_uid;
	return 0;
}

/* The name NAME, as printable ASCII: anything else (a terminal's escape
 * sequence a job set as its name) as \xNN, a backslash as \\. Every
 * client prints it as it comes. */
static void name_escaped(const char *name, char *out, size_t len)
{
	size_t at = 0;

	for (const unsigned char *c = (const unsigned char *)name; *c && at + 5 < len; c++) {
		if (*c >= 0x20 && *c < 0x7f && *c != '\\')
			out[at++] = (char)*c;
		else
			at += (size_t)snprintf(out + at, len - at, *c == '\\' ? "\\\\" : "\\x%02x", *c);
	}
	out[at] = '\0';
}

/* The job's name now (it execs after asking), escaped into OUT. */
void grant_name_now(const struct grant *g, char *out, size_t len)
{
	char path[64], name[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)g->pid);
	if (pidfd_pid(g->pidfd) != g->pid || sysfile_read_line(path, name, sizeof(name)) < 0)
		snprintf(name, sizeof(name), "%s", g->comm);
	name_escaped(name, out, len);
}

static int grant_alloc(struct grant **out)
{
	struct grant *g = calloc(1, sizeof(*g));

	if (!g)
		return -ENOMEM;
	g->pidfd = -1;
	*out = g;
	return 0;
}

static bool has_ended(int pidfd)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };

	return poll(&p, 1, 0) > 0;
}

/* Still the process PID once /proc was read, and not one that has ended
 * (a zombie not yet reaped: its pidfd is readable): 0, or -ESRCH. */
static int still_running(int pidfd, pid_t pid)
{
	pid_t now = pidfd_pid(pidfd);

	if (now < 0 && now != -ESRCH)
		return now;
	return now != pid || has_ended(pidfd) ? -ESRCH : 0;
}

/* A grant for the job PIDFD names (the grant owns PIDFD from here on). */
int grant_for_pidfd(int pidfd, struct grant **out)
{
	struct grant *g;
	int rc = grant_alloc(&g);

	if (rc < 0) {
		close(pidfd);
		return rc;
	}
	g->pidfd = pidfd;
	g->pid = pidfd_pid(pidfd);
	/* Only -ESRCH says the job has gone: any other error (no descriptor
	 * left) is the owner's, and must not drop a job that runs. */
	rc = g->pid > 0 ? read_job(g) : (int)g->pid;
	if (rc == 0)
		rc = still_running(pidfd, g->pid);
	if (rc < 0) {
		grant_free(g);
		return rc;
	}
	*out = g;
	return 0;
}

int grant_new(pid_t pid, struct grant **out)
{
	int pidfd = sys_pidfd_open(pid, 0);

	if (pidfd < 0)
		return -errno;
	return grant_for_pidfd(pidfd, out);
}

/* G, holding WEIGHT (per node), into the book; freed if it cannot be. */
int grant_keep(struct owner_book *b, struct grant *g, const uint8_t *weight)
{
	int rc = book_add(b, g, weight);

	if (rc < 0)
		grant_free(g);
	return rc;
}

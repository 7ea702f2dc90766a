// SPDX-License-Identifier: GPL-2.0-or-later
/* The threads of a running process, from /proc (threads.h).
 *
 * A process can start threads while they are visited, so /proc/PID/task
 * is read again until a pass finds none that is new; the ids seen are
 * kept in a plain array, as a job has few threads. */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "parse.h"
#include "policy/threads.h"

pid_t threads_tgid(pid_t tid)
{
	char path[64], line[128];
	int tgid = tid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return tid;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return (pid_t)tgid;
}

/* The thread ids visited so far. */
struct seen {
	pid_t *tid;
	size_t n, size;
};

static bool seen_has(const struct seen *s, pid_t tid)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->tid[i] == tid)
			return true;
	return false;
}

static int seen_add(struct seen *s, pid_t tid)
{
	if (s->n == s->size) {
		size_t size = s->size ? 2 * s->size : 64;
		pid_t *grown = realloc(s->tid, size * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		s->tid = grown;
		s->size = size;
	}
	s->tid[s->n++] = tid;
	return 0;
}

/* The id of a /proc/PID/task entry; 0 for "." and "..". */
static pid_t entry_tid(const struct dirent *d)
{
	unsigned long tid;

	return nc2_parse_ulong(d->d_name, INT32_MAX, &tid) < 0 ? 0 : (pid_t)tid;
}

/* One pass: VISIT each thread not seen yet; *NEW how many there were. */
static int one_pass(DIR *dir, struct seen *s, threads_visit_fn *visit, const void *arg,
		    pid_t *failed, unsigned *new)
{
	struct dirent *d;
	pid_t tid;
	int rc;

	*new = 0;
	rewinddir(dir);
	while ((d = readdir(dir))) {
		tid = entry_tid(d);
		if (!tid || seen_has(s, tid))
			continue;
		if (seen_add(s, tid) < 0)
			return -ENOMEM;
		++*new;
		rc = visit(tid, arg);
		if (rc < 0 && rc != -ESRCH) {
			*failed = tid;
			return rc;
		}
	}
	return 0;
}

int threads_each(pid_t pid, pid_t skip, threads_visit_fn *visit, const void *arg,
		 pid_t *failed)
{
	struct seen s = { 0 };
	char path[64];
	unsigned new = 1;
	int rc = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? -ESRCH : -errno;
	if (seen_add(&s, skip) < 0)
		rc = -ENOMEM;
	for (unsigned pass = 0; !rc && new && pass < THREADS_MAX_PASSES; pass++)
		rc = one_pass(dir, &s, visit, arg, failed, &new);
	closedir(dir);
	free(s.tid);
	return rc ? rc : new ? -EAGAIN : 0;
}

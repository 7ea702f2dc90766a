// SPDX-License-Identifier: GPL-2.0-or-later
/* Facts about processes, for the lease records (record.c): read from
 * /proc/PID/stat once per PID and run, however many records name it, so
 * that a directory full of records naming a few PIDs costs a few reads. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "weights/procfacts.h"

#define PF_KTHREAD 0x00200000	/* include/linux/sched.h: a kernel thread */

/* Fields 3 (state), 4 (ppid), 9 (flags), 20 (num_threads) and 22
 * (starttime) of a /proc/PID/stat line. The command name (field 2) may hold
 * spaces and parentheses: the fields after it are counted from its last ')'. */
static int parse_stat(char *buf, struct proc_facts *f)
{
	char *p = strrchr(buf, ')'), state;
	unsigned long flags;
	long threads;
	int ppid;

	if (!p || sscanf(p + 1, " %c %d %*s %*s %*s %*s %lu %*s %*s %*s %*s %*s %*s %*s %*s "
			 "%*s %*s %ld %*s %llu", &state, &ppid, &flags, &threads, &f->start) != 5)
		return -EIO;
	f->ppid = ppid;
	f->kthread = flags & PF_KTHREAD;
	f->state = (state == 'Z' || state == 'X') && threads <= 1 ? PROC_GONE : PROC_RUNS;
	return 0;
}

/* /proc/PID/stat, and its owner (that of every file of /proc/PID). */
static int read_stat(pid_t pid, struct proc_facts *f)
{
	char path[64], buf[1024];
	struct stat st;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n > 0 && fstat(fd, &st) < 0)
		n = -1;
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	buf[n] = '\0';
	f->uid = st.st_uid;
	return parse_stat(buf, f);
}

/* When /proc/PID/stat cannot be read, the PID may still exist (hidepid, or
 * it is exiting right now): it is gone only when kill() says so. */
static void look_up(pid_t pid, struct proc_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->pid = pid;
	if (read_stat(pid, f) == 0)
		return;
	f->state = kill(pid, 0) < 0 && errno == ESRCH ? PROC_GONE : PROC_UNKNOWN;
}

static struct proc_facts *slot_of(const struct proc_cache *c, pid_t pid)
{
	size_t i = ((size_t)pid * 2654435761u) & (c->size - 1);

	while (c->slot[i].pid && c->slot[i].pid != pid)
		i = (i + 1) & (c->size - 1);
	return &c->slot[i];
}

/* Twice the room, at most half full: 0 or -ENOMEM. */
static int grow(struct proc_cache *c)
{
	struct proc_cache bigger = { .size = c->size ? c->size * 2 : 64, .used = c->used };

	bigger.slot = calloc(bigger.size, sizeof(bigger.slot[0]));
	if (!bigger.slot)
		return -ENOMEM;
	for (size_t i = 0; i < c->size; i++)
		if (c->slot[i].pid)
			*slot_of(&bigger, c->slot[i].pid) = c->slot[i];
	free(c->slot);
	*c = bigger;
	return 0;
}

/* PID's facts (PID > 0), looked up the first time it is asked for; NULL
 * when there is no memory for them. */
const struct proc_facts *proc_facts(struct proc_cache *c, pid_t pid)
{
	struct proc_facts *f;

	if ((c->used + 1) * 2 > c->size && grow(c) < 0)
		return NULL;
	f = slot_of(c, pid);
	if (!f->pid) {
		look_up(pid, f);
		c->used++;
	}
	return f;
}

void proc_cache_free(struct proc_cache *c)
{
	free(c->slot);
	c->slot = NULL;
	c->size = c->used = 0;
}

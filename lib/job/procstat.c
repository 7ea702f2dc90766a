// SPDX-License-Identifier: GPL-2.0-or-later
/* A process as /proc shows it to the job's watcher (procstat.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job/procstat.h"

int proc_stat_read(pid_t pid, char *state, unsigned long long *start, int *exit_code)
{
	char path[64], buf[1024], *p;
	int fd, field;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	*exit_code = 0;
	/* p: the space before field 3, then before each next field. */
	for (field = 3, p = p ? p + 1 : NULL; p && field <= 52; field++) {
		if (field == 3)
			*state = p[1];
		else if (field == 22)
			*start = strtoull(p + 1, NULL, 10);
		else if (field == 52)
			*exit_code = (int)strtol(p + 1, NULL, 10);
		if (field < 52)
			p = strchr(p + 1, ' ');
	}
	return p ? 0 : -EIO;
}

void proc_comm_read(pid_t pid, char *name, size_t size)
{
	char path[64];
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, name, size - 1);
		close(fd);
	}
	if (n <= 0) {
		snprintf(name, size, "?");
		return;
	}
	name[n] = '\0';
	name[strcspn(name, "\n")] = '\0';
}

/* The PIDs in one children file, each passed to each. */
static unsigned read_children(const char *path, void (*each)(pid_t child, void *arg), void *arg)
{
	FILE *f = fopen(path, "re");
	unsigned n = 0;
	int child;

	if (!f)
		return 0;
	while (fscanf(f, "%d", &child) == 1) {
		n++;
		if (each)
			each((pid_t)child, arg);
	}
	fclose(f);
	return n;
}

unsigned proc_children(pid_t pid, void (*each)(pid_t child, void *arg), void *arg)
{
	char path[64];
	struct dirent *d;
	unsigned n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/children", (int)pid, d->d_name);
		n += read_children(path, each, arg);
	}
	closedir(dir);
	return n;
}

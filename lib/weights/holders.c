// SPDX-License-Identifier: GPL-2.0-or-later
/* Who holds the leases (this file owns finding them): the live processes with a
 * locked descriptor on a weight file, and the live processes a lease record
 * names (record.c). /proc/locks says which files are locked and by whom they were
 * locked; /proc/PID/fdinfo says who has the locked descriptor open now (the
 * child that kept a lease after its parent exited). Other users' fdinfo is
 * root's to read: where none could be read, /proc/locks' pid stands in. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "weights/holders.h"
#include "weights/record.h"
#include "weights/table.h"

/* One look for holders: "maj:min:ino" as /proc/locks and fdinfo print a
 * file, and the file itself (file[]), for the nids nodes of id_node[]; the
 * pids /proc/locks names for each node; and the holders found (who[]).
 * Every table has count entries. */
struct scan {
	unsigned count, nids;
	char (*ids)[48];
	struct stat *file;
	unsigned *id_node;
	struct lease_holders *locked, *who;
};

static void add_pid(struct lease_holders *who, pid_t pid)
{
	for (unsigned i = 0; i < who->count && i < LEASE_MAX_PIDS; i++)
		if (who->pid[i] == pid)
			return;
	if (who->count < LEASE_MAX_PIDS)
		who->pid[who->count] = pid;
	who->count++;
}

static int scan_init(struct scan *s, unsigned count)
{
	s->count = count;
	s->nids = 0;
	s->ids = calloc(count, sizeof(s->ids[0]));
	s->file = calloc(count, sizeof(s->file[0]));
	s->id_node = calloc(count, sizeof(s->id_node[0]));
	s->locked = calloc(count, sizeof(s->locked[0]));
	return s->ids && s->file && s->id_node && s->locked ? 0 : -ENOMEM;
}

static void scan_free(struct scan *s)
{
	free(s->ids);
	free(s->file);
	free(s->id_node);
	free(s->locked);
}

static void file_ids(struct scan *s, const bool *has)
{
	char path[512];
	for (unsigned n = 0; n < s->count; n++) {
		struct stat *st = &s->file[s->nids];

		if (!has[n])
			continue;
		snprintf(path, sizeof(path), "%s/node%u", gw_dir(), n);
		if (stat(path, st) < 0)
			continue;
		snprintf(s->ids[s->nids], sizeof(s->ids[0]), "%02x:%02x:%lu", major(st->st_dev),
			 minor(st->st_dev), (unsigned long)st->st_ino);
		s->id_node[s->nids++] = n;
	}
}

/* The node whose file a "... FLOCK ... maj:min:ino ..." line names, or -1. */
static int node_of_line(const struct scan *s, const char *line)
{
	if (!strstr(line, "FLOCK"))
		return -1;
	for (unsigned i = 0; i < s->nids; i++) {
		size_t len = strlen(s->ids[i]);
		const char *p = strstr(line, s->ids[i]);

		if (p && p > line && p[-1] == ' ' && p[len] == ' ')
			return (int)s->id_node[i];
	}
	return -1;
}

/* /proc/locks: which nodes are locked, and the pids that locked them.
 * Returns how many lines name a node. Waiters ("->") hold nothing. */
static unsigned proc_locks(struct scan *s)
{
	FILE *f = fopen("/proc/locks", "re");
	char line[256];
	unsigned found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		int node = node_of_line(s, line), pid;

		if (node < 0 || strstr(line, "->") ||
		    sscanf(line, "%*d: FLOCK %*s %*s %d", &pid) != 1)
			continue;
		add_pid(&s->locked[node], pid);
		found++;
	}
	fclose(f);
	return found;
}

/* The nodes whose locks /proc/PID/fdinfo/FD shows. */
static void fdinfo_locks(const struct scan *s, pid_t pid, const char *fd,
			 struct lease_holders *who)
{
	char path[320], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", pid, fd);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int node = strncmp(line, "lock:", 5) == 0 ? node_of_line(s, line) : -1;

		if (node >= 0)
			add_pid(&who[node], pid);
	}
	fclose(f);
}

/* Every descriptor of PID that is one of the weight files. */
static void scan_pid(const struct scan *s, pid_t pid, struct lease_holders *who, bool *readable)
{
	char path[64], id[48];
	struct dirent *d;
	struct stat st;
	DIR *dir;
	int node;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || fstatat(dirfd(dir), d->d_name, &st, 0) < 0)
			continue;
		snprintf(id, sizeof(id), " FLOCK %02x:%02x:%lu ", major(st.st_dev),
			 minor(st.st_dev), (unsigned long)st.st_ino);
		node = node_of_line(s, id);
		if (node >= 0 && s->locked[node].count)
			fdinfo_locks(s, pid, d->d_name, who);
	}
	*readable = true;
	closedir(dir);
}

static void scan_proc(const struct scan *s, struct lease_holders *who, pid_t *unreadable)
{
	DIR *proc = opendir("/proc");
	struct dirent *d;

	if (!proc)
		return;
	while ((d = readdir(proc))) {
		bool readable = false;
		pid_t pid;

		/* Not isdigit(): its __ctype_b_loc would be one more symbol version
		 * (GLIBC_2.3) checked at every start (bench/overhead). */
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		pid = (pid_t)atoi(d->d_name);
		scan_pid(s, pid, who, &readable);
		if (!readable)
			*unreadable = pid;
	}
	closedir(proc);
}

/* A running process's record: a holder of the node whose file it names. */
static void recorded(const struct lease_record *r, void *arg)
{
	struct scan *s = arg;

	for (unsigned i = 0; i < s->nids; i++)
		if (s->file[i].st_dev == r->dev && s->file[i].st_ino == r->ino)
			add_pid(&s->who[s->id_node[i]], r->pid);
}

/* WHO[n], for each node of HAS (both COUNT long): the processes that hold
 * its lease. Where some process's descriptors could not be read (another
 * user's, without root) and nobody was found, /proc/locks' pids are the
 * answer. The processes that lease records name come after those.
 * Returns the number of leased nodes, or -ENOMEM. */
int holders_find(struct lease_holders *who, const bool *has, unsigned count)
{
	struct scan s;
	pid_t unreadable = 0;
	int leased = 0;

	memset(who, 0, count * sizeof(who[0]));
	if (scan_init(&s, count) < 0) {
		scan_free(&s);
		return -ENOMEM;
	}
	s.who = who;
	file_ids(&s, has);
	if (proc_locks(&s))
		scan_proc(&s, who, &unreadable);
	for (unsigned n = 0; n < count; n++)
		if (s.locked[n].count && !who[n].count && unreadable)
			who[n] = s.locked[n];
	record_scan(recorded, &s);
	for (unsigned n = 0; n < count; n++)
		leased += who[n].count > 0;
	scan_free(&s);
	return leased;
}

/* The processes that records name as holders of the weight file open on
 * FD: a lease that outlives every descriptor (lease.c). 0 or -errno. */
int holders_recorded(int fd, struct lease_holders *who)
{
	struct scan s = { .count = 1, .nids = 1, .id_node = (unsigned[]){ 0 }, .who = who };
	struct stat st;

	memset(who, 0, sizeof(*who));
	if (fstat(fd, &st) < 0)
		return -errno;
	s.file = &st;
	record_scan(recorded, &s);
	return 0;
}

/* The holders of one node's lease: 0 or -ENOMEM. */
int holders_of_node(unsigned node, struct lease_holders *who)
{
	unsigned count = node + 1;
	bool *has = calloc(count, sizeof(*has));
	struct lease_holders *all = calloc(count, sizeof(*all));
	int rc = -ENOMEM;

	if (has && all) {
		has[node] = true;
		rc = holders_find(all, has, count);
	}
	if (rc >= 0)
		*who = all[node];
	free(has);
	free(all);
	return rc < 0 ? rc : 0;
}

/* The leased nodes among NODES (NULL: every node with a weight file), each
 * with its weight in the table and its holders. 0 or -errno; list->node is
 * the caller's to free(). */
int holders_list(const struct bitmask *nodes, struct lease_list *list)
{
	unsigned count = gw_node_count();
	bool *has = calloc(count, sizeof(*has));
	struct lease_holders *who = calloc(count, sizeof(*who));
	int rc = -ENOMEM;

	list->count = 0;
	list->node = NULL;
	if (!has || !who)
		goto out;
	if (nodes)
		for (unsigned n = 0; n < nodes->size && n < count; n++)
			has[n] = numa_bitmask_isbitset(nodes, n);
	rc = nodes ? 0 : gw_nodes(has, count);
	if (rc < 0)
		goto out;
	rc = holders_find(who, has, count);
	if (rc > 0) {
		list->node = calloc((size_t)rc, sizeof(list->node[0]));
		rc = list->node ? 0 : -ENOMEM;
	}
	for (unsigned n = 0; rc == 0 && list->node && n < count; n++) {
		struct leased_node *l = &list->node[list->count];

		if (who[n].count && gw_read(n, &l->weight) == 0) {
			l->node = n;
			l->who = who[n];
			list->count++;
		}
	}
out:
	free(has);
	free(who);
	return rc < 0 ? rc : 0;
}

/* "1234 1240" (and "+N more") */
void holders_format_pids(const struct lease_holders *who, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < who->count && i < LEASE_MAX_PIDS && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? " " : "", who->pid[i]);
	if (who->count > LEASE_MAX_PIDS && used < len)
		snprintf(buf + used, len - used, " +%u more", who->count - LEASE_MAX_PIDS);
	if (!who->count)
		snprintf(buf, len, "unknown");
}

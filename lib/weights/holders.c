/* Who holds the leases: the live processes with a locked descriptor on a
 * weight file. /proc/locks says which files are locked and by whom they were
 * locked; /proc/PID/fdinfo says who has the locked descriptor open now (the
 * child that kept a lease after its parent exited). Other users' fdinfo is
 * root's to read: where none could be read, /proc/locks' pid stands in. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "weights/lease.h"

/* "maj:min:ino" as /proc/locks and fdinfo print a file, for the NIDS nodes
 * of id_node[]. */
static char ids[PARSE_MAX_NODES][48];
static unsigned id_node[PARSE_MAX_NODES], nids;

static void add_pid(struct lease_holders *who, pid_t pid)
{
	for (unsigned i = 0; i < who->count && i < LEASE_MAX_PIDS; i++)
		if (who->pid[i] == pid)
			return;
	if (who->count < LEASE_MAX_PIDS)
		who->pid[who->count] = pid;
	who->count++;
}

static void file_ids(const bool has[PARSE_MAX_NODES])
{
	char path[512];
	struct stat st;

	nids = 0;
	for (unsigned n = 0; n < PARSE_MAX_NODES; n++) {
		if (!has[n])
			continue;
		snprintf(path, sizeof(path), "%s/node%u", gw_dir(), n);
		if (stat(path, &st) < 0)
			continue;
		snprintf(ids[nids], sizeof(ids[nids]), "%02x:%02x:%lu", major(st.st_dev),
			 minor(st.st_dev), (unsigned long)st.st_ino);
		id_node[nids++] = n;
	}
}

/* The node whose file a "... FLOCK ... maj:min:ino ..." line names, or -1. */
static int node_of_line(const char *line)
{
	if (!strstr(line, "FLOCK"))
		return -1;
	for (unsigned i = 0; i < nids; i++) {
		size_t len = strlen(ids[i]);
		const char *p = strstr(line, ids[i]);

		if (p && p > line && p[-1] == ' ' && p[len] == ' ')
			return (int)id_node[i];
	}
	return -1;
}

/* /proc/locks: which nodes are locked, and the pids that locked them.
 * Returns how many lines name a node. Waiters ("->") hold nothing. */
static unsigned proc_locks(struct lease_holders locked[PARSE_MAX_NODES])
{
	FILE *f = fopen("/proc/locks", "re");
	char line[256];
	unsigned found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		int node = node_of_line(line), pid;

		if (node < 0 || strstr(line, "->") ||
		    sscanf(line, "%*d: FLOCK %*s %*s %d", &pid) != 1)
			continue;
		add_pid(&locked[node], pid);
		found++;
	}
	fclose(f);
	return found;
}

/* The nodes whose locks /proc/PID/fdinfo/FD shows. */
static void fdinfo_locks(pid_t pid, const char *fd, struct lease_holders who[PARSE_MAX_NODES])
{
	char path[320], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", pid, fd);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int node = strncmp(line, "lock:", 5) == 0 ? node_of_line(line) : -1;

		if (node >= 0)
			add_pid(&who[node], pid);
	}
	fclose(f);
}

/* Every descriptor of PID that is one of the weight files. */
static void scan_pid(pid_t pid, const struct lease_holders locked[PARSE_MAX_NODES],
		     struct lease_holders who[PARSE_MAX_NODES], bool *readable)
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
		node = node_of_line(id);
		if (node >= 0 && locked[node].count)
			fdinfo_locks(pid, d->d_name, who);
	}
	*readable = true;
	closedir(dir);
}

static void scan_proc(const struct lease_holders locked[PARSE_MAX_NODES],
		      struct lease_holders who[PARSE_MAX_NODES], pid_t *unreadable)
{
	DIR *proc = opendir("/proc");
	struct dirent *d;

	if (!proc)
		return;
	while ((d = readdir(proc))) {
		bool readable = false;
		pid_t pid;

		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		pid = (pid_t)atoi(d->d_name);
		scan_pid(pid, locked, who, &readable);
		if (!readable)
			*unreadable = pid;
	}
	closedir(proc);
}

/* WHO[n], for each node of HAS: the processes that hold its lease. Where
 * some process's descriptors could not be read (another user's, without
 * root) and nobody was found, /proc/locks' pids are the answer. Returns the
 * number of leased nodes. */
int lease_holders_all(struct lease_holders who[PARSE_MAX_NODES], const bool has[PARSE_MAX_NODES])
{
	static struct lease_holders locked[PARSE_MAX_NODES];
	pid_t unreadable = 0;
	int leased = 0;

	memset(locked, 0, sizeof(locked));
	memset(who, 0, PARSE_MAX_NODES * sizeof(who[0]));
	file_ids(has);
	if (!proc_locks(locked))
		return 0;
	scan_proc(locked, who, &unreadable);
	for (unsigned n = 0; n < PARSE_MAX_NODES; n++) {
		if (!locked[n].count)
			continue;
		if (!who[n].count && unreadable)
			who[n] = locked[n];
		leased += who[n].count > 0;
	}
	return leased;
}

/* "1234 1240" (and "+N more") */
void lease_format_pids(const struct lease_holders *who, char *buf, size_t len)
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

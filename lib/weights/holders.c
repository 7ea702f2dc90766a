// SPDX-License-Identifier: GPL-2.0-or-later
/* Who holds the leases (this file owns finding them): the live processes with a
 * locked descriptor on a weight file, and the live processes a lease record
 * names (record.c). In a run's way are the others: its own locks and
 * records (and its numactl2 parent's) are no lease of another job.
 * /proc/locks says which files are locked and by whom they were locked:
 * while those a message would name run (or are zombies not yet reaped),
 * they are the holders (numactl2 execs: the locker is the job), and the
 * locks are counted. Once one has ended, /proc/PID/fdinfo says who has the
 * locked descriptor open now (the child that kept a lease after its parent
 * exited), at the cost of a look at every process; other users' fdinfo is
 * root's to read: where none could be read, /proc/locks' pids stand in.
 * A node with LEASE_MAX_PIDS running lockers (other than this run) has all
 * a message names: it is leased, "and more"; /proc/locks is read no
 * further once every node asked about has them, and neither fdinfo nor the
 * records are looked at for it (a thousand holders cost what sixteen do). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "weights/holders.h"
#include "weights/pidset.h"
#include "weights/record.h"
#include "weights/table.h"

/* One look for holders: "maj:min:ino" as /proc/locks and fdinfo print a
 * file, and the file itself (file[]), for the nids nodes of id_node[]; the
 * pids /proc/locks names for each node (locked[]); the holders found
 * (held[]); and the nodes whose holders a message has in full (done[]).
 * Every table has count entries. */
struct scan {
	bool others;			/* only the holders that are not this run */
	pid_t self;
	int err;			/* -ENOMEM once a set could not grow */
	unsigned count, nids, ndone;
	char (*ids)[48];
	struct stat *file;
	unsigned *id_node;
	struct pidset *locked, *held;
	bool *done;
};

static void add_pid(struct scan *s, struct pidset *set, pid_t pid)
{
	if (pidset_add(set, pid) < 0)
		s->err = -ENOMEM;
}

static int scan_init(struct scan *s, unsigned count)
{
	s->count = count;
	s->ids = calloc(count, sizeof(s->ids[0]));
	s->file = calloc(count, sizeof(s->file[0]));
	s->id_node = calloc(count, sizeof(s->id_node[0]));
	s->locked = calloc(count, sizeof(s->locked[0]));
	s->held = calloc(count, sizeof(s->held[0]));
	s->done = calloc(count, sizeof(s->done[0]));
	return s->ids && s->file && s->id_node && s->locked && s->held && s->done ? 0 : -ENOMEM;
}

static void scan_free(struct scan *s)
{
	for (unsigned n = 0; n < s->count && s->locked && s->held; n++) {
		pidset_free(&s->locked[n]);
		pidset_free(&s->held[n]);
	}
	free(s->ids);
	free(s->file);
	free(s->id_node);
	free(s->locked);
	free(s->held);
	free(s->done);
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

/* Does PID run (or is it a zombie not yet reaped)? Another user's too. */
static bool runs(pid_t pid)
{
	return kill(pid, 0) == 0 || errno != ESRCH;
}

/* A locker of NODE that runs and is not this run is one of its holders: with
 * LEASE_MAX_PIDS of them, NODE is done (a message names no more). */
static void confirm(struct scan *s, int node, pid_t pid)
{
	struct pidset *held = &s->held[node];

	if (s->done[node] || (s->others && pid == s->self) || !runs(pid))
		return;
	for (size_t i = 0; i < held->count; i++)
		if (held->pid[i] == pid)
			return;
	add_pid(s, held, pid);
	if (held->count == LEASE_MAX_PIDS) {
		s->done[node] = true;
		s->ndone++;
	}
}

/* One line of /proc/locks. */
static void lock_line(struct scan *s, const char *line, unsigned *found)
{
	int node = node_of_line(s, line), pid;

	if (node < 0 || strstr(line, "->") || sscanf(line, "%*d: FLOCK %*s %*s %d", &pid) != 1)
		return;
	add_pid(s, &s->locked[node], pid);
	confirm(s, node, pid);
	(*found)++;
}

/* The next read of /proc/locks: a page first (where the lockers asked about
 * are, most of the time: the kernel lists the newest locks first), then 64
 * KiB at a time (the kernel walks its list of locks from the start for
 * every read(): large reads, few walks, however many locks there are). */
static size_t read_size(size_t reads)
{
	return reads ? 1 << 16 : 1 << 12;
}

/* /proc/locks, until every node asked about is done: which nodes are
 * locked, and the pids that locked them. Returns how many lines name a
 * node. Waiters ("->") hold nothing. */
static unsigned proc_locks(struct scan *s)
{
	static char buf[(1 << 16) + 256];
	int fd = open("/proc/locks", O_RDONLY | O_CLOEXEC);
	size_t len = 0, reads = 0;
	unsigned found = 0;
	ssize_t got = 1;

	if (fd < 0)
		return 0;
	while (got > 0 && s->ndone < s->nids) {
		char *line = buf, *nl;

		got = read(fd, buf + len, read_size(reads++));
		len += got > 0 ? (size_t)got : 0;
		buf[len] = '\0';
		for (; s->ndone < s->nids && (nl = strchr(line, '\n')); line = nl + 1) {
			*nl = '\0';
			lock_line(s, line, &found);
		}
		/* A line cut by the read, to be completed by the next. */
		len = (size_t)(buf + len - line) < 256 ? (size_t)(buf + len - line) : 0;
		memmove(buf, line, len);
	}
	close(fd);
	return found;
}

/* The nodes whose locks /proc/PID/fdinfo/FD shows. */
static void fdinfo_locks(struct scan *s, pid_t pid, const char *fd)
{
	char path[320], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", pid, fd);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int node = strncmp(line, "lock:", 5) == 0 ? node_of_line(s, line) : -1;

		if (node >= 0 && !s->done[node])
			add_pid(s, &s->held[node], pid);
	}
	fclose(f);
}

/* Every descriptor of PID that is one of the weight files. */
static void scan_pid(struct scan *s, pid_t pid, bool *readable)
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
		if (node >= 0 && !s->done[node] && s->locked[node].count)
			fdinfo_locks(s, pid, d->d_name);
	}
	*readable = true;
	closedir(dir);
}

static void scan_proc(struct scan *s, pid_t *unreadable)
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
		if (s->others && pid == s->self)
			continue;
		scan_pid(s, pid, &readable);
		if (!readable)
			*unreadable = pid;
	}
	closedir(proc);
}

/* Do the lockers of the nodes not done all run? A lock of this run's own may
 * be shared with its children (--restore-weights): who has it is fdinfo's
 * to say. The lockers that run are the holders so far (confirm()). */
static bool lockers_run(struct scan *s)
{
	for (unsigned n = 0; n < s->count; n++) {
		if (s->done[n])
			continue;
		pidset_sort(&s->locked[n]);
		if (s->others && pidset_has(&s->locked[n], s->self))
			return false;
		if (s->locked[n].count != s->held[n].count)
			return false;
	}
	return true;
}

/* The holders by descriptor: the lockers while those named run, else those
 * fdinfo names (or the lockers, where some process could not be read). */
static void locks_held(struct scan *s)
{
	pid_t unreadable = 0;
	bool run;

	if (!proc_locks(s))
		return;
	run = lockers_run(s);
	for (unsigned n = 0; !run && n < s->count; n++)
		if (!s->done[n])
			s->held[n].count = 0;
	if (!run)
		scan_proc(s, &unreadable);
	for (unsigned n = 0; n < s->count; n++) {
		const struct pidset *l = &s->locked[n];
		bool lockers = !s->done[n] && (run || (!s->held[n].count && unreadable));

		for (size_t i = 0; lockers && i < l->count; i++)
			if (!(s->others && l->pid[i] == s->self))
				add_pid(s, &s->held[n], l->pid[i]);
		pidset_sort(&s->held[n]);
	}
}

/* The node whose weight file record R names, or -1. */
static int node_of_record(const struct scan *s, const struct lease_record *r)
{
	for (unsigned i = 0; i < s->nids; i++)
		if (s->file[i].st_dev == r->dev && s->file[i].st_ino == r->ino)
			return (int)s->id_node[i];
	return -1;
}

/* A record of a process already found holding its node tells nothing
 * more: it need not be checked (a thousand holders, a thousand records). */
static bool known(const struct lease_record *r, void *arg)
{
	const struct scan *s = arg;
	int node = node_of_record(s, r);

	return node >= 0 && (s->done[node] || pidset_has(&s->held[node], r->pid));
}

/* A running process's record: a holder of the node whose file it names. */
static void recorded(const struct lease_record *r, void *arg)
{
	struct scan *s = arg;
	int node = node_of_record(s, r);

	if (node >= 0 && !s->done[node] && !(s->others && r->this_run))
		add_pid(s, &s->held[node], r->pid);
}

/* WHO[n] from the set of holders: the count, and the first PIDs; MORE when
 * there may be others (the set was not looked for past LEASE_MAX_PIDS). */
static void fill(struct lease_holders *who, struct pidset *held, bool more)
{
	pidset_sort(held);
	who->count = (unsigned)held->count;
	who->more = more;
	for (size_t i = 0; i < held->count && i < LEASE_MAX_PIDS; i++)
		who->pid[i] = held->pid[i];
}

/* WHO[n], for each node of HAS (both COUNT long): the processes that hold
 * its lease (with OTHERS, but this run), by descriptor and by record.
 * Returns the number of leased nodes, or -ENOMEM. */
int holders_find(struct lease_holders *who, const bool *has, unsigned count, bool others)
{
	struct scan s = { .others = others, .self = getpid() };
	int leased = 0;

	memset(who, 0, count * sizeof(who[0]));
	if (scan_init(&s, count) < 0) {
		scan_free(&s);
		return -ENOMEM;
	}
	file_ids(&s, has);
	locks_held(&s);
	if (s.ndone < s.nids)
		record_scan(known, recorded, &s);
	for (unsigned n = 0; n < count; n++) {
		fill(&who[n], &s.held[n], s.done[n]);
		leased += who[n].count > 0;
	}
	scan_free(&s);
	return s.err ? s.err : leased;
}

/* The processes other than this run that records name as holders of the
 * weight file open on FD: a lease that outlives every descriptor (lease.c).
 * 0 or -errno. */
int holders_recorded(int fd, struct lease_holders *who)
{
	struct pidset held = { 0 };
	struct scan s = { .others = true, .count = 1, .nids = 1, .id_node = (unsigned[]){ 0 },
			  .held = &held, .done = (bool[]){ false } };
	struct stat st;

	memset(who, 0, sizeof(*who));
	if (fstat(fd, &st) < 0)
		return -errno;
	s.file = &st;
	record_scan(NULL, recorded, &s);
	fill(who, &held, false);
	pidset_free(&held);
	return s.err;
}

/* The holders of one node's lease in this run's way: 0 or -ENOMEM. */
int holders_of_node(unsigned node, struct lease_holders *who)
{
	unsigned count = node + 1;
	bool *has = calloc(count, sizeof(*has));
	struct lease_holders *all = calloc(count, sizeof(*all));
	int rc = -ENOMEM;

	if (has && all) {
		has[node] = true;
		rc = holders_find(all, has, count, true);
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
	rc = holders_find(who, has, count, false);
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

/* "1234 1240" (and "+N more", or "and more" where they were not counted) */
void holders_format_pids(const struct lease_holders *who, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < who->count && i < LEASE_MAX_PIDS && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? " " : "", who->pid[i]);
	if (who->more && used < len)
		snprintf(buf + used, len - used, " and more");
	else if (who->count > LEASE_MAX_PIDS && used < len)
		snprintf(buf + used, len - used, " +%u more", who->count - LEASE_MAX_PIDS);
	if (!who->count)
		snprintf(buf, len, "unknown");
}

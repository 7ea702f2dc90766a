// SPDX-License-Identifier: GPL-2.0-or-later
/* Leases on the kernel's global interleave weights: taking, keeping and
 * dropping the lock on one node's weight file, and the record of who holds
 * it. The transaction that decides and writes under them is txn.c.
 *
 * Design. A lease has two holders, and lasts while either is alive:
 *   - the descriptor: a shared flock() on the weight file itself,
 *     /sys/kernel/mm/mempolicy/weighted_interleave/nodeN, through a
 *     read-only descriptor opened without O_CLOEXEC. It survives exec and
 *     fork, so the job and every process it forks share it; the kernel drops
 *     the lock when the last of them closes it, SIGKILL included;
 *   - the job: a record (record.c) naming the process that took the lease by
 *     its PID and start time. numactl2 execs into the job, so that is the
 *     job's own PID; a job that closes the descriptors it inherited
 *     (close_range(3, ~0), Python's close_fds, daemons) keeps its lease for
 *     as long as it runs. With --report or --restore-weights numactl2 stays
 *     the parent and the record names numactl2 itself: it takes the lease
 *     under the directory lock before the job exists, lives until the job
 *     has ended, and --restore-weights removes its own records before it
 *     looks for the leases of others.
 * A record counts only while a process with that PID and that start time
 * runs, and only when that process could have made it (record.c): a PID the
 * kernel gave to another process since (PID reuse) is not the holder, nor
 * is a process in whose name someone else made the file; such records are
 * ignored and removed. So nothing has to clean up after a crash either way.
 *   - Same weight: another shared lock (and another record). Jobs that agree
 *     share the node.
 *   - Another weight: numactl2 must first take the exclusive lock without
 *     blocking, and find no live record; both fail exactly while a live job
 *     holds the node. It writes, then turns the lock into a shared one and
 *     records itself (a job) or drops it (--set/--reset/--auto-global-weights).
 *   - The weight held is the weight in the table: while a lease exists no
 *     participant can change it, so the table is its own record.
 *   - Every decision and change is made under the existing lock on the
 *     directory (txn.c): records are made and checked under it, so the
 *     exclusive-to-shared switch, which flock() does not make atomic, cannot
 *     be overtaken by another numactl2; and the node locks are dropped or
 *     made shared, and recorded, before that lock is let go, so the next run
 *     never mistakes a finished change for a lease or misses a new one.
 * Why the lock is on the sysfs file: it is the object being protected, it
 * exists exactly while the node has a weight, any user can open it for
 * reading (so an unprivileged job whose weights match gets a lease without
 * any directory it could not create), and nobody can remove or replace it
 * while it is held. The records live in /dev/shm (record.c says why): any
 * user can create one there and only its owner or root remove it. Where
 * /dev/shm is missing or unsafe (writable by others without the sticky bit,
 * or owned by someone else), no record is made, the front end says so, and
 * that lease is the descriptor alone. A user can record leases for their
 * own processes only: the same as holding a shared flock() on the weight
 * file, and undone the same way (--force, as root, which also removes the
 * records it overrode). The test build keeps its records beside its copy
 * of the table (NUMACTL2_SYSFS_WI) or in NUMACTL2_LEASE_DIR.
 * Holders are found in /proc/PID/fdinfo "lock:" lines, which name the
 * processes that have the locked descriptor open now (the lock's own pid in
 * /proc/locks is the process that took it, gone once it forked and exited),
 * and in the records of running processes.
 * The job is the recorded process and whoever holds the descriptor, not its
 * descendants: a daemon that forks twice and closes every descriptor (the
 * classic daemon(3)) loses its lease when the process numactl2 started
 * exits, which is right after the fork: the daemon then runs on without a
 * lease, and --show lists none. Such a program keeps its lease when run in
 * the foreground (its --foreground/-f/--nodaemon option, or systemd
 * Type=simple), or when it keeps one inherited descriptor open.
 * Limits: that daemon case; processes that write the files directly,
 * numactl -w and older numactl2 do not take part; the kernel's auto mode
 * (6.16+) and memory hotplug recompute weights without asking; records are
 * seen only by runs that share the job's /dev/shm and PID namespace (the
 * flock() still holds across containers, without a PID to show); a
 * --shm/--file region's policy outlives numactl2 and its lease. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "weights/lease.h"
#include "weights/record.h"
#include "weights/table.h"

/* No lease yet, room for NNODES: 0 or -ENOMEM. */
int lease_init(struct lease *l, unsigned nnodes)
{
	memset(l, 0, sizeof(*l));
	l->fd = malloc(nnodes * sizeof(l->fd[0]));
	l->record = calloc(nnodes, sizeof(l->record[0]));
	l->overrode = calloc(nnodes, sizeof(l->overrode[0]));
	if (!l->fd || !l->record || !l->overrode) {
		lease_free(l);
		return -ENOMEM;
	}
	l->nnodes = nnodes;
	return 0;
}

void lease_free(struct lease *l)
{
	lease_drop(l);
	free(l->fd);
	free(l->record);
	free(l->overrode);
	l->fd = NULL;
	l->record = NULL;
	l->overrode = NULL;
	l->nnodes = l->span = 0;
}

/* The lease descriptor: read-only (a job must not be able to write the table
 * through it), deliberately without O_CLOEXEC, and like the weight files
 * themselves never a symlink or anything but a regular file. */
static int open_node(unsigned node)
{
	return gw_open_node(node, O_RDONLY);
}

static int lock_nb(int fd, int how)
{
	return flock(fd, how | LOCK_NB) < 0 ? -errno : 0;
}

/* This run's leases end: its records, its locks, and what it overrode. */
void lease_drop(struct lease *l)
{
	for (unsigned i = 0; i < l->span; i++) {
		if (l->record[i][0])
			record_remove(l->record[i]);
		l->record[i][0] = '\0';
		l->overrode[i] = false;
		if (l->fd[i] >= 0)
			close(l->fd[i]);
		l->fd[i] = -1;
	}
}

/* After the change: a job keeps a shared lock on each of its nodes, and a
 * record of this process as their holder. Where a record could not be made,
 * l->said.record_err says why, for the front end to tell: that lease holds only
 * while a descriptor stays open, as leases did before records. */
void lease_keep(struct lease *l)
{
	l->said.record_err = 0;
	for (unsigned i = 0; i < l->span; i++) {
		int rc;

		if (l->fd[i] < 0)
			continue;
		(void)flock(l->fd[i], LOCK_SH);
		rc = record_make(l->fd[i], l->record[i]);
		if (rc < 0)
			l->record[i][0] = '\0';
		if (rc < 0 && !l->said.record_err)
			l->said.record_err = rc;
	}
}

/* Once the writes are done: the records of the leases --force overrode go
 * (where this user may), or they would refuse the next change too. */
void lease_clear_overridden(const struct lease *l)
{
	for (unsigned i = 0; i < l->span; i++)
		if (l->overrode[i] && l->fd[i] >= 0)
			record_clear(l->fd[i]);
}

/* --force: whom it overrode. Only then is /proc scanned under the directory
 * lock; this run, which holds the exclusive locks by now, is never among
 * them (holders_of_node()). 0 or -ENOMEM. */
int lease_name_overridden(struct lease *l)
{
	for (unsigned i = 0; i < l->said.noverridden; i++) {
		int rc = holders_of_node(l->said.overridden[i].node, &l->said.overridden[i].who);

		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The holders are looked up later, with the directory lock let go: a scan
 * of /proc must not hold up every other run. */
static void conflict_fill(struct lease_conflict *c, unsigned node, unsigned held, unsigned want)
{
	c->node = node;
	c->held = held;
	c->want = want;
	c->who.count = 0;
}

/* No lease on the weight file open on FD, neither by descriptor (then the
 * exclusive lock is taken) nor by record: 0, -EWOULDBLOCK or -errno. */
static int unleased(int fd)
{
	struct lease_holders who;
	int rc = lock_nb(fd, LOCK_EX);

	if (rc == 0)
		rc = holders_recorded(fd, &who);
	return rc == 0 && who.count ? -EWOULDBLOCK : rc;
}

/* Proof that no lease holds NODE: -EBUSY with *c when one does (unless
 * FORCE, which notes whom it overrides). */
static int exclusive(struct lease *l, unsigned node, unsigned held, unsigned want, bool force,
		     struct lease_conflict *c)
{
	int rc = unleased(l->fd[node]);

	if (rc != -EWOULDBLOCK)
		return rc;
	conflict_fill(c, node, held, want);
	if (!force)
		return -EBUSY;
	l->overrode[node] = true;
	if (l->said.noverridden < LEASE_MAX_OVERRIDDEN)
		l->said.overridden[l->said.noverridden++] = *c;
	return 0;
}

/* One node of a request (NODE < l->nnodes): a shared lock where the table
 * already has the weight (nothing to write, no privilege needed), else the
 * exclusive lock. Returns 1 when ASK's weight must be written over *HELD,
 * 0 when nothing is to be written, or -errno (-EBUSY with *c). */
int lease_node(struct lease *l, unsigned node, struct lease_ask ask, bool force,
	       struct lease_conflict *c, unsigned *held)
{
	unsigned cur;
	int rc = gw_read(node, &cur);

	/* -w alone on a node without a weight file (6.16+: no memory) asks nothing of it. */
	if (rc == -ENOENT && ask.kind == LEASE_AS_IS)
		return 0;
	if (rc < 0)
		return rc;
	*held = cur;
	while (l->span <= node)
		l->fd[l->span++] = -1;
	l->fd[node] = open_node(node);
	if (l->fd[node] < 0)
		return l->fd[node];
	if (ask.kind == LEASE_AS_IS || (ask.kind == LEASE_WEIGHT && ask.weight == cur)) {
		rc = lock_nb(l->fd[node], LOCK_SH);
		return rc == -EWOULDBLOCK ? exclusive(l, node, cur, cur, force, c) : rc;
	}
	rc = exclusive(l, node, cur, ask.kind == LEASE_EXCLUSIVE ? cur : ask.weight, force, c);
	if (rc < 0 || ask.kind == LEASE_EXCLUSIVE)
		return rc;
	return 1;
}

/* Is NODE free of leases? Fills *c when it is not. For --restore-weights,
 * under the directory lock: no lease can be taken before it is released, so
 * the answer holds until then without keeping the exclusive lock. */
bool lease_try_exclusive(unsigned node, struct lease_conflict *c)
{
	int fd = open_node(node);
	unsigned cur = 0;
	bool ok;

	if (fd < 0)
		return false;
	ok = unleased(fd) == 0;
	close(fd);
	if (!ok) {
		(void)gw_read(node, &cur);
		conflict_fill(c, node, cur, cur);
		(void)holders_of_node(node, &c->who);
	}
	return ok;
}

/* Leases on the kernel's global interleave weights.
 *
 * Design. A lease is a shared flock() on the weight file itself,
 * /sys/kernel/mm/mempolicy/weighted_interleave/nodeN, through a read-only
 * descriptor opened without O_CLOEXEC. The descriptor survives exec and
 * fork, so the job and every process it forks share it; the kernel drops
 * the lock when the last of them closes it, which includes dying of
 * SIGKILL. Nothing has to clean up after a crash.
 *   - Same weight: another shared lock. Jobs that agree share the node.
 *   - Another weight: numactl2 must first take the exclusive lock without
 *     blocking; that fails exactly while a live job holds the node. It writes,
 *     then turns the lock into a shared one (a job) or drops it
 *     (--set/--reset/--auto-global-weights).
 *   - The weight held is the weight in the table: while a lease exists no
 *     participant can change it, so the table is its own record.
 *   - Every decision and change is made under the existing lock on the
 *     directory (gw_begin), so the exclusive-to-shared switch, which flock()
 *     does not make atomic, cannot be overtaken by another numactl2; and the
 *     node locks are dropped or made shared before that lock is let go, so
 *     the next run never mistakes a finished change for a lease.
 * Why the sysfs file and not a lock file under /run: it is the object being
 * protected, it exists exactly while the node has a weight, any user can open
 * it for reading (so an unprivileged job whose weights match gets a lease
 * without any directory it could not create), and nobody can remove or
 * replace it while it is held; a lock directory could fill up, be missing, or
 * lose a file under a live lease. The test build's copy of the table
 * (NUMACTL2_SYSFS_WI) carries its locks the same way.
 * Holders are found in /proc/PID/fdinfo "lock:" lines, which name the
 * processes that have the locked descriptor open now (the lock's own pid in
 * /proc/locks is the process that took it, gone once it forked and exited).
 * Limits: processes that write the files directly, numactl -w and older
 * numactl2 do not take part; the kernel's auto mode (6.16+) and memory
 * hotplug recompute weights without asking; a job that closes descriptors
 * it did not open (closefrom, daemons) gives its lease up; a --shm/--file
 * region's policy outlives numactl2 and its lease. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "weights/lease.h"

#define LEASE_POLL_MS 20
#define LEASE_ENDED_RETRIES 8

void lease_init(struct lease *l)
{
	memset(l, 0, sizeof(*l));
	for (unsigned i = 0; i < PARSE_MAX_NODES; i++)
		l->fd[i] = -1;
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

void lease_drop(struct lease *l)
{
	for (unsigned i = 0; i < PARSE_MAX_NODES; i++) {
		if (l->fd[i] >= 0)
			close(l->fd[i]);
		l->fd[i] = -1;
	}
}

/* After the change: a job keeps a shared lock on each of its nodes. */
static void holders_of(unsigned node, struct lease_holders *who)
{
	static bool has[PARSE_MAX_NODES];
	static struct lease_holders all[PARSE_MAX_NODES];

	memset(has, 0, sizeof(has));
	has[node] = true;
	(void)lease_holders_all(all, has);
	*who = all[node];
}

/* --force: whom it overrides. Only then is /proc scanned under the directory
 * lock; this run holds no lock on those nodes yet, so it does not name itself. */
static void name_overridden(struct lease *l)
{
	for (unsigned i = 0; i < l->noverridden; i++)
		holders_of(l->overridden[i].node, &l->overridden[i].who);
}

void lease_keep(struct lease *l)
{
	for (unsigned i = 0; i < PARSE_MAX_NODES; i++)
		if (l->fd[i] >= 0)
			(void)flock(l->fd[i], LOCK_SH);
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

/* The exclusive lock, proof that no lease holds NODE: -EBUSY with *c when
 * one does (unless FORCE, which notes whom it overrides). */
static int exclusive(struct lease *l, unsigned node, unsigned held, unsigned want, bool force,
		     struct lease_conflict *c)
{
	int rc = lock_nb(l->fd[node], LOCK_EX);

	if (rc != -EWOULDBLOCK)
		return rc;
	conflict_fill(c, node, held, want);
	if (!force)
		return -EBUSY;
	if (l->noverridden < LEASE_MAX_OVERRIDDEN)
		l->overridden[l->noverridden++] = *c;
	return 0;
}

/* One node of a request: a shared lock where the table already has the
 * weight (nothing written, no privilege needed), else the exclusive lock and
 * the write staged in T. */
static int lease_node(struct lease *l, struct gw_txn *t, unsigned node, unsigned want,
		      bool force, struct lease_conflict *c)
{
	unsigned cur;
	int rc = gw_read(node, &cur);

	/* -w alone on a node without a weight file (6.16+: no memory) asks nothing of it. */
	if (rc == -ENOENT && want == LEASE_AS_IS)
		return 0;
	if (rc < 0)
		return rc;
	l->fd[node] = open_node(node);
	if (l->fd[node] < 0)
		return l->fd[node];
	if (want == LEASE_AS_IS || want == cur) {
		rc = lock_nb(l->fd[node], LOCK_SH);
		return rc == -EWOULDBLOCK ? exclusive(l, node, cur, cur, force, c) : rc;
	}
	rc = exclusive(l, node, cur, want == LEASE_EXCLUSIVE ? cur : want, force, c);
	if (rc < 0 || want == LEASE_EXCLUSIVE)
		return rc;
	return gw_stage(t, node, (uint8_t)want);
}

static int attempt(struct lease *l, struct gw_txn *t, const struct lease_request *r,
		   struct lease_conflict *c, unsigned *failed_node)
{
	int rc = gw_begin(t);

	if (rc < 0)
		return rc;
	for (unsigned n = 0; n < PARSE_MAX_NODES; n++) {
		if (!r->want[n])
			continue;
		rc = lease_node(l, t, n, r->want[n], r->force, c);
		if (rc < 0) {
			*failed_node = n;
			lease_drop(l);
			gw_end(t);
			return rc;
		}
	}
	return 0;
}

static unsigned long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)ts.tv_sec * 1000 + (unsigned long)ts.tv_nsec / 1000000;
}

/* Takes the directory lock and, node by node, the leases of R, staging in T
 * the writes they need; nothing is written yet. On success the directory
 * lock is still held (gw_commit, then gw_end). -EBUSY with *c: a live lease
 * is in the way (with --wait: still, after wait_secs). */
int lease_acquire(struct lease *l, struct gw_txn *t, const struct lease_request *r,
		  struct lease_conflict *c, unsigned *failed_node)
{
	unsigned long start = now_ms();
	const struct timespec poll = { 0, LEASE_POLL_MS * 1000000L };
	unsigned ended = 0;

	for (;;) {
		int rc = attempt(l, t, r, c, failed_node);
		bool timed_out;

		l->waited_ms = (unsigned)(now_ms() - start);
		if (rc == 0)
			name_overridden(l);
		if (rc != -EBUSY)
			return rc;
		timed_out = !r->wait || (r->wait_secs && l->waited_ms >= r->wait_secs * 1000UL);
		if (timed_out || !l->waited) {
			holders_of(c->node, &c->who);
			/* Nobody holds it any more: the lease ended since; try again. */
			if (!c->who.count && ++ended < LEASE_ENDED_RETRIES)
				continue;
		}
		if (timed_out)
			return rc;
		if (!l->waited)
			l->waited_for = *c;
		l->waited = true;
		nanosleep(&poll, NULL);
	}
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
	ok = lock_nb(fd, LOCK_EX) == 0;
	close(fd);
	if (!ok) {
		(void)gw_read(node, &cur);
		conflict_fill(c, node, cur, cur);
		holders_of(node, &c->who);
	}
	return ok;
}

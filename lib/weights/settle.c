// SPDX-License-Identifier: GPL-2.0-or-later
/* The table back as it was (baseline.c says what that is and who needs
 * it otherwise): once no live job leases a node whose weight differs from
 * the baseline, each such node gets its weight back, all of them or none,
 * then the kernel's auto switch when it was on, and the baseline goes.
 * Where the kernel cannot turn auto back on (no bandwidth data: ENODEV)
 * the weights are back all the same, and the caller says why auto is not.
 * Turning auto on recomputes every node from bandwidth, which is what the
 * nodes at their baseline weights already have: it changes nothing a
 * running job leases. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "weights/baseline.h"
#include "weights/lease.h"
#include "weights/record.h"
#include "weights/settle.h"
#include "weights/table.h"

/* The nodes to write back: the write descriptor and the weight now. */
struct back {
	unsigned count;
	int *fd;
	uint8_t *now;
};

static int back_init(struct back *k, unsigned count)
{
	k->count = count;
	k->fd = malloc(count * sizeof(k->fd[0]));
	k->now = calloc(count, sizeof(k->now[0]));
	if (!k->fd || !k->now)
		return -ENOMEM;
	for (unsigned n = 0; n < count; n++)
		k->fd[n] = -1;
	return 0;
}

static void back_free(struct back *k)
{
	for (unsigned n = 0; k->fd && n < k->count; n++)
		if (k->fd[n] >= 0)
			close(k->fd[n]);
	free(k->fd);
	free(k->now);
}

static int fail(struct settle *s, int node, int rc)
{
	s->state = SETTLE_FAILED;
	s->failed_node = node;
	s->err = rc;
	return rc;
}

/* The weight file whose records own_record() looks for, and whether one of
 * this run's own is there. */
struct own {
	const struct stat *file;
	bool found;
};

static void own_record(const struct lease_record *r, void *arg)
{
	struct own *o = arg;

	if (r->this_run && r->dev == o->file->st_dev && r->ino == o->file->st_ino)
		o->found = true;
}

/* Does this run's own job lease NODE (a job that execs numactl2 again, or
 * the numactl2 it runs under)? lease_try_exclusive() leaves such records
 * out, as a change must; but that job still runs and needs the weights
 * until this run changes them. */
static bool held_by_this_run(unsigned node, struct lease_conflict *c)
{
	int fd = gw_open_node(node, O_RDONLY | O_CLOEXEC);
	struct stat st;
	struct own o = { .file = &st };

	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0)
		record_scan(NULL, own_record, &o);
	close(fd);
	if (o.found) {
		memset(&c->who, 0, sizeof(c->who));
		c->who.pid[c->who.count++] = getpid();
	}
	return o.found;
}

/* Opens each node that differs from B for writing, unless a job leases
 * one (lease.c: a live process its record names, or one that keeps its
 * lease descriptor open): then SETTLE_HELD and nothing is written.
 * 0 or -errno. */
static int stage(const struct baseline *b, struct back *k, struct settle *s)
{
	for (unsigned n = 0; n < b->count; n++) {
		struct lease_conflict c;
		unsigned now;
		int fd;

		if (!b->weight[n] || gw_read(n, &now) < 0 || now == b->weight[n])
			continue;	/* no node file now (hotplug): nothing to put back */
		if (!lease_try_exclusive(n, &c) || held_by_this_run(n, &c)) {
			s->state = SETTLE_HELD;
			s->held_node = n;
			s->who = c.who;
			return 0;
		}
		fd = gw_open_node(n, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return fail(s, (int)n, fd);
		k->fd[n] = fd;
		k->now[n] = (uint8_t)now;
	}
	return 0;
}

/* Every staged node at its baseline weight, or on the first failure the
 * ones written back to what they had. */
static int write_back(const struct baseline *b, struct back *k, struct settle *s)
{
	size_t used = 0;

	for (unsigned n = 0; n < b->count; n++) {
		int rc;

		if (k->fd[n] < 0)
			continue;
		rc = gw_write(k->fd[n], n, b->weight[n]);
		if (rc < 0) {
			for (unsigned m = 0; m < n; m++)
				if (k->fd[m] >= 0)
					(void)gw_write(k->fd[m], m, k->now[m]);
			s->put_back[0] = '\0';
			return fail(s, (int)n, rc);
		}
		if (used < sizeof(s->put_back))
			used += (size_t)snprintf(s->put_back + used, sizeof(s->put_back) - used,
						 "%snode%u %u->%u", used ? ", " : "", n, k->now[n],
						 b->weight[n]);
	}
	return 0;
}

static void auto_back(const struct baseline *b, struct settle *s)
{
	int rc;

	if (b->auto_mode != GW_AUTO_ON || gw_read_auto() == GW_AUTO_ON)
		return;
	rc = gw_enable_auto();
	if (rc == 0)
		s->auto_back = true;
	else
		s->auto_err = rc;
}

/* With the table's directory lock held. 0 with *s filled in, or -errno
 * (SETTLE_FAILED). */
int settle_table(struct settle *s)
{
	struct baseline b;
	struct back k = { 0 };
	int rc;

	memset(s, 0, sizeof(*s));
	s->failed_node = -1;
	rc = baseline_read(&b);
	if (rc == -ESTALE) {
		/* Said once: the file goes. */
		baseline_remove();
		s->state = SETTLE_STALE;
		return 0;
	}
	if (rc <= 0)
		return rc < 0 ? fail(s, -1, rc) : 0;
	rc = back_init(&k, b.count);
	if (rc == 0)
		rc = stage(&b, &k, s);
	if (rc < 0 && s->state != SETTLE_FAILED)
		fail(s, -1, rc);
	if (rc == 0 && s->state != SETTLE_HELD)
		rc = write_back(&b, &k, s);
	if (rc == 0 && s->state != SETTLE_HELD) {
		auto_back(&b, s);
		baseline_remove();
		s->state = SETTLE_DONE;
	}
	back_free(&k);
	baseline_free(&b);
	return rc;
}

/* At a job's end (the watcher, the --report supervisor, the Slurm plugin):
 * the table's lock, then settle_table(). -errno also when the table
 * cannot be locked (s->state SETTLE_FAILED). */
int table_after_job(struct settle *s)
{
	int dir = gw_lock_table(), rc;

	if (dir < 0) {
		memset(s, 0, sizeof(*s));
		return fail(s, -1, dir);
	}
	rc = settle_table(s);
	close(dir);
	return rc;
}

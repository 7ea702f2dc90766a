// SPDX-License-Identifier: GPL-2.0-or-later
/* The job's descendants, sampled (jobtree.h). A sample walks the tree from
 * the job's own process down, breadth first, so that a process is found
 * while its parent is; one whose parent has gone is reparented out of the
 * tree and keeps the sample it had. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "job/jobtree.h"
#include "job/procstat.h"
#include "syscalls.h"

/* The processes a sample is still to look at, each with its parent. */
struct walk {
	pid_t (*pid)[2];
	unsigned n;
	pid_t parent;		/* of the children queue_child() is given */
};

static void queue_child(pid_t child, void *arg)
{
	struct walk *w = arg;

	if (w->n < JOBTREE_MAX) {
		w->pid[w->n][0] = child;
		w->pid[w->n++][1] = w->parent;
	}
}

/* The entry of the process pid started at start, made when new; NULL
 * without memory or room. */
static struct jobtree_proc *entry(struct jobtree *t, pid_t pid, unsigned long long start)
{
	for (unsigned i = 0; i < t->n; i++)
		if (t->p[i].pid == pid && t->p[i].start == start)
			return &t->p[i];
	if (t->n == JOBTREE_MAX)
		return NULL;
	if (t->n == t->size) {
		unsigned size = t->size ? 2 * t->size : 16;
		struct jobtree_proc *grown = realloc(t->p, size * sizeof(*grown));

		if (!grown)
			return NULL;
		t->p = grown;
		t->size = size;
	}
	t->p[t->n] = (struct jobtree_proc){ .pid = pid, .start = start };
	return &t->p[t->n++];
}

static bool holds_pages(const struct placement *pl)
{
	for (enum map_kind k = 0; k < MAP_KINDS; k++)
		if (pl->total[k])
			return true;
	return false;
}

/* One process's sample, kept in place of the one before. A process that
 * shares its parent's address space (a vfork child before its exec,
 * LeakSanitizer's tracer: clone(2) with CLONE_VM) holds its parent's pages,
 * counted there. */
static int sample_one(struct jobtree *t, pid_t pid, pid_t parent)
{
	struct placement pl = { 0 };
	unsigned long long start = 0;
	struct jobtree_proc *e;
	char state;
	int code;

	if (sys_kcmp(pid, parent, KCMP_VM) == 0 || proc_stat_read(pid, &state, &start, &code) < 0 ||
	    numamaps_read(pid, &pl) < 0 || !holds_pages(&pl)) {
		placement_free(&pl);
		return 0;
	}
	e = entry(t, pid, start);
	if (!e) {
		placement_free(&pl);
		return t->n == JOBTREE_MAX ? 0 : -ENOMEM;
	}
	placement_free(&e->pl);
	e->pl = pl;
	proc_comm_read(pid, e->name, sizeof(e->name));
	return 0;
}

int jobtree_sample(struct jobtree *t, pid_t job)
{
	struct walk w = { .pid = malloc(JOBTREE_MAX * sizeof(*w.pid)), .parent = job };
	int rc = 0;

	if (!w.pid)
		return -ENOMEM;
	proc_children(job, queue_child, &w);
	for (unsigned i = 0; rc == 0 && i < w.n; i++) {
		rc = sample_one(t, w.pid[i][0], w.pid[i][1]);
		w.parent = w.pid[i][0];
		proc_children(w.parent, queue_child, &w);
	}
	free(w.pid);
	return rc;
}

void jobtree_free(struct jobtree *t)
{
	for (unsigned i = 0; i < t->n; i++)
		placement_free(&t->p[i].pl);
	free(t->p);
	memset(t, 0, sizeof(*t));
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The table of a traced job's threads (tracees.h). A job has few of them at
 * a time, so it is a plain array searched from the start. */
#include <stdlib.h>
#include <string.h>

#include "job/tracees.h"
#include "policy/threads.h"

struct tracee *tracees_find(struct tracees *ts, pid_t tid)
{
	for (size_t i = 0; i < ts->n; i++)
		if (ts->t[i].tid == tid)
			return &ts->t[i];
	return NULL;
}

struct tracee *tracees_add(struct tracees *ts, pid_t tid)
{
	struct tracee *e = tracees_find(ts, tid);

	if (e)
		return e;
	if (ts->n == ts->size) {
		size_t size = ts->size ? 2 * ts->size : 16;
		struct tracee *grown = realloc(ts->t, size * sizeof(*grown));

		if (!grown)
			return NULL;
		ts->t = grown;
		ts->size = size;
	}
	e = &ts->t[ts->n++];
	*e = (struct tracee){ .tid = tid, .tgid = threads_tgid(tid) };
	return e;
}

void tracees_remove(struct tracees *ts, pid_t tid)
{
	struct tracee *e = tracees_find(ts, tid);

	if (e)
		*e = ts->t[--ts->n];
}

bool tracees_last_thread(const struct tracees *ts, pid_t tgid)
{
	for (size_t i = 0; i < ts->n; i++)
		if (ts->t[i].tgid == tgid && !ts->t[i].exited)
			return false;
	return true;
}

void tracees_free(struct tracees *ts)
{
	free(ts->t);
	memset(ts, 0, sizeof(*ts));
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Sets of PIDs: appended to in any order, then sorted once, so that a
 * thousand holders cost a sort, not a thousand searches of a list. */
#include <errno.h>
#include <stdlib.h>

#include "weights/pidset.h"

/* 0 or -ENOMEM. Duplicates go when the set is next sorted. */
int pidset_add(struct pidset *s, pid_t pid)
{
	if (s->count == s->room) {
		size_t room = s->room ? s->room * 2 : 16;
		pid_t *p = realloc(s->pid, room * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->pid = p;
		s->room = room;
	}
	s->pid[s->count++] = pid;
	return 0;
}

static int by_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

void pidset_sort(struct pidset *s)
{
	size_t n = 0;

	if (s->count)
		qsort(s->pid, s->count, sizeof(s->pid[0]), by_pid);
	for (size_t i = 0; i < s->count; i++)
		if (!n || s->pid[n - 1] != s->pid[i])
			s->pid[n++] = s->pid[i];
	s->count = s->sorted = n;
}

/* Among the PIDs it held when last sorted. */
bool pidset_has(const struct pidset *s, pid_t pid)
{
	return s->sorted && bsearch(&pid, s->pid, s->sorted, sizeof(pid), by_pid);
}

void pidset_free(struct pidset *s)
{
	free(s->pid);
	*s = (struct pidset){ 0 };
}

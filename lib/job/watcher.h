/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The watcher that puts the table back at the job's end (watcher.c), for
 * lib/request/jobrun.c. */
#ifndef NUMACTL2_WATCHER_H
#define NUMACTL2_WATCHER_H

#include "libnumactl2.h"

struct watcher {
	/* Called in the watcher once the job has ended: the job's weights
	 * given back to the table's owner (lib/request), what it put back
	 * into S. */
	void (*job_ended)(void *arg, struct settle *s);
	void *arg;
	/* Called in the watcher when it is done, with S; stderr is
	 * numactl2's where that is a terminal or a file, else /dev/null.
	 * NULL: nothing said. */
	void (*said)(const struct settle *s);
};

int watcher_start(const struct watcher *w, int *gate);
void watcher_disarm(int *gate);
void watcher_forget(int *gate);

#endif

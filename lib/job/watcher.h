/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The watcher that puts the table back at the job's end (watcher.c), for
 * lib/request/jobrun.c. */
#ifndef NUMACTL2_WATCHER_H
#define NUMACTL2_WATCHER_H

#include "libnumactl2.h"

struct watcher {
	/* Called in the watcher when it is done, with what table_after_job()
	 * did; stderr is numactl2's where that is a terminal or a file, else
	 * /dev/null. NULL: nothing said. */
	void (*said)(const struct settle *s);
};

int watcher_start(const struct watcher *w, int *gate);
void watcher_disarm(int *gate);
void watcher_forget(int *gate);

#endif

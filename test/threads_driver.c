// SPDX-License-Identifier: GPL-2.0-or-later
/* Runs threads_each() (policy/threads.c) with a visit that prints each
 * thread id, one a line, then "rc=N failed=TID".
 *   threads_driver PID [FAIL_TID]  every thread of PID but PID; the visit
 *                                  of FAIL_TID fails with -EPERM
 *   threads_driver -spawn N        this process, with one thread started
 *                                  first; each visit starts one more, N in
 *                                  all: the walk must find them too
 *   threads_driver -tgid TID       threads_tgid(TID) */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policy/threads.h"

static pid_t fail_tid;
static int spawn_left;

static void *idle(void *arg)
{
	for (;;)
		pause();
	return arg;
}

static void start_idle(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, idle, NULL) != 0) {
		fprintf(stderr, "threads_driver: pthread_create failed\n");
		exit(2);
	}
}

static int visit(pid_t tid, const void *arg)
{
	(void)arg;
	printf("%d\n", (int)tid);
	if (spawn_left > 0) {
		spawn_left--;
		start_idle();
	}
	return tid == fail_tid ? -EPERM : 0;
}

int main(int argc, char **argv)
{
	pid_t pid, failed = 0;
	int rc;

	if (argc == 3 && strcmp(argv[1], "-tgid") == 0) {
		printf("%d\n", (int)threads_tgid(atoi(argv[2])));
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "-spawn") == 0) {
		spawn_left = atoi(argv[2]);
		start_idle();
		pid = getpid();
	} else if (argc == 2 || argc == 3) {
		pid = atoi(argv[1]);
		fail_tid = argc == 3 ? atoi(argv[2]) : 0;
	} else {
		fprintf(stderr, "usage: threads_driver PID [FAIL_TID] | -spawn N | -tgid TID\n");
		return 2;
	}
	rc = threads_each(pid, pid, visit, NULL, &failed);
	printf("rc=%d failed=%d\n", rc, (int)failed);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * retune: a job whose policy is changed while it runs (numactl2 --pid).
 *
 *   retune PAGES READYFILE   allocates and touches PAGES anonymous pages
 *                            (batch 1), creates READYFILE, waits for SIGUSR1,
 *                            allocates PAGES more (batch 2), and prints where
 *                            each batch is, batch 1 counted again at the end:
 *                              batch1: N0=50 N1=50 N2=0 N3=0
 *                              batch2: N0=90 N1=10 N2=0 N3=0
 *                              batch1-after: N0=50 N1=50 N2=0 N3=0
 *   retune -t THREADS PAGES READYFILE
 *                            the same in THREADS threads (the main thread is
 *                            thread 0): each allocates its own batch 1,
 *                            READYFILE is created once all have, and after
 *                            SIGUSR1 each allocates its own batch 2; the
 *                            counts are printed per thread, in order:
 *                              thread0 batch1: N0=50 N1=50 N2=0 N3=0
 *                              thread0 batch2: N0=90 N1=10 N2=0 N3=0
 *                              thread1 batch1: ...
 *                            then each thread's id: "thread1 tid: 1234".
 *   retune -m PAGES READYFILE   the same, with PAGES more bound to node 3
 *                            by mbind (a range with a policy of its own)
 *                            before batch 1, counted last as "bound: ...".
 *   retune -s READYFILE      allocates, touches and frees 64 pages at a
 *                            time until SIGUSR1 (while its policy changes
 *                            under it), then prints "churned: N batches".
 *   retune -z READYFILE      forks a child that exits at once and is never
 *                            reaped (a process that has exited but whose pid
 *                            is still there), writes its pid to READYFILE and
 *                            waits for SIGUSR1.
 *
 * It waits in short sleeps, not in one blocking call, as a job that computes
 * returns to user space: the kernel installs a policy set from outside on
 * the task's next return there. The counts come from move_pages(2).
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL
#define NODES 4

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

static void wait_for_usr1(void)
{
	struct timespec ms = { 0, 1000000 };

	while (!go)
		nanosleep(&ms, NULL);
}

static char *batch_on(unsigned long pages, int node)
{
	char *p = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long mask = 1UL << (node < 0 ? 0 : node);

	if (p == MAP_FAILED)
		err(1, "mmap");
	/* MPOL_BIND (2) */
	if (node >= 0 && syscall(SYS_mbind, p, pages * PAGE, 2, &mask, 8 * sizeof(mask), 0) < 0)
		err(1, "mbind");
	for (unsigned long i = 0; i < pages; i++)
		p[i * PAGE] = 1;
	return p;
}

static char *batch(unsigned long pages)
{
	return batch_on(pages, -1);
}

/* Where the PAGES at P are: pages per node, and elsewhere (other). */
struct tally {
	unsigned long n[NODES], other;
};

static struct tally tally(char *p, unsigned long pages)
{
	void **addr = calloc(pages, sizeof(*addr));
	int *status = calloc(pages, sizeof(*status));
	struct tally t = { { 0 }, 0 };

	if (!addr || !status)
		err(1, "calloc");
	for (unsigned long i = 0; i < pages; i++)
		addr[i] = p + i * PAGE;
	if (syscall(SYS_move_pages, 0, pages, addr, NULL, status, 0) < 0)
		err(1, "move_pages");
	for (unsigned long i = 0; i < pages; i++) {
		if (status[i] >= 0 && status[i] < NODES)
			t.n[status[i]]++;
		else
			t.other++;
	}
	free(addr);
	free(status);
	return t;
}

static void print_tally(const char *name, const struct tally *t)
{
	printf("%s: N0=%lu N1=%lu N2=%lu N3=%lu", name, t->n[0], t->n[1], t->n[2], t->n[3]);
	printf(t->other ? " other=%lu\n" : "\n", t->other);
}

static void count(const char *name, char *p, unsigned long pages)
{
	struct tally t = tally(p, pages);

	print_tally(name, &t);
}

static void ready(const char *file, long value)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%ld\n", value) < 0 || fclose(f) != 0 || rename(tmp, file) < 0)
		err(1, "%s", file);
}

/* One thread of -t: its batches and their counts, taken in the thread. */
struct worker {
	pthread_t thread;
	pid_t tid;
	unsigned long pages;
	struct tally batch1, batch2;
};

static int workers_ready;	/* how many have batch 1 in place */

/* Batch 1, then after SIGUSR1 batch 2, waiting in short sleeps as
 * wait_for_usr1: each thread installs a policy set from outside on its
 * own next return to user space. */
static void *work(void *arg)
{
	struct worker *w = arg;
	char *b1 = batch(w->pages), *b2;

	w->tid = (pid_t)syscall(SYS_gettid);
	__atomic_add_fetch(&workers_ready, 1, __ATOMIC_RELEASE);
	wait_for_usr1();
	b2 = batch(w->pages);
	w->batch1 = tally(b1, w->pages);
	w->batch2 = tally(b2, w->pages);
	return NULL;
}

static int threads_main(int nthreads, unsigned long pages, const char *file)
{
	struct worker *w = calloc((size_t)nthreads, sizeof(*w));
	struct timespec ms = { 0, 1000000 };
	char name[64];

	if (!w)
		err(1, "calloc");
	for (int i = 1; i < nthreads; i++) {
		w[i].pages = pages;
		errno = pthread_create(&w[i].thread, NULL, work, &w[i]);
		if (errno)
			err(1, "pthread_create");
	}
	while (__atomic_load_n(&workers_ready, __ATOMIC_ACQUIRE) < nthreads - 1)
		nanosleep(&ms, NULL);
	w[0].pages = pages;
	w[0].tid = getpid();
	w[0].batch1 = tally(batch(pages), pages);
	ready(file, getpid());
	wait_for_usr1();
	w[0].batch2 = tally(batch(pages), pages);
	for (int i = 1; i < nthreads; i++)
		pthread_join(w[i].thread, NULL);
	for (int i = 0; i < nthreads; i++) {
		snprintf(name, sizeof(name), "thread%d batch1", i);
		print_tally(name, &w[i].batch1);
		snprintf(name, sizeof(name), "thread%d batch2", i);
		print_tally(name, &w[i].batch2);
	}
	for (int i = 0; i < nthreads; i++)
		printf("thread%d tid: %d\n", i, (int)w[i].tid);
	free(w);
	return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	unsigned long pages;
	char *b1, *b2, *bound = NULL;
	pid_t child;

	if (signal(SIGUSR1, on_usr1) == SIG_ERR)
		err(1, "signal");
	if (argc == 3 && strcmp(argv[1], "-z") == 0) {
		child = fork();
		if (child < 0)
			err(1, "fork");
		if (child == 0)
			_exit(0);
		ready(argv[2], child);
		wait_for_usr1();
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "-s") == 0) {
		unsigned long n = 0;

		ready(argv[2], getpid());
		for (; !go; n++)
			munmap(batch(64), 64 * PAGE);
		printf("churned: %lu batches\n", n);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (argc == 5 && strcmp(argv[1], "-t") == 0 && atoi(argv[2]) > 0)
		return threads_main(atoi(argv[2]), strtoul(argv[3], NULL, 10), argv[4]);
	if (argc == 4 && strcmp(argv[1], "-m") == 0) {
		argv++;
		argc--;
		pages = strtoul(argv[1], NULL, 10);
		bound = batch_on(pages, 3);
	}
	if (argc != 3)
		errx(2, "usage: retune PAGES READYFILE | retune -t THREADS PAGES READYFILE | "
		     "retune -m PAGES READYFILE | retune -s READYFILE | retune -z READYFILE");
	pages = strtoul(argv[1], NULL, 10);
	b1 = batch(pages);
	ready(argv[2], getpid());
	wait_for_usr1();
	b2 = batch(pages);
	count("batch1", b1, pages);
	count("batch2", b2, pages);
	count("batch1-after", b1, pages);
	if (bound)
		count("bound", bound, pages);
	return fflush(stdout) == 0 ? 0 : 1;
}

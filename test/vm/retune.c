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

static void count(const char *name, char *p, unsigned long pages)
{
	void **addr = calloc(pages, sizeof(*addr));
	int *status = calloc(pages, sizeof(*status));
	unsigned long n[NODES] = { 0 }, other = 0;

	if (!addr || !status)
		err(1, "calloc");
	for (unsigned long i = 0; i < pages; i++)
		addr[i] = p + i * PAGE;
	if (syscall(SYS_move_pages, 0, pages, addr, NULL, status, 0) < 0)
		err(1, "move_pages");
	for (unsigned long i = 0; i < pages; i++) {
		if (status[i] >= 0 && status[i] < NODES)
			n[status[i]]++;
		else
			other++;
	}
	printf("%s: N0=%lu N1=%lu N2=%lu N3=%lu", name, n[0], n[1], n[2], n[3]);
	printf(other ? " other=%lu\n" : "\n", other);
	free(addr);
	free(status);
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
	if (argc == 4 && strcmp(argv[1], "-m") == 0) {
		argv++;
		argc--;
		pages = strtoul(argv[1], NULL, 10);
		bound = batch_on(pages, 3);
	}
	if (argc != 3)
		errx(2, "usage: retune PAGES READYFILE | retune -m PAGES READYFILE | "
		     "retune -s READYFILE | retune -z READYFILE");
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

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloc: allocate memory of one kind, touch every page and report where the
 * pages went.  A test helper for the guest suite; run it under numactl2.
 *
 * For each region it prints four lines:
 *   region=A kind=mmap addr=0x7f.. pages=16384 ilx=34359 hilx=67
 *   nodes: N0=10240 N1=4096 N2=2048
 *   numa_maps: 7f3f2c000000 weighted interleave:0-2 anon=16384 ... N0=10240 ...
 *   huge: 15872
 * "nodes:" counts the region's own 4 KiB pages per node (move_pages(2)).
 * ilx is the kernel's interleave index of the first page (the virtual page
 * number for anonymous memory, the inode number for a tmpfs file at offset 0),
 * hilx the same for 2 MiB folios; the tests compute the expected split from it.
 * With -X CODE the main thread calls pthread_exit() at once, and a second
 * thread allocates once it has exited, then ends the process with CODE.
 * /proc/thread-self is read, not /proc/self: once the main thread has
 * exited, /proc/self (its thread) shows no memory.
 */
#define _GNU_SOURCE
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL
#define HPAGE (2UL << 20)
#define MAXNODES 64

enum kind { K_MMAP, K_HEAP, K_TMPFS };

struct ctl {
	enum kind kind;
	size_t size;
	int nohuge;
	int huge;
	int threads;
	int do_fork;
	int pause;
	int maps;
	int worker_exit;	/* -X: -1, or the status the second thread ends with */
	const char *dir;
};

struct region {
	char *start;		/* first whole page of the region */
	size_t pages;
	uint64_t ilx;
	uint64_t hilx;
};

static const char *kind_name[] = { "mmap", "heap", "tmpfs" };

static size_t parse_size(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		errx(2, "invalid size '%s'", s);
	switch (*end) {
	case 'G': v <<= 10; /* fall through */
	case 'M': v <<= 10; /* fall through */
	case 'K': v <<= 10; end++; break;
	default: break;
	}
	if (*end || v == 0)
		errx(2, "invalid size '%s'", s);
	return v;
}

struct touch_arg {
	char *p;
	size_t len;
};

static void *touch(void *a)
{
	struct touch_arg *t = a;

	for (size_t off = 0; off < t->len; off += PAGE)
		t->p[off] = 1;
	return NULL;
}

static void touch_all(const struct ctl *c, char *p, size_t len)
{
	pthread_t tid[64];
	struct touch_arg arg[64];
	int n = c->threads;
	size_t pages = len / PAGE, chunk = (pages + n - 1) / n;

	if (n <= 1) {
		arg[0] = (struct touch_arg){ p, len };
		touch(&arg[0]);
		return;
	}
	for (int i = 0; i < n; i++) {
		size_t first = i * chunk, last = first + chunk;

		if (last > pages)
			last = pages;
		if (first > last)
			first = last;
		arg[i] = (struct touch_arg){ p + first * PAGE, (last - first) * PAGE };
		errno = pthread_create(&tid[i], NULL, touch, &arg[i]);
		if (errno)
			err(1, "pthread_create");
	}
	for (int i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
}

/* Anonymous memory in a VMA of its own: PROT_NONE guards keep it from merging. */
static char *map_anon(const struct ctl *c, size_t len)
{
	size_t align = c->huge ? HPAGE : PAGE;
	size_t total = len + 2 * align + 2 * PAGE;
	char *base, *p;

	base = mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		err(1, "mmap %zu", total);
	p = (char *)(((uintptr_t)base + PAGE + align - 1) & ~(uintptr_t)(align - 1));
	if (mprotect(p, len, PROT_READ | PROT_WRITE))
		err(1, "mprotect");
	return p;
}

static char *map_tmpfs(const struct ctl *c, size_t len, uint64_t *ino)
{
	char path[4096];
	struct stat st;
	char *p;
	int fd;

	snprintf(path, sizeof(path), "%s/alloc.XXXXXX", c->dir);
	fd = mkstemp(path);
	if (fd < 0)
		err(1, "mkstemp %s", path);
	if (ftruncate(fd, (off_t)len) || fstat(fd, &st))
		err(1, "%s", path);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		err(1, "mmap %s", path);
	close(fd);
	unlink(path);	/* the mapping keeps the pages; the tmpfs stays clean */
	*ino = st.st_ino;
	return p;
}

static void allocate(const struct ctl *c, struct region *r)
{
	size_t len = (c->size + PAGE - 1) & ~(PAGE - 1);
	uint64_t ino = 0;
	char *p = NULL;

	switch (c->kind) {
	case K_MMAP:
		p = map_anon(c, len);
		break;
	case K_HEAP: {
		char *m = malloc(c->size);
		uintptr_t s, e;

		if (!m)
			err(1, "malloc %zu", c->size);
		/* Only the pages wholly inside the block are ours to count. */
		s = ((uintptr_t)m + PAGE - 1) & ~(PAGE - 1);
		e = ((uintptr_t)m + c->size) & ~(PAGE - 1);
		if (e <= s)
			errx(1, "heap block of %zu bytes holds no whole page", c->size);
		p = (char *)s;
		len = e - s;
		break;
	}
	case K_TMPFS:
		p = map_tmpfs(c, len, &ino);
		break;
	}
	if (c->nohuge && madvise(p, len, MADV_NOHUGEPAGE))
		err(1, "madvise(MADV_NOHUGEPAGE)");
	if (c->huge && madvise(p, len, MADV_HUGEPAGE))
		err(1, "madvise(MADV_HUGEPAGE)");
	touch_all(c, p, len);
	r->start = p;
	r->pages = len / PAGE;
	if (c->kind == K_TMPFS) {
		r->ilx = ino;
		r->hilx = ino;
	} else {
		r->ilx = (uintptr_t)p / PAGE;
		r->hilx = (uintptr_t)p / HPAGE;
	}
}

static void count_nodes(const struct region *r, size_t count[MAXNODES])
{
	enum { BATCH = 4096 };
	void *pages[BATCH];
	int status[BATCH];

	memset(count, 0, MAXNODES * sizeof(count[0]));
	for (size_t done = 0; done < r->pages; done += BATCH) {
		size_t n = r->pages - done < BATCH ? r->pages - done : BATCH;

		for (size_t i = 0; i < n; i++)
			pages[i] = r->start + (done + i) * PAGE;
		if (syscall(SYS_move_pages, 0, n, pages, NULL, status, 0))
			err(1, "move_pages");
		for (size_t i = 0; i < n; i++) {
			if (status[i] < 0 || status[i] >= MAXNODES)
				errx(1, "page %p: move_pages status %d",
				     pages[i], status[i]);
			count[status[i]]++;
		}
	}
}

/* The numa_maps line of the VMA holding addr: the last line starting at or below it. */
static void print_numa_maps(const void *addr)
{
	char line[4096], best[4096] = "";
	uintptr_t a = (uintptr_t)addr, beststart = 0;
	FILE *f = fopen("/proc/thread-self/numa_maps", "r");

	if (!f)
		err(1, "/proc/thread-self/numa_maps");
	while (fgets(line, sizeof(line), f)) {
		uintptr_t s = (uintptr_t)strtoull(line, NULL, 16);

		if (s <= a && s >= beststart) {
			beststart = s;
			snprintf(best, sizeof(best), "%s", line);
		}
	}
	fclose(f);
	best[strcspn(best, "\n")] = '\0';
	printf("numa_maps: %s\n", best);
}

/* The pages of the VMA holding addr that sit in PMD-mapped huge folios
 * (smaps AnonHugePages + ShmemPmdMapped): the THP tests check that huge
 * folios were used at all. */
static void print_huge(const void *addr)
{
	char line[512];
	uintptr_t a = (uintptr_t)addr, s, e;
	unsigned long kb, total = 0;
	bool in = false;
	FILE *f = fopen("/proc/thread-self/smaps", "r");

	if (!f)
		err(1, "/proc/thread-self/smaps");
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &s, &e) == 2)
			in = s <= a && a < e;
		else if (in && (sscanf(line, "AnonHugePages: %lu kB", &kb) == 1 ||
				sscanf(line, "ShmemPmdMapped: %lu kB", &kb) == 1))
			total += kb;
	}
	fclose(f);
	printf("huge: %lu\n", total / (PAGE / 1024));
}

static void report(const struct ctl *c, const char *name, const struct region *r)
{
	size_t count[MAXNODES];

	count_nodes(r, count);
	printf("region=%s kind=%s addr=%p pages=%zu ilx=%" PRIu64 " hilx=%" PRIu64 "\n",
	       name, kind_name[c->kind], (void *)r->start, r->pages, r->ilx, r->hilx);
	printf("nodes:");
	for (int n = 0; n < MAXNODES; n++)
		if (count[n])
			printf(" N%d=%zu", n, count[n]);
	printf("\n");
	print_numa_maps(r->start);
	print_huge(r->start);
	fflush(stdout);
}

/* The whole numa_maps, then _exit(): read(2) and write(2) only, nothing
 * allocated after it, and the code of _exit() read in before (exit() would
 * fault more of libc's code in), so it holds the counts the process exits
 * with. buf is written whole first: read(2) copies the text into it after
 * the kernel counted its .bss, and a text longer than what is left of
 * buf's first page (it names the program's path on several lines, so a
 * long checkout path is enough) would fault one more page after the count. */
static int exit_code;

static void __attribute__((noreturn)) dump_numa_maps(void)
{
	static char buf[1 << 16];
	ssize_t n;
	int fd;

	(void)*(volatile const char *)(uintptr_t)_exit;
	memset(buf, 1, sizeof(buf));
	fd = open("/proc/thread-self/numa_maps", O_RDONLY);
	if (fd < 0)
		err(1, "/proc/thread-self/numa_maps");
	if (write(STDOUT_FILENO, "maps:\n", 6) != 6)
		err(1, "write");
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (write(STDOUT_FILENO, buf, (size_t)n) != n)
			err(1, "write");
	close(fd);
	_exit(exit_code);
}

static void print_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		err(1, "sched_getaffinity");
	printf("cpus:");
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			printf(" %d", i);
	printf("\n");
}

static void run(const struct ctl *c)
{
	struct region a, b;

	print_cpus();
	allocate(c, &a);
	report(c, "A", &a);
	if (!c->pause) {
		if (c->maps)
			dump_numa_maps();
		return;
	}

	/* Bounded: a test that dies before it signals must not hang the suite. */
	struct timespec limit = { .tv_sec = 120 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	printf("READY\n");
	fflush(stdout);
	if (sigtimedwait(&set, NULL, &limit) < 0)
		err(1, "no SIGUSR1 within %ld s", (long)limit.tv_sec);
	allocate(c, &b);
	report(c, "B", &b);
	if (c->maps)
		dump_numa_maps();
}

/* The main thread's state in /proc/PID/stat ("PID (COMM) S ..."). */
static char main_state(void)
{
	char buf[512], *p;
	ssize_t n;
	int fd = open("/proc/self/stat", O_RDONLY);

	if (fd < 0)
		err(1, "/proc/self/stat");
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		errx(1, "/proc/self/stat: empty");
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

/* -X: once the main thread has exited (10 s at most), allocate, then end
 * the process with the status asked for. */
static void *worker(void *arg)
{
	const struct ctl *c = arg;
	struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };

	for (int i = 0; i < 1000 && main_state() != 'Z'; i++)
		nanosleep(&tick, NULL);
	if (main_state() != 'Z')
		errx(1, "the main thread has not exited");
	run(c);
	fflush(stdout);
	exit(c->worker_exit);
}

static void __attribute__((noreturn)) run_in_worker(struct ctl *c)
{
	pthread_t tid;

	exit_code = c->worker_exit;
	errno = pthread_create(&tid, NULL, worker, c);
	if (errno)
		err(1, "pthread_create");
	pthread_exit(NULL);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: alloc [-k mmap|heap|tmpfs] [-s SIZE[K|M|G]] [-n] [-H] [-t THREADS]\n"
		"             [-f] [-p] [-m] [-d DIR] [-X CODE]\n"
		"  -n  MADV_NOHUGEPAGE    -H  2 MiB aligned, MADV_HUGEPAGE\n"
		"  -t  touch with THREADS threads    -f  allocate in a forked child\n"
		"  -p  allocate A, print READY, wait for SIGUSR1 (120 s at most),\n"
		"      allocate B\n"
		"  -m  last, \"maps:\" and the whole /proc/thread-self/numa_maps\n"
		"  -X  allocate in a second thread once the main one has called\n"
		"      pthread_exit(), then exit with CODE\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct ctl c = { .kind = K_MMAP, .size = 64UL << 20, .threads = 1,
			 .worker_exit = -1, .dir = "/mnt/tmpfs" };
	int opt;

	while ((opt = getopt(argc, argv, "k:s:nHt:fpmd:X:")) != -1) {
		switch (opt) {
		case 'k':
			if (!strcmp(optarg, "mmap"))
				c.kind = K_MMAP;
			else if (!strcmp(optarg, "heap"))
				c.kind = K_HEAP;
			else if (!strcmp(optarg, "tmpfs"))
				c.kind = K_TMPFS;
			else
				usage();
			break;
		case 's': c.size = parse_size(optarg); break;
		case 'n': c.nohuge = 1; break;
		case 'H': c.huge = 1; break;
		case 't':
			c.threads = atoi(optarg);
			if (c.threads < 1 || c.threads > 64)
				usage();
			break;
		case 'f': c.do_fork = 1; break;
		case 'p': c.pause = 1; break;
		case 'm': c.maps = 1; break;
		case 'd': c.dir = optarg; break;
		case 'X':
			c.worker_exit = atoi(optarg);
			if (c.worker_exit < 0 || c.worker_exit > 255)
				usage();
			break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	if (c.pause) {	/* block SIGUSR1 early so that sigwait() cannot miss it */
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigprocmask(SIG_BLOCK, &set, NULL);
	}
	if (c.worker_exit >= 0)
		run_in_worker(&c);
	if (!c.do_fork) {
		run(&c);
		return 0;
	}

	pid_t pid = fork();
	int status;

	if (pid < 0)
		err(1, "fork");
	if (pid == 0) {
		printf("child\n");
		run(&c);
		fflush(stdout);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0)
		err(1, "waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

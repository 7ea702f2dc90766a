// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * triad: a small STREAM-like triad, a[i] = b[i] + s * c[i], over three arrays
 * of MIB MiB each (default 64), repeated REPS times (default 5).  It prints
 * the best time and the bandwidth it implies, then the /proc/self/numa_maps
 * line of the mapping that holds the arrays, so a caller sees where the pages went.
 *
 *   triad [MIB [REPS]]
 */
#define _GNU_SOURCE
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One mapping for the three arrays, fenced by PROT_NONE pages so it is a VMA of its own. */
static double *arrays(size_t bytes)
{
	size_t page = 4096;
	char *p = mmap(NULL, bytes + 2 * page, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		err(1, "mmap %zu", bytes);
	if (mprotect(p + page, bytes, PROT_READ | PROT_WRITE))
		err(1, "mprotect");
	return (double *)(p + page);
}

static void print_maps(const void *start)
{
	char line[4096];
	FILE *f = fopen("/proc/self/numa_maps", "r");

	if (!f)
		err(1, "/proc/self/numa_maps");
	while (fgets(line, sizeof(line), f))
		if ((uintptr_t)strtoull(line, NULL, 16) == (uintptr_t)start)
			printf("numa_maps: %s", line);
	fclose(f);
}

static long arg(int argc, char **argv, int i, long def, long max)
{
	char *end;
	long v;

	if (argc <= i)
		return def;
	v = strtol(argv[i], &end, 10);
	if (*end || end == argv[i] || v < 1 || v > max)
		errx(2, "usage: triad [MIB [REPS]]");
	return v;
}

int main(int argc, char **argv)
{
	size_t mib = (size_t)arg(argc, argv, 1, 64, 4096);
	int reps = (int)arg(argc, argv, 2, 5, 1000);
	size_t n = (mib << 20) / sizeof(double);
	double *a = arrays(3 * n * sizeof(double));
	double *b = a + n, *c = b + n;
	double best = 1e30, s = 3.0, t0;

	for (size_t i = 0; i < n; i++) {
		a[i] = 0.0;
		b[i] = 1.0;
		c[i] = 2.0;
	}
	for (int r = 0; r < reps; r++) {
		t0 = now();
		for (size_t i = 0; i < n; i++)
			a[i] = b[i] + s * c[i];
		t0 = now() - t0;
		if (t0 < best)
			best = t0;
	}
	if (a[n / 2] != 7.0)
		errx(1, "wrong result %g", a[n / 2]);
	printf("triad: 3 x %zu MiB, best of %d: %.3f s, %.1f MB/s\n", mib, reps,
	       best, 3.0 * (double)(n * sizeof(double)) / best / 1e6);
	print_maps(a);
	return 0;
}

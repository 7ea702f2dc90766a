// SPDX-License-Identifier: GPL-2.0-or-later
/* Which nodes the job's CPUs are on, and which memory is near them: what
 * --weights=auto and -w local compute for. CPUs map to nodes through each
 * node's cpulist in sysfs (the test build's fake node directory too). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bandwidth/initiators.h"
#include "bandwidth/nodeperf.h"
#include "parse.h"

/* Node NODE's CPUs, or NULL where it has none or does not exist. */
static struct bitmask *node_cpus(unsigned node)
{
	char path[256], buf[4096];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/node%u/cpulist", nodeperf_dir(), node);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok && *buf ? numa_parse_cpustring_all(buf) : NULL;
}

/* The job's CPUs, as initiators_read() says. */
static struct bitmask *job_cpus(const struct bitmask *cpunodes, const struct bitmask *cpus,
				struct initiators *in)
{
	struct bitmask *mask = numa_allocate_cpumask();

	if (!mask)
		return NULL;
	in->from = cpus ? INIT_PHYSCPUBIND : cpunodes ? INIT_CPUNODEBIND : INIT_AFFINITY;
	if (cpus)
		copy_bitmask_to_bitmask((struct bitmask *)cpus, mask);
	else if (!cpunodes && numa_sched_getaffinity(0, mask) < 0)
		numa_bitmask_clearall(mask);
	for (unsigned node = 0; cpunodes && !cpus && node < cpunodes->size; node++) {
		struct bitmask *nc = numa_bitmask_isbitset(cpunodes, node) ? node_cpus(node) : NULL;

		for (unsigned c = 0; nc && c < nc->size && c < mask->size; c++)
			if (numa_bitmask_isbitset(nc, c))
				numa_bitmask_setbit(mask, c);
		if (nc)
			numa_bitmask_free(nc);
	}
	return mask;
}

/* How many of MASK's CPUs are among node NODE's. */
static unsigned cpus_on(const struct bitmask *mask, unsigned node)
{
	struct bitmask *nc = node_cpus(node);
	unsigned count = 0;

	if (!nc)
		return 0;
	for (unsigned c = 0; c < nc->size && c < mask->size; c++)
		count += numa_bitmask_isbitset(nc, c) && numa_bitmask_isbitset(mask, c);
	numa_bitmask_free(nc);
	return count;
}

int initiators_read(const struct bitmask *cpunodes, const struct bitmask *cpus,
		    struct initiators *in)
{
	struct bitmask *mask;

	*in = (struct initiators){ 0 };
	mask = job_cpus(cpunodes, cpus, in);
	if (!mask)
		return -ENOMEM;
	for (unsigned node = 0; node < BW_MAX_NODES; node++) {
		unsigned count = cpus_on(mask, node);

		if (!count)
			continue;
		in->node[in->n] = node;
		in->cpus[in->n++] = count;
		in->total += count;
	}
	numa_bitmask_free(mask);
	return in->total ? 0 : -ENODATA;
}

double initiators_share(const struct initiators *in, unsigned i)
{
	return (double)in->cpus[i] / in->total;
}

/* The initiators sysfs names for TARGET in its access class C: near[] set,
 * and whether there are any. */
static bool access_initiators(unsigned target, unsigned c, bool *near)
{
	char path[256];
	struct dirent *d;
	bool any = false;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/node%u/access%u/initiators", nodeperf_dir(), target, c);
	dir = opendir(path);
	if (!dir)
		return false;
	while ((d = readdir(dir))) {
		unsigned long node;

		if (strncmp(d->d_name, "node", 4) == 0 &&
		    nc2_parse_ulong(d->d_name + 4, BW_MAX_NODES - 1, &node) == 0)
			any = near[node] = true;
	}
	closedir(dir);
	return any;
}

/* Without HMAT in sysfs: the nodes with CPUs at TARGET's smallest distance. */
static void nearest_by_distance(unsigned target, bool *near)
{
	unsigned best = ~0U, d[BW_MAX_NODES];

	for (unsigned i = 0; i < BW_MAX_NODES; i++) {
		struct bitmask *nc = node_cpus(i);

		d[i] = ~0U;
		if (nc && !nodeperf_distance(i, target, &d[i]))
			d[i] = ~0U;
		if (nc)
			numa_bitmask_free(nc);
		if (d[i] < best)
			best = d[i];
	}
	for (unsigned i = 0; i < BW_MAX_NODES; i++)
		near[i] = best != ~0U && d[i] == best;
}

void initiators_nearest(unsigned target, bool *near)
{
	for (unsigned i = 0; i < BW_MAX_NODES; i++)
		near[i] = false;
	if (!access_initiators(target, 1, near) && !access_initiators(target, 0, near))
		nearest_by_distance(target, near);
}

bool initiators_local(const struct initiators *in, unsigned target)
{
	bool near[BW_MAX_NODES];

	initiators_nearest(target, near);
	for (unsigned i = 0; i < in->n; i++)
		if (near[in->node[i]])
			return true;
	return false;
}

/* MemTotal of nodeN/meminfo above 0: the nodes -w local may pick. */
bool initiators_has_memory(unsigned node)
{
	char path[256], line[256];
	unsigned long kb = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/node%u/meminfo", nodeperf_dir(), node);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Node %*u MemTotal: %lu kB", &kb) == 1)
			break;
	fclose(f);
	return kb > 0;
}

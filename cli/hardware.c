// SPDX-License-Identifier: GPL-2.0-or-later
/* --hardware: numactl's topology report, byte for byte, then the node
 * performance data and weights that numactl does not show. */
#include <stdio.h>

#include "libnumactl2.h"
#include "parse.h"
#include "cli/hardware.h"
#include "cli/show.h"

static void print_available(int maxnode)
{
	int count = 0, prev = -1;
	bool in_range = false;

	for (int i = 0; i <= maxnode; i++)
		count += numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)i);
	printf("available: %d nodes (", count);
	for (int i = 0; i <= maxnode; i++) {
		if (!numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)i))
			continue;
		if (prev == -1)
			printf("%d", i);
		else if (i > prev + 1) {
			if (in_range)
				printf("%d", prev);
			in_range = false;
			printf(",%d", i);
		} else if (!in_range) {
			printf("-");
			in_range = true;
		}
		prev = i;
	}
	if (in_range)
		printf("%d", prev);
	printf(")\n");
}

/* --cpu-compress prints ranges and a count, as numactl 2.0.19. */
static void print_node_cpus(int node, bool compress)
{
	struct bitmask *cpus = numa_allocate_cpumask();
	unsigned i = 0, count = 0;
	int segments = 0;

	printf("node %d cpus:", node);
	if (numa_node_to_cpus(node, cpus) == 0) {
		while (i < cpus->size) {
			unsigned start;

			if (!numa_bitmask_isbitset(cpus, i)) {
				i++;
				continue;
			}
			if (!compress) {
				printf(" %u", i++);
				continue;
			}
			for (start = i; i < cpus->size && numa_bitmask_isbitset(cpus, i); i++)
				;
			printf(start == i - 1 ? "%s %u" : "%s %u-%u", segments++ ? "," : "",
			       start, i - 1);
			count += i - start;
		}
	}
	if (compress)
		printf(" (%u)", count);
	putchar('\n');
	numa_free_cpumask(cpus);
}

static void print_mem(int node, const char *what, long long bytes)
{
	if (bytes == -1)
		printf("node %d %s: <not available>\n", node, what);
	else
		printf("node %d %s: %llu MB\n", node, what, (unsigned long long)bytes >> 20);
}

/* Debian 12's numactl (2.0.16) pads with "% 3d"; scripts split on blanks. */
static void print_distances(int maxnode)
{
	int first = nodes_first(numa_nodes_ptr);

	if (numa_distance(maxnode, first) == 0) {
		printf("No distance information available.\n");
		return;
	}
	printf("node distances:\nnode ");
	for (int i = 0; i <= maxnode; i++)
		if (numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)i))
			printf("% 3d ", i);
	printf("\n");
	for (int i = 0; i <= maxnode; i++) {
		if (!numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)i))
			continue;
		printf("% 3d: ", i);
		for (int k = 0; k <= maxnode; k++)
			if (numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)k))
				printf("% 3d ", numa_distance(i, k));
		printf("\n");
	}
}

/* access1 is the nearest CPU initiator: the class the kernel's auto weights use. */
static void print_performance(int node)
{
	unsigned long rb, wb, rl, wl;
	unsigned n = (unsigned)node;

	if (nodeperf_read(n, 1, "read_bandwidth", &rb) && nodeperf_read(n, 1, "write_bandwidth", &wb))
		printf("node %d bandwidth: %lu MB/s read, %lu MB/s write\n", node, rb, wb);
	if (nodeperf_read(n, 1, "read_latency", &rl) && nodeperf_read(n, 1, "write_latency", &wl))
		printf("node %d latency: %lu ns read, %lu ns write\n", node, rl, wl);
}

/* One HMAT matrix: a row per initiator that has any entry, a column per
 * node up to the last that has one. */
static void print_matrix(const struct hmat *h, const char *what,
			 uint32_t (*value)(const struct hmat *, unsigned, unsigned))
{
	unsigned last = 0;

	for (unsigned i = 0; i < BW_MAX_NODES; i++)
		for (unsigned t = 0; t < BW_MAX_NODES; t++)
			if (value(h, i, t) && t > last)
				last = t;
	printf("HMAT %s, initiator node to node:\n   ", what);
	for (unsigned t = 0; t <= last; t++)
		printf(" %7u", t);
	printf("\n");
	for (unsigned i = 0; i < BW_MAX_NODES; i++) {
		bool any = false;

		for (unsigned t = 0; t <= last; t++)
			any = any || value(h, i, t);
		if (!any)
			continue;
		printf("%2u:", i);
		for (unsigned t = 0; t <= last; t++)
			if (value(h, i, t))
				printf(" %7u", value(h, i, t));
			else
				printf(" %7s", "-");
		printf("\n");
	}
}

/* The whole initiator x target matrix, where HMAT can be read (root). */
static void print_hmat(void)
{
	static struct hmat h;	/* 96 KiB: not on the stack */

	if (hmat_read(&h) < 0)
		return;
	print_matrix(&h, "bandwidth (MB/s, min of read and write)", hmat_bandwidth);
	print_matrix(&h, "latency (ns, max of read and write)", hmat_latency);
}

static void print_global_weights(int maxnode, const struct weights_view *v)
{
	bool any = false;

	for (int i = 0; i <= maxnode; i++) {
		int w = weights_view_weight(v, (unsigned)i);

		if (numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)i) && w >= 0) {
			printf("node %d interleave weight: %d\n", i, w);
			any = true;
		}
	}
	if (any)
		printf("global interleave weights: %s\n", v->mode == GW_AUTO_ON ? "auto" : "manual");
}

int show_hardware(bool cpu_compress)
{
	int maxnode = numa_max_node();
	struct weights_view table;

	if (numa_available() < 0) {
		printf("No NUMA available on this system\n");
		return 1;
	}
	print_available(maxnode);
	for (int i = 0; i <= maxnode; i++) {
		long long free_bytes;
		long long size;

		if (!numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)i))
			continue;
		size = numa_node_size64(i, &free_bytes);
		print_node_cpus(i, cpu_compress);
		print_mem(i, "size", size);
		print_mem(i, "free", free_bytes);
	}
	print_distances(maxnode);
	for (int i = 0; i <= maxnode; i++)
		if (numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)i))
			print_performance(i);
	print_hmat();
	table_read(NULL, &table);
	print_global_weights(maxnode, &table);
	show_leases(&table);
	weights_view_free(&table);
	return 0;
}

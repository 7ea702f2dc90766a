// SPDX-License-Identifier: GPL-2.0-or-later
/* --hardware: numactl's topology report, byte for byte, then the node
 * performance data and weights that numactl does not show, written to the
 * FILE * a front end gives. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "bandwidth/hmat.h"
#include "bandwidth/nodeperf.h"
#include "error/error.h"
#include "libnumactl2.h"
#include "owner/wire.h"
#include "weights/view.h"

static void print_available(FILE *out, int maxnode)
{
	int count = 0, prev = -1;
	bool in_range = false;

	for (int i = 0; i <= maxnode; i++)
		count += numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)i);
	fprintf(out, "available: %d nodes (", count);
	for (int i = 0; i <= maxnode; i++) {
		if (!numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)i))
			continue;
		if (prev == -1)
			fprintf(out, "%d", i);
		else if (i > prev + 1) {
			if (in_range)
				fprintf(out, "%d", prev);
			in_range = false;
			fprintf(out, ",%d", i);
		} else if (!in_range) {
			fprintf(out, "-");
			in_range = true;
		}
		prev = i;
	}
	if (in_range)
		fprintf(out, "%d", prev);
	fprintf(out, ")\n");
}

/* --cpu-compress prints ranges and a count, as numactl 2.0.19. */
static void print_node_cpus(FILE *out, int node, bool compress)
{
	struct bitmask *cpus = numa_allocate_cpumask();
	unsigned i = 0, count = 0;
	int segments = 0;

	fprintf(out, "node %d cpus:", node);
	if (numa_node_to_cpus(node, cpus) == 0) {
		while (i < cpus->size) {
			unsigned start;

			if (!numa_bitmask_isbitset(cpus, i)) {
				i++;
				continue;
			}
			if (!compress) {
				fprintf(out, " %u", i++);
				continue;
			}
			for (start = i; i < cpus->size && numa_bitmask_isbitset(cpus, i); i++)
				;
			fprintf(out, start == i - 1 ? "%s %u" : "%s %u-%u", segments++ ? "," : "",
			       start, i - 1);
			count += i - start;
		}
	}
	if (compress)
		fprintf(out, " (%u)", count);
	fputc('\n', out);
	numa_free_cpumask(cpus);
}

static void print_mem(FILE *out, int node, const char *what, long long bytes)
{
	if (bytes == -1)
		fprintf(out, "node %d %s: <not available>\n", node, what);
	else
		fprintf(out, "node %d %s: %llu MB\n", node, what, (unsigned long long)bytes >> 20);
}

/* Debian 12's numactl (2.0.16) pads with "% 3d"; scripts split on blanks. */
static void print_distances(FILE *out, int maxnode)
{
	int first = nc2_nodes_first(numa_nodes_ptr);

	if (numa_distance(maxnode, first) == 0) {
		fprintf(out, "No distance information available.\n");
		return;
	}
	fprintf(out, "node distances:\nnode ");
	for (int i = 0; i <= maxnode; i++)
		if (numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)i))
			fprintf(out, "% 3d ", i);
	fprintf(out, "\n");
	for (int i = 0; i <= maxnode; i++) {
		if (!numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)i))
			continue;
		fprintf(out, "% 3d: ", i);
		for (int k = 0; k <= maxnode; k++)
			if (numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)k))
				fprintf(out, "% 3d ", numa_distance(i, k));
		fprintf(out, "\n");
	}
}

/* access1 is the nearest CPU initiator: the class the kernel's auto weights use. */
static void print_performance(FILE *out, int node)
{
	unsigned long rb, wb, rl, wl;
	unsigned n = (unsigned)node;

	if (nodeperf_read(n, 1, "read_bandwidth", &rb) && nodeperf_read(n, 1, "write_bandwidth", &wb))
		fprintf(out, "node %d bandwidth: %lu MB/s read, %lu MB/s write\n", node, rb, wb);
	if (nodeperf_read(n, 1, "read_latency", &rl) && nodeperf_read(n, 1, "write_latency", &wl))
		fprintf(out, "node %d latency: %lu ns read, %lu ns write\n", node, rl, wl);
}

/* One HMAT matrix: a row per initiator that has any entry, a column per
 * node up to the last that has one. */
static void print_matrix(FILE *out, const struct hmat *h, const char *what,
			 uint32_t (*value)(const struct hmat *, unsigned, unsigned))
{
	unsigned last = 0;

	for (unsigned i = 0; i < BW_MAX_NODES; i++)
		for (unsigned t = 0; t < BW_MAX_NODES; t++)
			if (value(h, i, t) && t > last)
				last = t;
	fprintf(out, "HMAT %s, initiator node to node:\n   ", what);
	for (unsigned t = 0; t <= last; t++)
		fprintf(out, " %7u", t);
	fprintf(out, "\n");
	for (unsigned i = 0; i < BW_MAX_NODES; i++) {
		bool any = false;

		for (unsigned t = 0; t <= last; t++)
			any = any || value(h, i, t);
		if (!any)
			continue;
		fprintf(out, "%2u:", i);
		for (unsigned t = 0; t <= last; t++)
			if (value(h, i, t))
				fprintf(out, " %7u", value(h, i, t));
			else
				fprintf(out, " %7s", "-");
		fprintf(out, "\n");
	}
}

/* The whole initiator x target matrix, where HMAT can be read (root). */
static void print_hmat(FILE *out)
{
	struct hmat *h = malloc(sizeof(*h));	/* 96 KiB: not on the stack */

	/* Out of memory as unreadable: the rest is printed without it. */
	if (h && hmat_read(h) == 0) {
		print_matrix(out, h, "bandwidth (MB/s, min of read and write)", hmat_bandwidth);
		print_matrix(out, h, "latency (ns, max of read and write)", hmat_latency);
	}
	free(h);
}

static void print_global_weights(FILE *out, int maxnode, const struct weights_view *v)
{
	bool any = false;

	for (int i = 0; i <= maxnode; i++) {
		int w = weights_view_weight(v, (unsigned)i);

		if (numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)i) && w >= 0) {
			fprintf(out, "node %d interleave weight: %d\n", i, w);
			any = true;
		}
	}
	if (any)
		fprintf(out, "global interleave weights: %s\n", v->mode == GW_AUTO_ON ? "auto" : "manual");
}

int nc2_hardware_print(FILE *out, bool cpu_compress, struct nc2_error *e)
{
	int maxnode = numa_max_node();
	struct weights_view table;

	if (numa_available() < 0) {
		fprintf(out, "No NUMA available on this system\n");
		return error_set(e, NC2_NO_NUMA, 0);
	}
	if (weights_view_read(&table) < 0)
		return error_set(e, NC2_LEASES_UNLISTED, ENOMEM);
	print_available(out, maxnode);
	for (int i = 0; i <= maxnode; i++) {
		long long free_bytes;
		long long size;

		if (!numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)i))
			continue;
		size = numa_node_size64(i, &free_bytes);
		print_node_cpus(out, i, cpu_compress);
		print_mem(out, i, "size", size);
		print_mem(out, i, "free", free_bytes);
	}
	print_distances(out, maxnode);
	for (int i = 0; i <= maxnode; i++)
		if (numa_bitmask_isbitset(numa_nodes_ptr, (unsigned)i))
			print_performance(out, i);
	print_hmat(out);
	print_global_weights(out, maxnode, &table);
	(void)owner_print_holders(out, false);
	weights_view_free(&table);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ACPI HMAT: bandwidth and latency from every initiator to every memory
 * target, where sysfs keeps only each target's nearest initiator (hmat.c). */
#ifndef NUMACTL2_HMAT_H
#define NUMACTL2_HMAT_H

#include <stdbool.h>
#include <stdint.h>

#include "bandwidth/srat.h"

/* The data types of a System Locality Latency and Bandwidth structure. */
enum hmat_data {
	HMAT_ACCESS_LATENCY, HMAT_READ_LATENCY, HMAT_WRITE_LATENCY,
	HMAT_ACCESS_BW, HMAT_READ_BW, HMAT_WRITE_BW, HMAT_DATA_TYPES
};

struct hmat {
	struct pd_map map;		/* the domains' nodes (SRAT) */
	/* [type][initiator node][target node]: MB/s or ns, 0 where not given */
	uint32_t v[HMAT_DATA_TYPES][BW_MAX_NODES][BW_MAX_NODES];
};

/* HMAT's bandwidths as --weights=auto uses them: min(read, write) in MB/s
 * from each initiator node to each target node, 0 where not given; what
 * root reads, and what a reader that runs as root (the weight-table
 * service) can hand to a user's numactl2 (auto_weights_read_rows()). */
struct hmat_rows {
	bool from_srat;			/* the domains' nodes from SRAT */
	uint32_t mbps[BW_MAX_NODES][BW_MAX_NODES];	/* [initiator][target] */
};

/* Reads HMAT's memory-level (not cache) entries, domains mapped to nodes by
 * pd_map_read(); entries of domains without a node below BW_MAX_NODES are
 * left out. Returns 0, a negative errno when the table cannot be read
 * (-EACCES: not root; -ENOENT: no HMAT), -EBADMSG when any part of it is
 * malformed (nothing of it is used then), -ENODATA when it gives no
 * bandwidth, or -ENOMEM. */
int hmat_read(struct hmat *h);
/* min(read, write) bandwidth in MB/s, as the kernel's access classes; 0: none. */
uint32_t hmat_bandwidth(const struct hmat *h, unsigned initiator, unsigned target);
/* Every pair's hmat_bandwidth() into ROWS. */
void hmat_rows(const struct hmat *h, struct hmat_rows *rows);
/* hmat_read() and hmat_rows() in one, the table (96 KiB) on the heap for
 * the call's time: what hmat_read() returns. */
int hmat_read_rows(struct hmat_rows *rows);
/* max(read, write) latency in ns; 0: none. */
uint32_t hmat_latency(const struct hmat *h, unsigned initiator, unsigned target);

#endif

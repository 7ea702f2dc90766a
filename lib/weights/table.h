/* The kernel's global weighted-interleave weights:
 * /sys/kernel/mm/mempolicy/weighted_interleave/nodeN and its auto switch. */
#ifndef NUMACTL2_GWEIGHTS_H
#define NUMACTL2_GWEIGHTS_H

#include <stdbool.h>
#include <stdint.h>

#include "parse.h"

/* Tri-state auto switch: 6.16+ kernels only. */
enum gw_auto { GW_AUTO_ABSENT = -1, GW_AUTO_OFF = 0, GW_AUTO_ON = 1 };

/* One locked, all-or-nothing change of the global weights. */
struct gw_txn {
	int dirfd;			/* the sysfs directory, flock()ed */
	int fd[PARSE_MAX_NODES];	/* open nodeN files, -1 if not part of the change */
	uint8_t old[PARSE_MAX_NODES];	/* weight before the change */
	uint8_t new[PARSE_MAX_NODES];
	bool written[PARSE_MAX_NODES];	/* for rollback: only what was written */
	enum gw_auto auto_before;
};

const char *gw_dir(void);
bool gw_present(void);
int gw_nodes(bool has[PARSE_MAX_NODES]);
int gw_read(unsigned node, unsigned *weight);
int gw_open_node(unsigned node, int flags);
enum gw_auto gw_read_auto(void);

int gw_begin(struct gw_txn *t);
int gw_stage(struct gw_txn *t, unsigned node, uint8_t weight);
int gw_commit(struct gw_txn *t, unsigned *failed_node);
void gw_rollback(struct gw_txn *t);
void gw_end(struct gw_txn *t);
void gw_describe(const struct gw_txn *t, char *buf, size_t len);
int gw_enable_auto(void);

#endif

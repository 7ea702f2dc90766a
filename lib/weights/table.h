/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's global weighted-interleave weights as files:
 * /sys/kernel/mm/mempolicy/weighted_interleave/nodeN, its auto switch and
 * the directory lock. The lowest layer of lib/weights. */
#ifndef NUMACTL2_GWEIGHTS_H
#define NUMACTL2_GWEIGHTS_H

#include <stdbool.h>
#include <stdint.h>

#include "libnumactl2.h"
#include "parse.h"

/* Tri-state auto switch: 6.16+ kernels only. */
enum gw_auto { GW_AUTO_ABSENT = -1, GW_AUTO_OFF = 0, GW_AUTO_ON = 1 };

/* May this process write NODE's weight file (its effective IDs, as the
 * write would be checked)? --dry-run's foresight; the write itself says. */
bool gw_writable(unsigned node);

const char *gw_dir(void);
bool gw_present(void);
unsigned gw_node_count(void);
int gw_nodes(bool *has, unsigned count);
int gw_read(unsigned node, unsigned *weight);
int gw_open_node(unsigned node, int flags);
int gw_write(int fd, unsigned node, unsigned weight);
enum gw_auto gw_read_auto(void);
int gw_enable_auto(void);
int gw_lock_table(void);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whether the kernel can turn its auto weights back on once a node write
 * has turned them off: only where the platform gave some node bandwidth
 * data (mm/mempolicy.c, weighted_interleave_auto_store(): ENODEV without
 * it). Known before anything is written, so that a change that would lose
 * them until reboot is refused, or said, first. */
#ifndef NUMACTL2_OWNER_AUTOBACK_H
#define NUMACTL2_OWNER_AUTOBACK_H

#include <stdbool.h>

/* Does any of the first count nodes have access0 bandwidth (a
 * read_bandwidth or write_bandwidth above 0 under
 * /sys/devices/system/node/nodeN/access0/initiators/)? */
bool auto_can_come_back(unsigned count);

/* Would a node written now (of COUNT) turn the kernel's auto weights off
 * until reboot: are they on, with no node's bandwidth to turn them back on? */
bool auto_lost_by_write(unsigned count);

#endif

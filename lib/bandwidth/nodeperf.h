/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Node performance as the firmware reports it (ACPI HMAT, or CXL CDAT):
 * /sys/devices/system/node/nodeN/accessC/initiators/, MB/s and ns. */
#ifndef NUMACTL2_NODEPERF_H
#define NUMACTL2_NODEPERF_H

#include <stdbool.h>

const char *nodeperf_dir(void);
bool nodeperf_read(unsigned node, unsigned access, const char *file, unsigned long *value);
/* The bandwidth the kernel's auto weights use: min(read, write) in MB/s,
 * of access class 1 (the nearest CPU), or of class 0 where 1 is missing.
 * Returns the class, or -ENODATA when neither has both values above 0. */
int nodeperf_bandwidth(unsigned node, unsigned long *mbps);
/* The SLIT distance from node FROM to node TO (10-255), from sysfs, which
 * anyone can read. false when it cannot be read. */
bool nodeperf_distance(unsigned from, unsigned to, unsigned *d);

#endif

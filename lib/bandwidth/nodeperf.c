// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading a node's bandwidth and latency from sysfs, where the firmware's
 * (HMAT or CDAT) performance data is, nearest initiator first. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bandwidth/nodeperf.h"
#include "parse.h"

#define NODE_SYSFS "/sys/devices/system/node"

#ifdef NUMACTL2_TEST_BUILD
/* Test build only: NUMACTL2_SYSFS_NODE points at a fake node directory, so
 * host tests can give nodes bandwidths (the host's one node has none). */
const char *nodeperf_dir(void)
{
	const char *dir = getenv("NUMACTL2_SYSFS_NODE");

	return dir && *dir ? dir : NODE_SYSFS;
}
#else
const char *nodeperf_dir(void)
{
	return NODE_SYSFS;
}
#endif

bool nodeperf_read(unsigned node, unsigned access, const char *file, unsigned long *value)
{
	char path[256], buf[32];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/node%u/access%u/initiators/%s", nodeperf_dir(), node,
		 access, file);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok && parse_ulong(buf, ~0UL, value) == 0;
}

/* mm/mempolicy.c, mempolicy_set_node_perf(): min(read, write) of class 1. */
int nodeperf_bandwidth(unsigned node, unsigned long *mbps)
{
	for (int access = 1; access >= 0; access--) {
		unsigned long rb, wb;

		if (!nodeperf_read(node, (unsigned)access, "read_bandwidth", &rb) ||
		    !nodeperf_read(node, (unsigned)access, "write_bandwidth", &wb) || !rb || !wb)
			continue;
		*mbps = rb < wb ? rb : wb;
		return access;
	}
	return -ENODATA;
}

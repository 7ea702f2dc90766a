// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading a node's bandwidth and latency from sysfs, where the firmware's
 * (HMAT or CDAT) performance data is, nearest initiator first. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bandwidth/nodeperf.h"
#include "parse.h"
#include "sysfile/sysfile.h"

#define NODE_SYSFS "/sys/devices/system/node"

/* The test build reads NUMACTL2_SYSFS_NODE's fake node directory instead,
 * so host tests can give nodes bandwidths (the host's one node has none). */
const char *nodeperf_dir(void)
{
	return SYSFILE_DIR(NODE_SYSFS, "NUMACTL2_SYSFS_NODE");
}

bool nodeperf_read(unsigned node, unsigned access, const char *file, unsigned long *value)
{
	char path[256], buf[32];

	snprintf(path, sizeof(path), "%s/node%u/access%u/initiators/%s", nodeperf_dir(), node,
		 access, file);
	return sysfile_read_line(path, buf, sizeof(buf)) == 0 && nc2_parse_ulong(buf, ~0UL, value) == 0;
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

/* The SLIT distance FROM to TO, field TO of nodeFROM/distance (which lists
 * every node's, in order); false when it cannot be read. */
bool nodeperf_distance(unsigned from, unsigned to, unsigned *d)
{
	char path[256], buf[1024], *tok, *save = NULL;
	unsigned long v = 0;
	unsigned i = 0;
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/node%u/distance", nodeperf_dir(), from);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	for (tok = ok ? strtok_r(buf, " ", &save) : NULL; tok && i < to; i++)
		tok = strtok_r(NULL, " ", &save);
	if (!tok || nc2_parse_ulong(tok, 255, &v) < 0 || v < 10)
		return false;
	*d = (unsigned)v;
	return true;
}

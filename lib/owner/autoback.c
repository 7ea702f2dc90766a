// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel's auto weights, and whether they can come back (autoback.h).
 * The node files are read through lib/bandwidth (the test build's fake
 * node directory, NUMACTL2_SYSFS_NODE, where a test gives one). */
#include "bandwidth/nodeperf.h"
#include "owner/autoback.h"
#include "weights/table.h"

bool auto_can_come_back(unsigned count)
{
	static const char *const files[] = { "read_bandwidth", "write_bandwidth" };

	for (unsigned n = 0; n < count; n++)
		for (unsigned f = 0; f < 2; f++) {
			unsigned long mbps = 0;

			if (nodeperf_read(n, 0, files[f], &mbps) && mbps)
				return true;
		}
	return false;
}

bool auto_lost_by_write(unsigned count)
{
	return gw_read_auto() == GW_AUTO_ON && !auto_can_come_back(count);
}

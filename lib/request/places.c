// SPDX-License-Identifier: GPL-2.0-or-later
/* The places the library reads and writes, by name, for the front ends'
 * messages: each is owned by its module, which the front ends do not call. */
#include "bandwidth/nodeperf.h"
#include "libnumactl2.h"
#include "uapi/mempolicy2.h"
#include "owner/server.h"
#include "weights/table.h"

/* The kernel series' list of its calls: a fixed path, for the table below. */
static const char *mpol2_calls(void)
{
	return MPOL2_SYSCALLS_FILE;
}

const char *nc2_lib_place(enum nc2_lib_place place)
{
	static const char *(*const dir[])(void) = {
		[LIB_TABLE] = gw_dir,
		[LIB_OWNER] = owner_dir,
		[LIB_NODEPERF] = nodeperf_dir,
		[LIB_MPOL2_CALLS] = mpol2_calls,
	};

	return dir[place]();
}

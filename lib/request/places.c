// SPDX-License-Identifier: GPL-2.0-or-later
/* The places the library reads and writes, by name, for the front ends'
 * messages: each is owned by its module, which the front ends do not call. */
#include "request/request.h"
#include "bandwidth/nodeperf.h"
#include "weights/baseline.h"
#include "weights/record.h"
#include "weights/table.h"

const char *lib_place(enum lib_place place)
{
	static const char *(*const dir[])(void) = {
		[LIB_TABLE] = gw_dir,
		[LIB_BASELINE] = baseline_dir,
		[LIB_RECORDS] = record_dir,
		[LIB_NODEPERF] = nodeperf_dir,
	};

	return dir[place]();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* A plan's lines for a front end: the plan (plan.h), which the printers
 * do not see, read into what its lines say and handed to them
 * (lib/print/planprint.c, lib/bandwidth/autoprint.c); and --weights=auto's
 * notice, as a value. */
#include <stdio.h>

#include "bandwidth/autoweights.h"
#include "libnumactl2.h"
#include "print/planprint.h"
#include "request/plan.h"

int nc2_request_print_weights(FILE *out, const struct request *r, const struct plan *pl,
			  struct nc2_error *e)
{
	const struct plan_lines lines = {
		.why = pl->why,
		.measured = pl->measured,
		.table_change = pl->table_change,
		.auto_gone = pl->dry_auto_gone,
		.libnuma = nc2_plan_libnuma(pl),
		.aw = pl->auto_weights ? pl->autow : NULL,
	};

	return plan_print_weights(out, r, &lines, e);
}

bool nc2_plan_auto_notice(const struct plan *pl, struct nc2_auto_notice *an)
{
	return pl->auto_weights && auto_weights_notice(pl->autow, an);
}

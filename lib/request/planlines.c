// SPDX-License-Identifier: GPL-2.0-or-later
/* A plan's lines for a front end: its own part, which the printers do not
 * see (planstate.h), handed to them (lib/print/planprint.c,
 * lib/bandwidth/autoprint.c); and --weights=auto's notice, as a value. */
#include <stdio.h>

#include "bandwidth/autoweights.h"
#include "libnumactl2.h"
#include "print/planprint.h"
#include "request/planstate.h"

int request_print_weights(FILE *out, const struct request *r, const struct plan *pl,
			  struct nc2_error *e)
{
	return plan_print_weights(out, r, pl, pl->state->autow, pl->state->dry_auto_gone, e);
}

bool nc2_plan_auto_notice(const struct plan *pl, struct nc2_auto_notice *an)
{
	return pl->auto_weights && auto_weights_notice(pl->state->autow, an);
}

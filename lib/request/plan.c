// SPDX-License-Identifier: GPL-2.0-or-later
/* A plan's life and what a front end reads of it (plan.h): made zeroed
 * and small, its larger parts allocated by the steps that fill them. */
#include <stdlib.h>

#include "error/error.h"
#include "libnumactl2.h"
#include "request/plan.h"

struct plan *nc2_plan_new(void)
{
	struct plan *pl = calloc(1, sizeof(*pl));

	if (pl)
		pl->gate = -1;
	return pl;
}

void nc2_plan_free(struct plan *pl)
{
	if (!pl)
		return;
	free(pl->autow);
	free(pl->grant);
	free(pl->libnuma);
	nc2_error_free(pl->libnuma_error);
	free(pl);
}

enum plan_why nc2_plan_why(const struct plan *pl)
{
	return pl->why;
}

bool nc2_plan_measured(const struct plan *pl)
{
	return pl->measured;
}

bool nc2_plan_table_change(const struct plan *pl)
{
	return pl->table_change;
}

bool nc2_plan_table_taken(const struct plan *pl)
{
	return pl->table_taken;
}

bool nc2_plan_undone_written(const struct plan *pl)
{
	return pl->undone_written;
}

const struct libnuma_finding *nc2_plan_libnuma(const struct plan *pl)
{
	return pl->libnuma_checked ? pl->libnuma : NULL;
}

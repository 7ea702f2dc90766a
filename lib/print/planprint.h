/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --dry-run's lines of a plan's weights (planprint.c), for the request's
 * nc2_request_print_weights(), which hands over what they say of the plan. */
#ifndef NUMACTL2_PLANPRINT_H
#define NUMACTL2_PLANPRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "bandwidth/autoweights.h"
#include "libnumactl2.h"

/* What the lines say of a plan, handed over by the request
 * (lib/request/planlines.c), which owns the plan. */
struct plan_lines {
	enum plan_why why;
	bool measured;			/* --weights=measured: measured when it runs */
	bool table_change;		/* the global table's weights: its holders too */
	bool auto_gone;			/* the change would turn the kernel's auto
					 * weights off until reboot */
	const struct libnuma_finding *libnuma;	/* the libnuma check's; NULL: not run */
	const struct auto_weights *aw;	/* --weights=auto's bandwidths; NULL: not auto */
};

/* R's plan as PL says it: the weights, where they go and the leases in
 * their way, the auto weights it would turn off, the libnuma check it did
 * not run, and --weights=auto's bandwidths; 0, or -1 with E's fault
 * NC2_LEASES_UNLISTED. */
int plan_print_weights(FILE *out, const struct request *r, const struct plan_lines *pl,
		       struct nc2_error *e);

#endif

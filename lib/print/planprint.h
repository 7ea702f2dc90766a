/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --dry-run's lines of a plan's weights (planprint.c), for the request's
 * request_print_weights(), which hands over the plan's own part. */
#ifndef NUMACTL2_PLANPRINT_H
#define NUMACTL2_PLANPRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "bandwidth/autoweights.h"
#include "libnumactl2.h"

/* R's plan PL: the weights, where they go and the leases in their way,
 * AUTO_GONE (the change would turn the kernel's auto weights off until
 * reboot), the libnuma check it did not run, and --weights=auto's
 * bandwidths AW (read only when PL says auto); 0, or -1 with E's fault
 * NC2_LEASES_UNLISTED. */
int plan_print_weights(FILE *out, const struct request *r, const struct plan *pl,
		       const struct auto_weights *aw, bool auto_gone, struct nc2_error *e);

#endif

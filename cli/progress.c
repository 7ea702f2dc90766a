// SPDX-License-Identifier: GPL-2.0-or-later
/* --measure's progress line on a terminal (measure.c's progress callback):
 * shown once the measurement has taken more than a second, cleared at its
 * end. */
#include <stdio.h>

#include "cli/progress.h"

void measure_progress_line(const struct measure_progress *pr, void *arg)
{
	bool *shown = arg;

	if (pr->done) {
		if (*shown)
			fputs("\r\033[K", stderr);
		return;
	}
	if (pr->secs < 1.0)
		return;
	fprintf(stderr, "\rnumactl2: measuring node %u (%u of %u), pass %u of %u ",
		pr->node, pr->index + 1, pr->nodes, pr->pass, MEASURE_PASSES);
	*shown = true;
}

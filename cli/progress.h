/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --measure's progress line on a terminal (measure.c's progress callback). */
#ifndef NUMACTL2_PROGRESS_H
#define NUMACTL2_PROGRESS_H

#include "libnumactl2.h"

/* For measure_req's progress; arg is a bool, false at the start, that says
 * whether the line is on the screen. */
void measure_progress_line(const struct measure_progress *pr, void *arg);

#endif

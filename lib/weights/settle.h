/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Putting the global table back as it was (settle.c): at a job's end, at a
 * Slurm step's end, and first thing in any run that changes the table. */
#ifndef NUMACTL2_SETTLE_H
#define NUMACTL2_SETTLE_H

#include <stdbool.h>

#include "libnumactl2.h"
#include "weights/holders.h"

int settle_table(struct settle *s);
int table_after_job(struct settle *s);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Saying what a change of the system-wide weights did, or why it failed. */
#ifndef NUMACTL2_GLOBALOPS_H
#define NUMACTL2_GLOBALOPS_H

#include <stdbool.h>

#include "libnumactl2.h"

void global_report(const struct table_said *t);
void global_settle_report(const struct settle *s);
void global_restore_report(const struct job_end *end);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Saying what numactl2 did about a program whose libnuma drops task-local
 * weights at start-up (lib/job/libnumacheck.c). */
#ifndef NUMACTL2_LIBNUMAMSG_H
#define NUMACTL2_LIBNUMAMSG_H

#include "libnumactl2.h"

void libnuma_global_said(const struct libnuma_finding *f);

#endif

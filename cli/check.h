/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The checks across options, once the whole command line is read. */
#ifndef NUMACTL2_CHECK_H
#define NUMACTL2_CHECK_H

#include "cli/ctl.h"

void cli_validate(struct ctl *ctl);

#endif

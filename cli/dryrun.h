/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --dry-run: what a run would do, on stdout, with nothing changed. */
#ifndef NUMACTL2_DRYRUN_H
#define NUMACTL2_DRYRUN_H

#include "cli/ctl.h"

int dry_run(struct ctl *ctl);

#endif

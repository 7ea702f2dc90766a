#ifndef NUMACTL2_DRYRUN_H
#define NUMACTL2_DRYRUN_H

#include "ctl.h"
#include "parse.h"

int dry_run(const struct ctl *ctl);
int global_set(const struct weight_list *wl);
int global_reset(void);
int global_auto(void);

#endif

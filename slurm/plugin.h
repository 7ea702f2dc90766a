/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Slurm plugin's options (spankopts.c), registered with Slurm and
 * checked together; what a task does with them is task.h's. */
#ifndef NUMACTL2_SLURM_PLUGIN_H
#define NUMACTL2_SLURM_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <slurm/spank.h>

#include "slurm/task.h"

extern struct plugin_opts opts;

int options_register(spank_t sp);
int options_check(char *msg, size_t len);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* numactl2's command line read into a struct ctl, option by option. */
#ifndef NUMACTL2_CLI_CMDLINE_H
#define NUMACTL2_CLI_CMDLINE_H

#include "cli/ctl.h"

/* ctl must start zeroed: main() keeps it static, so nothing clears 4 KiB per run. */
void cli_parse(struct ctl *ctl, int argc, char **argv);

#endif

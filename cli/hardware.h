/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --hardware: numactl's description of the machine's nodes, with each
 * node's performance and global interleave weight. */
#ifndef NUMACTL2_HARDWARE_H
#define NUMACTL2_HARDWARE_H

#include <stdbool.h>

int show_hardware(bool cpu_compress);

#endif

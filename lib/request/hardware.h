/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --hardware: numactl's description of the machine's nodes, with each
 * node's performance, the HMAT matrix and the global interleave weights. */
#ifndef NUMACTL2_HARDWARE_H
#define NUMACTL2_HARDWARE_H

#include <stdbool.h>
#include <stdio.h>

/* Written to OUT: 0; -ENOSYS: no NUMA here (OUT says so, as numactl does);
 * -ENOMEM: the table's leases cannot be listed (nothing written). */
int hardware_print(FILE *out, bool cpu_compress);

#endif

/* --show: the task's policy and bindings in numactl's lines, the leases
 * held on the global weights, and numactl's printing of a node mask. */
#ifndef NUMACTL2_SHOW_H
#define NUMACTL2_SHOW_H

#include <numa.h>

int show_policy(void);
void show_leases(void);
/* numactl's printmask() on stdout: "name: 0 1 \n". */
void nodes_print(const char *name, const struct bitmask *mask);

#endif

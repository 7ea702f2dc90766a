#ifndef NUMACTL2_SHOW_H
#define NUMACTL2_SHOW_H

#include <stdbool.h>

int show_policy(void);
int show_hardware(bool cpu_compress);
void show_leases(void);

#endif

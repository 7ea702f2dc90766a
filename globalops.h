/* Changing the system-wide weights on the user's behalf, and saying so. */
#ifndef NUMACTL2_GLOBALOPS_H
#define NUMACTL2_GLOBALOPS_H

#include "gweights.h"
#include "parse.h"

int global_set(const struct weight_list *wl);
int global_reset(void);
int global_auto(void);
void global_report(const struct gw_txn *t);
void global_failed(int rc, unsigned node) __attribute__((noreturn));

#endif

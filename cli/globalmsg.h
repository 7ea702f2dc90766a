/* Changing the system-wide weights on the user's behalf, and saying so. */
#ifndef NUMACTL2_GLOBALOPS_H
#define NUMACTL2_GLOBALOPS_H

#include "weights/table.h"
#include "weights/lease.h"
#include "parse.h"

/* R: force and wait as asked; the operation fills the rest. */
int global_set(const struct weight_list *wl, struct lease_request *r);
int global_reset(struct lease_request *r);
int global_auto(struct lease_request *r);
void global_report(const struct gw_txn *t);
void global_lease_report(const struct lease *l);
void global_failed(int rc, unsigned node) __attribute__((noreturn));
void global_refused(const struct lease_request *r, int rc, const struct lease_conflict *c,
		    unsigned node) __attribute__((noreturn));

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Saying what a change of the system-wide weights did, or why it failed. */
#ifndef NUMACTL2_GLOBALOPS_H
#define NUMACTL2_GLOBALOPS_H

#include <stdbool.h>

#include "libnumactl2.h"

void global_report(const struct gw_txn_said *t);
void global_settle_report(const struct settle *s);
void global_lease_report(const struct lease_said *l);
/* The table's leases could not be listed (out of memory): exit 1. */
void global_leases_unlisted(void) __attribute__((noreturn));
int global_admin_report(int rc, const struct admin_result *res, bool auto_mode);
void global_restore_report(int rc, const struct restore_result *res);

#endif

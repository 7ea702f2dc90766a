/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libnumactl2's public header: everything a front end (the numactl2 CLI,
 * a Slurm plugin) links against. The library never prints, exits or
 * calls err(): each call returns 0 or a negative errno, with what went
 * wrong in the struct it was given, and the front end words it. Functions
 * whose names say they print write only to the FILE * they are given. */
#ifndef LIBNUMACTL2_H
#define LIBNUMACTL2_H

/* Policies: as asked (spec.h), set on the task or a range, task-local
 * weights where the kernel has them, node lists, --shm/--file regions. */
#include "policy/spec.h"
#include "policy/policy.h"
#include "policy/mpol2.h"
#include "policy/remote.h"
#include "policy/migplan.h"
#include "policy/threads.h"
#include "policy/nodes.h"
#include "policy/shm.h"

/* Weights: where they go, the global table and its transaction, leases,
 * their records and holders, the admin operations, --restore-weights. */
#include "weights/target.h"
#include "weights/table.h"
#include "weights/txn.h"
#include "weights/record.h"
#include "weights/holders.h"
#include "weights/admin.h"
#include "weights/restore.h"
#include "weights/baseline.h"
#include "weights/settle.h"
#include "weights/view.h"

/* Bandwidths: from the firmware, measured, and the weights they give. */
#include "bandwidth/nodeperf.h"
#include "bandwidth/measure.h"
#include "bandwidth/memcg.h"
#include "bandwidth/autoweights.h"
#include "bandwidth/hmat.h"

/* The job as a child (and how its exec would fail), where its pages
 * went; a running process's pages moved (--pid --migrate). */
#include "job/supervise.h"
#include "job/leaksan.h"
#include "job/fdpark.h"
#include "job/watcher.h"
#include "job/report.h"
#include "job/libnumacheck.h"
#include "job/progload.h"
#include "job/migranges.h"
#include "job/migrate.h"

/* A request: filled by a front end, resolved into a plan, applied; what
 * happens at the job's end. */
#include "request/request.h"
#include "request/hardware.h"
#include "request/show.h"

#endif

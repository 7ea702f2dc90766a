/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --weights=auto: weights for the nodes of the interleave set from the
 * bandwidth the job's own CPUs get from them, with the kernel's own auto
 * weights beside them for --dry-run. */
#ifndef NUMACTL2_AUTOWEIGHTS_H
#define NUMACTL2_AUTOWEIGHTS_H

#include <stdint.h>
#include <stdio.h>
#include <numa.h>

#include "bandwidth/bwsum.h"
#include "bandwidth/hmat.h"
#include "bandwidth/initiators.h"
#include "bandwidth/kernelrule.h"
#include "libnumactl2.h"

/* Where the bandwidths came from, best first; a run reports the worst it used. */
enum auto_source {
	AUTO_HMAT,		/* HMAT: each of the job's initiators to each node */
	AUTO_NEAREST,		/* sysfs access1/0, and the job is on the initiator they name */
	AUTO_SLIT,		/* sysfs access1/0 scaled by the SLIT distances */
	AUTO_AS_IS,		/* sysfs access1/0 as is, for a job elsewhere (no distances) */
};

struct auto_weights {
	unsigned n;				/* nodes of the interleave set */
	unsigned node[BW_MAX_NODES];
	double bw[BW_MAX_NODES];		/* MB/s, from the job's CPUs */
	bool exact[BW_MAX_NODES];		/* bw is the firmware's own for the job's CPUs */
	double kbw[BW_MAX_NODES];		/* MB/s, what the kernel's auto mode reads */
	int access[BW_MAX_NODES];		/* sysfs access class of kbw, -1: none */
	enum auto_source source;
	int hmat_rc;				/* why HMAT was not used (0: it was) */
	bool via_owner;				/* HMAT read by numactl2d for a user */
	bool srat;				/* HMAT's domains mapped to nodes by SRAT */
	struct initiators init;			/* the job's CPU nodes */
	bool local[BW_MAX_NODES];		/* nearest to the job's CPUs */
	unsigned budget;			/* or BW_BUDGET_CHOOSE */
	uint8_t w[BW_MAX_NODES];		/* numactl2's */
	struct bw_choice choice;		/* w's sum and why */
	uint8_t kernel[BW_MAX_NODES];		/* the kernel's rule on kbw, weightiness 32 */
	unsigned nlocal;			/* local nodes of the set, when fewer than n */
	uint8_t wlocal[BW_MAX_NODES];		/* numactl2's for them alone */
	double tlocal;				/* and their modelled T */
};

/* Fills the bandwidths for the job's CPUs (initiators_read() with CPUNODES
 * and CPUS, either may be NULL): from HMAT where it can be read and gives
 * every pair, else from sysfs (scaled by SLIT distance where the job is not
 * on the nearest initiator). A job on several nodes gets the mix, each
 * initiator's bandwidth weighted by its share of the job's CPUs. Returns 0,
 * -E2BIG (more than BW_MAX_NODES nodes), -ENODATA (*bad_node has no
 * bandwidth), -ESRCH (the job's CPUs are on no node) or -ENOMEM. */
int auto_weights_read(const struct bitmask *nodes, const struct bitmask *cpunodes,
		      const struct bitmask *cpus, struct auto_weights *aw, unsigned *bad_node);
/* The same from HMAT's rows read elsewhere, by root (the weight-table
 * service): the rows of the job's initiators, mixed as above, give the
 * weights root's auto_weights_read() gets from the same table (both go
 * through one function). Returns as auto_weights_read(), and -ENODATA with
 * *bad_node when ROWS lacks a pair the job needs. */
int auto_weights_read_rows(const struct bitmask *nodes, const struct bitmask *cpunodes,
			   const struct bitmask *cpus, const struct hmat_rows *rows,
			   struct auto_weights *aw, unsigned *bad_node);
/* From bw[]: w[] at budget (BW_BUDGET_CHOOSE: the sum chosen too, see
 * bw_choose_weights()), kernel[], and the weights of the local nodes
 * alone. Returns 0 or -EINVAL (budget < n). */
int auto_weights_choose(struct auto_weights *aw, unsigned budget);

/* Whether some node's bandwidth is a guess (HMAT could not be read and
 * the job is not on that node's nearest initiator). */
bool auto_weights_approximated(const struct auto_weights *aw);
/* The worst case the exact figures allow for weights W (indexed as aw's
 * nodes; 0: not in the set): the model's T over the nodes whose bw is
 * exact alone, the others counted for nothing. Never above *total, their
 * bandwidth sum, which the job's CPUs can draw: the figure an approximated
 * row stands behind. 0 when no node of W is exact. */
double auto_worst_case(const struct auto_weights *aw, const uint8_t *w, double *total);

/* --dry-run's lines for aw, after auto_weights_choose(), to f (autoprint.c). */
void auto_weights_print(FILE *f, const struct auto_weights *aw);
/* Whether the row is approximated; if so, AN is the run's notice
 * (autoprint.c: the words it shares with --dry-run's lines). */
bool auto_weights_notice(const struct auto_weights *aw, struct nc2_auto_notice *an);

#endif

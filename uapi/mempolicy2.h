/* The user-space interface of the project's kernel series (kernel/):
 * set_mempolicy2(), get_mempolicy2() and mbind2(), shared by numactl2, the
 * guest tests and the patches themselves.
 *
 * The layout of struct mpol_args is the seed series' v5, unchanged. The
 * syscall numbers are the project's choice and exist only on a kernel with
 * the series: such a kernel lists them in MPOL2_SYSCALLS_FILE, one
 * "name number" line each. Nothing may call them on a kernel that has not
 * listed them there (on stock 6.12 and later, 457-459 are other calls).
 */
#ifndef NUMACTL2_UAPI_MEMPOLICY2_H
#define NUMACTL2_UAPI_MEMPOLICY2_H

#include <linux/types.h>

#define MPOL2_SYSCALLS_FILE "/sys/kernel/mm/mempolicy/syscalls"

#define MPOL2_NR_set_mempolicy2 500
#define MPOL2_NR_get_mempolicy2 501
#define MPOL2_NR_mbind2         502

struct mpol_args {
	__u16 mode;
	__u16 mode_flags;
	__s32 home_node;		/* mbind2 with MPOL_MF_HOME_NODE */
	__u64 pol_maxnodes;		/* bits in pol_nodes, entries in il_weights */
	__aligned_u64 pol_nodes;	/* unsigned long * nodemask */
	__aligned_u64 il_weights;	/* unsigned char *, pol_maxnodes entries; 0: global */
};

/* Sizes: VER0 lacks il_weights (the global weights apply); a size below
 * VER0 is EINVAL, a larger size than the kernel's struct is E2BIG unless
 * the tail is zero. */
#define MPOL_ARGS_SIZE_VER0 24
#define MPOL_ARGS_SIZE_VER1 32

/* get_mempolicy2 output, in mode_flags: the weights returned in il_weights
 * are the policy's own (set with il_weights), not the global table's. */
#define MPOL_F_TASK_WEIGHTS (1 << 12)

/* get_mempolicy2 flags */
#ifndef MPOL_F_ADDR
#define MPOL_F_ADDR (1 << 1)		/* the policy of the VMA at addr */
#endif

/* mbind2 flags, besides MPOL_MF_STRICT/MOVE/MOVE_ALL */
#define MPOL_MF_HOME_NODE (1 << 4)	/* home_node is valid */

#endif

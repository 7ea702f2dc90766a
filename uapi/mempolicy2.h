/* SPDX-License-Identifier: GPL-2.0-or-later WITH Linux-syscall-note */
/* The user-space interface of the project's kernel series (kernel/):
 * set_mempolicy2(), get_mempolicy2() and mbind2(), shared by numactl2, the
 * guest tests and the patches themselves.
 *
 * The layout of struct mpol_args is the seed series' v5, unchanged. The
 * syscall numbers exist only on a kernel with the series, and nothing here
 * names them: such a kernel lists them in MPOL2_SYSCALLS_FILE, one
 * "name abi number" line per call and ABI (x86_64, x32, i386, or the
 * kernel's machine name on generic-table arches). Nothing may call a number
 * its own ABI's lines do not list (on a stock kernel it may be another call).
 *
 * An all-zero il_weights (or none) means "follows the global table"; a
 * policy with weights of its own reads back nonzero weights. There is no
 * output flag for it.
 *
 * A patched <linux/mempolicy.h> defines struct mpol_args and the sizes
 * itself: included before this file, its definitions are the ones used.
 */
#ifndef NUMACTL2_UAPI_MEMPOLICY2_H
#define NUMACTL2_UAPI_MEMPOLICY2_H

#include <linux/types.h>

#define MPOL2_SYSCALLS_FILE "/sys/kernel/mm/mempolicy/syscalls"

#ifndef MPOL_ARGS_SIZE_VER0
struct mpol_args {
	__u16 mode;
	__u16 mode_flags;
	__s32 home_node;		/* with MPOL_MF_HOME_NODE */
	__u64 pol_maxnodes;		/* bits in pol_nodes, entries in il_weights */
	__aligned_u64 pol_nodes;	/* __u64 *: node n in bit n % 64 of word n / 64 */
	__aligned_u64 il_weights;	/* unsigned char *, pol_maxnodes entries; all 0: global */
};

/* Sizes: VER0 lacks il_weights (the global weights apply); a size below
 * VER0 is EINVAL, a larger size than the kernel's struct is E2BIG unless
 * the tail is zero. */
#define MPOL_ARGS_SIZE_VER0 24
#endif
#ifndef MPOL_ARGS_SIZE_VER1
#define MPOL_ARGS_SIZE_VER1 32
#endif

/* get_mempolicy2 flags */
#ifndef MPOL_F_ADDR
#define MPOL_F_ADDR (1 << 1)		/* the policy of the VMA at addr */
#endif

/* set_mempolicy2 and mbind2 flags (mbind2's besides MPOL_MF_STRICT/MOVE/
 * MOVE_ALL): home_node is read. Above the kernel's internal MPOL_MF_ bits. */
#ifndef MPOL_MF_HOME_NODE
#define MPOL_MF_HOME_NODE (1 << 16)
#endif

#endif

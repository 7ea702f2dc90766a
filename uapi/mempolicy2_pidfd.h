/* SPDX-License-Identifier: GPL-2.0-or-later WITH Linux-syscall-note */
/* What the kernel series' pidfd patch adds to the interface of
 * uapi/mempolicy2.h: set_mempolicy2 and get_mempolicy2 acting on the task
 * of a pidfd (numactl2 --pid, policy/remote.c).
 *
 * The struct grows by the pidfd and a reserved word (MPOL_ARGS_SIZE_VER2,
 * 40 bytes); here the growth is a struct of its own around the VER1 one, so
 * that struct mpol_args stays what the calls of uapi/mempolicy2.h pass.
 * pidfd is read only with the flag: MPOL_MF_PIDFD for set_mempolicy2,
 * MPOL_F_PIDFD (the same bit, in get_mempolicy2's own flag namespace) for
 * get_mempolicy2. A kernel without the patch refuses either flag (EINVAL).
 * Not for use after a <linux/mempolicy.h> that defines MPOL_ARGS_SIZE_VER2
 * (its struct mpol_args has the pidfd itself).
 */
#ifndef NUMACTL2_UAPI_MEMPOLICY2_PIDFD_H
#define NUMACTL2_UAPI_MEMPOLICY2_PIDFD_H

#include "uapi/mempolicy2.h"

struct mpol_args_pidfd {
	struct mpol_args v1;
	__s32 pidfd;
	__u32 __reserved;		/* 0 */
};

#define MPOL_ARGS_SIZE_VER2 40

#define MPOL_MF_PIDFD (1 << 17)		/* set_mempolicy2 */
#define MPOL_F_PIDFD (1 << 17)		/* get_mempolicy2 */

#endif

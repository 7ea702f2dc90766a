/* Raw memory-policy syscalls and the MPOL_* constants that older headers lack.
 *
 * libnuma's numaif.h wraps set_mempolicy/get_mempolicy/mbind, but Debian 12's
 * libnuma (2.0.16) predates MPOL_WEIGHTED_INTERLEAVE, so the mode is defined here.
 * set_mempolicy2() and friends were never merged: their numbers are reused by
 * other syscalls on mainline, so nothing here calls a number blindly.
 */
#ifndef NUMACTL2_SYSCALLS_H
#define NUMACTL2_SYSCALLS_H

#include <numaif.h>

#ifndef MPOL_DEFAULT
#define MPOL_DEFAULT 0
#endif
#ifndef MPOL_PREFERRED_MANY
#define MPOL_PREFERRED_MANY 5
#endif
#ifndef MPOL_WEIGHTED_INTERLEAVE
#define MPOL_WEIGHTED_INTERLEAVE 6
#endif
#ifndef MPOL_F_STATIC_NODES
#define MPOL_F_STATIC_NODES (1 << 15)
#endif
#ifndef MPOL_F_RELATIVE_NODES
#define MPOL_F_RELATIVE_NODES (1 << 14)
#endif
#ifndef MPOL_F_NUMA_BALANCING
#define MPOL_F_NUMA_BALANCING (1 << 13)
#endif
#define MPOL_MODE_FLAGS \
	(MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES | MPOL_F_NUMA_BALANCING)

#endif

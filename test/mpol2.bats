#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel series' interface on the host: which numbers numactl2 takes
# from /sys/kernel/mm/mempolicy/syscalls (lib/policy/mpol2.c, through
# test/mpol2_driver), and uapi/mempolicy2.h next to a patched
# <linux/mempolicy.h>. The calls themselves run in the guest (test/vm/guest).

load helpers

MPOL2_DRIVER=${MPOL2_DRIVER:-$BATS_TEST_DIRNAME/../build/test/mpol2_driver}
top=$BATS_TEST_DIRNAME/..

# The list of a 7.2 kernel with the series, x32 and IA-32 emulation on.
LIST72='set_mempolicy2 x86_64 472
get_mempolicy2 x86_64 473
mbind2 x86_64 474
set_mempolicy2 x32 1073742296
get_mempolicy2 x32 1073742297
mbind2 x32 1073742298
set_mempolicy2 i386 472
get_mempolicy2 i386 473
mbind2 i386 474'

@test "syscalls list: each ABI takes its own lines" {
	run -0 "$MPOL2_DRIVER" x86_64 <<<"$LIST72"
	[ "$output" = "set=472 get=473 mbind=474" ]
	run -0 "$MPOL2_DRIVER" x32 <<<"$LIST72"
	[ "$output" = "set=1073742296 get=1073742297 mbind=1073742298" ]
	run -0 "$MPOL2_DRIVER" i386 <<<"$LIST72"
	[ "$output" = "set=472 get=473 mbind=474" ]
}

@test "syscalls list: the lines in any order, other ABIs between them" {
	run -0 "$MPOL2_DRIVER" aarch64 <<<$'mbind2 aarch64 474\nset_mempolicy2 x86_64 1\nset_mempolicy2 aarch64 472\nget_mempolicy2 aarch64 473'
	[ "$output" = "set=472 get=473 mbind=474" ]
}

@test "syscalls list: a call not listed for this ABI means no calls" {
	run -1 "$MPOL2_DRIVER" x86_64 <<<$'set_mempolicy2 x86_64 472\nget_mempolicy2 x86_64 473\nmbind2 x32 1073742298'
	[ "$output" = none ]
	run -1 "$MPOL2_DRIVER" riscv64 <<<"$LIST72"
	[ "$output" = none ]
	run -1 "$MPOL2_DRIVER" x86_64 <<<""
	[ "$output" = none ]
}

@test "syscalls list: the old two-field format means no calls" {
	run -1 "$MPOL2_DRIVER" x86_64 <<<$'set_mempolicy2 500\nget_mempolicy2 501\nmbind2 502'
	[ "$output" = none ]
	# one old line among new ones: the list is not one numactl2 knows
	run -1 "$MPOL2_DRIVER" x86_64 <<<"$LIST72"$'\nmbind2 502'
	[ "$output" = none ]
}

@test "syscalls list: bad numbers and extra fields mean no calls" {
	run -1 "$MPOL2_DRIVER" x86_64 <<<"${LIST72/473/47x}"
	[ "$output" = none ]
	run -1 "$MPOL2_DRIVER" x86_64 <<<"${LIST72/473/-473}"
	[ "$output" = none ]
	run -1 "$MPOL2_DRIVER" x86_64 <<<"${LIST72/473/473 1}"
	[ "$output" = none ]
	run -1 "$MPOL2_DRIVER" x86_64 <<<"${LIST72/473/99999999999999999999}"
	[ "$output" = none ]
}

@test "syscalls list: calls of a later series are ignored" {
	run -0 "$MPOL2_DRIVER" x86_64 <<<"$LIST72"$'\nmigrate_pages2 x86_64 475'
	[ "$output" = "set=472 get=473 mbind=474" ]
}

# A patched <linux/mempolicy.h> (kernel/) defines struct mpol_args and its
# sizes; uapi/mempolicy2.h after it must compile and take its definitions.
@test "uapi/mempolicy2.h compiles after a patched <linux/mempolicy.h>" {
	local c=$BATS_TEST_TMPDIR/both.c
	cat >"$c" <<-EOF
		#include <linux/types.h>
		/* as the patched include/uapi/linux/mempolicy.h has them */
		struct mpol_args {
			__u16 mode;
			__u16 mode_flags;
			__s32 home_node;
			__u64 pol_maxnodes;
			__aligned_u64 pol_nodes;
			__aligned_u64 il_weights;
		};
		#define MPOL_ARGS_SIZE_VER0 24
		#define MPOL_ARGS_SIZE_VER1 32
		#define MPOL_MF_HOME_NODE (1 << 16)
		#include "uapi/mempolicy2.h"
		_Static_assert(sizeof(struct mpol_args) == MPOL_ARGS_SIZE_VER1, "size");
		int main(void) { return MPOL_MF_HOME_NODE == (1 << 16) ? 0 : 1; }
	EOF
	run -0 gcc -std=gnu17 -Wall -Wextra -Werror -I "$top" -o "$BATS_TEST_TMPDIR/both" "$c"
	run -0 "$BATS_TEST_TMPDIR/both"
}

@test "uapi/mempolicy2.h alone: the struct, its sizes and the flags" {
	local c=$BATS_TEST_TMPDIR/alone.c
	cat >"$c" <<-EOF
		#include <stddef.h>
		#include "uapi/mempolicy2.h"
		_Static_assert(sizeof(struct mpol_args) == MPOL_ARGS_SIZE_VER1, "VER1");
		_Static_assert(offsetof(struct mpol_args, il_weights) == MPOL_ARGS_SIZE_VER0, "VER0");
		_Static_assert(MPOL_MF_HOME_NODE == (1 << 16), "home node flag");
		int main(void) { return 0; }
	EOF
	run -0 gcc -std=gnu17 -Wall -Wextra -Werror -I "$top" -o "$BATS_TEST_TMPDIR/alone" "$c"
	# the output flag of the 6.12 series is gone from the ABI
	run -1 grep -c MPOL_F_TASK_WEIGHTS "$top/uapi/mempolicy2.h"
}

@test "uapi/mempolicy2_pidfd.h: the VER2 struct, the pidfd at 32, the flags" {
	local c=$BATS_TEST_TMPDIR/pidfd.c top=$BATS_TEST_DIRNAME/..
	cat >"$c" <<-EOF
		#include <stddef.h>
		#include "uapi/mempolicy2_pidfd.h"
		_Static_assert(sizeof(struct mpol_args_pidfd) == MPOL_ARGS_SIZE_VER2, "VER2");
		_Static_assert(MPOL_ARGS_SIZE_VER2 == 40, "40 bytes");
		_Static_assert(offsetof(struct mpol_args_pidfd, pidfd) == MPOL_ARGS_SIZE_VER1, "pidfd");
		_Static_assert(sizeof(struct mpol_args) == MPOL_ARGS_SIZE_VER1, "VER1 unchanged");
		_Static_assert(MPOL_MF_PIDFD == (1 << 17) && MPOL_F_PIDFD == (1 << 17), "flags");
		_Static_assert((MPOL_MF_PIDFD & MPOL_MF_HOME_NODE) == 0, "apart from the home node");
		int main(void) { return 0; }
	EOF
	run -0 gcc -std=gnu17 -Wall -Wextra -Werror -I "$top" -o "$BATS_TEST_TMPDIR/pidfd" "$c"
}

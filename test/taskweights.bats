#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Task-local weights on a host kernel without them (no set_mempolicy2 in
# its list): the choice of path, and the new options' bad input. The
# patched kernel's side runs in the guest (test/vm/guest).

load helpers

setup() {
	[ ! -e /sys/kernel/mm/mempolicy/syscalls ] ||
		skip "this kernel lists set_mempolicy2: the guest suites test it"
}

@test "--dry-run: without set_mempolicy2 the weights go to the global table" {
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 --dry-run true
	[ "${lines[3]}" = "weights go to: global (sysfs), which every weighted-interleave task uses" ]
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 --global-weights --dry-run true
	[ "${lines[3]}" = "weights go to: global (sysfs), which every weighted-interleave task uses" ]
}

@test "--dry-run: its last line says why the weights go where they go" {
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 --dry-run true
	[ "${lines[-1]}" = "why the weights go there: this kernel has no task-local weights (no set_mempolicy2)" ]
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 --global-weights --dry-run true
	[ "${lines[-1]}" = "why the weights go there: --global-weights asks for the global table" ]
	NUMACTL2_TEST_TASK_LOCAL=1 run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=0:3 --dry-run true
	[ "${lines[-1]}" = "why the weights go there: this kernel has set_mempolicy2: the weights are this program's own" ]
	# Without --weights nothing is asked, and nothing said.
	run -0 --separate-stderr "$NUMACTL2" -w 0 --dry-run true
	[[ $output != *"why the weights"* ]] || return 1
}

@test "--no-global-weights refuses to fall back to the global table" {
	refused "numactl2: this kernel has no task-local weights (set_mempolicy2), and --no-global-weights forbids changing the global ones" "$NUMACTL2" \
		-w 0 --weights=0:3 --no-global-weights true
}

@test "--global-weights and --no-global-weights cannot be combined" {
	refused "numactl2: options --no-global-weights and --global-weights cannot be combined" "$NUMACTL2" \
		-w 0 --global-weights --no-global-weights true
}

@test "--home-node: bad input" {
	refused "numactl2: --home-node needs --shm or --file" "$NUMACTL2" --home-node=0 -m 0 true
	local max
	max=$(ls -d /sys/devices/system/node/node* | sed 's/.*node//' | sort -n | tail -n 1)
	refused "numactl2: invalid home node: '1000' (0-$max)" "$NUMACTL2" --home-node=1000 -m 0 true
	refused "numactl2: invalid home node: 'x' (0-$max)" "$NUMACTL2" --home-node=x -m 0 true
	refused "numactl2: --home-node given twice" "$NUMACTL2" --home-node=0 --home-node=0 -m 0 true
	refused "numactl2: --home-node needs --membind or --preferred-many on a kernel without mbind2 (numactl2(8), KERNELS)" "$NUMACTL2" \
		--length=1m --file="$BATS_TEST_TMPDIR/f" --home-node=0 -i 0
	refused "numactl2: --home-node needs a policy with nodes" "$NUMACTL2" \
		--length=1m --file="$BATS_TEST_TMPDIR/f" --home-node=0 --touch
}

@test "--home-node with --membind on a region: --dry-run names it" {
	run -0 --separate-stderr "$NUMACTL2" --length=1m --file=/dev/shm/nm2-hn-$$ --home-node=0 -m 0 --dry-run
	[[ $output == *$'\nhome node: 0\n'* ]]
	[ ! -e /dev/shm/nm2-hn-$$ ]
}

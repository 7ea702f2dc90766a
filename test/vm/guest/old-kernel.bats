#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# A kernel without weighted interleave (the 6.1 guest): numactl2 refuses it
# clearly, and everything else still works (classic.bats runs here too).

load common

setup_file() {
	thp never
}

@test "the guest kernel has no weighted interleave" {
	[[ "$(uname -r)" == 6.1.* ]]
	[ ! -e /sys/kernel/mm/mempolicy/weighted_interleave ]
}

# What numactl2 says to a weighted policy on this kernel (refused, test/lib).
OLD_KERNEL="numactl2: weighted interleave needs Linux 6.9 or later"

@test "-w NODES fails: needs Linux 6.9" {
	refused "$OLD_KERNEL" numactl2 -w 0,1 alloc -s 64K
}

@test "--weighted-interleave=NODES fails: needs Linux 6.9" {
	refused "$OLD_KERNEL" numactl2 --weighted-interleave=0-3 alloc -s 64K
}

@test "-w --interleave=NODES fails: needs Linux 6.9" {
	refused "$OLD_KERNEL" numactl2 -w --interleave=0,1 alloc -s 64K
}

@test "-w -i NODES fails: needs Linux 6.9" {
	refused "$OLD_KERNEL" numactl2 -w -i all alloc -s 64K
}

@test "--interleave with --weights fails: needs Linux 6.9" {
	refused "$OLD_KERNEL" numactl2 --interleave=0-2 --weights=0:5,1:2 alloc -s 64K
}

@test "-w with --weights fails: needs Linux 6.9" {
	refused "$OLD_KERNEL" numactl2 -w 0,1 --weights=0:9 alloc -s 64K
}

@test "--set-global-weights fails: no global weights before 6.9" {
	run -1 --separate-stderr numactl2 --set-global-weights=0:2
	echo "stderr: $stderr"
	[[ "$stderr" == numactl2:*"6.9"* ]]
}

@test "--reset-global-weights fails: no global weights before 6.9" {
	run -1 --separate-stderr numactl2 --reset-global-weights
	[[ "$stderr" == numactl2:*"6.9"* ]]
}

@test "--auto-global-weights fails: no global weights before 6.9" {
	run -1 --separate-stderr numactl2 --auto-global-weights
	echo "stderr: $stderr"
	[[ "$stderr" == numactl2:* ]]
}

@test "--show still works under -i" {
	run -0 --separate-stderr numactl2 -i 0-3 numactl2 --show
	echo "$output"
	[ "${lines[0]}" = "policy: interleave" ]
	printf '%s\n' "${lines[@]}" | grep -qx 'interleavemask: 0 1 2 3 *'
}

@test "-i still interleaves: 1,2 split evenly" {
	run -0 --separate-stderr numactl2 -i 1,2 alloc -s 64M
	assert_split "1 2" "1 1"
	assert_policy "interleave:1-2"
}

@test "-m still binds: all on node 2" {
	run -0 --separate-stderr numactl2 -m 2 alloc -s 64M
	assert_all_on 2
}

@test "-p still prefers: all on node 3" {
	run -0 --separate-stderr numactl2 -p 3 alloc -s 64M
	assert_all_on 3
}

@test "-l still allocates locally: all on node 0" {
	run -0 --separate-stderr numactl2 -l alloc -s 64M
	assert_all_on 0
}

@test "--hardware: four nodes and the HMAT bandwidths, no weights" {
	run -0 --separate-stderr numactl2 --hardware
	echo "$output"
	[ "${lines[0]}" = "available: 4 nodes (0-3)" ]
	printf '%s\n' "${lines[@]}" | grep -E '^node 0 bandwidth: .*\b204800\b'
	printf '%s\n' "${lines[@]}" | grep -E '^node 3 bandwidth: .*\b25600\b'
	! printf '%s\n' "${lines[@]}" | grep -i weight
}

# A weight table where the kernel has none (NUMACTL2_SYSFS_WI, a hook of the
# test build only, /vmtest/testbuild/numactl2 here): the writes succeed, set_mempolicy()
# then refuses mode 6, and the weights written must be put back before
# numactl2 reports the old kernel.
@test "a policy the kernel refuses puts the weights back" {
	local dir=$BATS_TEST_TMPDIR/wi n
	[ -x /vmtest/testbuild/numactl2 ]
	mkdir -p "$dir"
	for n in 0 1 2 3; do echo 1 >"$dir/node$n"; done
	NUMACTL2_SYSFS_WI=$dir run -1 --separate-stderr /vmtest/testbuild/numactl2 -w 0,1 --weights=0:5,1:3 alloc -s 64K
	echo "stderr: $stderr"
	[ "${stderr_lines[0]}" = "numactl2: changed global interleave weights: node0 1->5, node1 1->3" ]
	[ "${stderr_lines[1]}" = "numactl2: put the global interleave weights back" ]
	[ "${stderr_lines[2]}" = "numactl2: weighted interleave needs Linux 6.9 or later" ]
	[ -z "$output" ]
	for n in 0 1 2 3; do [ "$(cat "$dir/node$n")" = 1 ]; done
}

@test "--weights=auto fails: needs Linux 6.9, after reading the HMAT bandwidths" {
	refused "$OLD_KERNEL" numactl2 -w all --weights=auto alloc -s 64K
}

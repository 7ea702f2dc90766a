#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The same numactl2 on stock 6.12 and 7.2, which have no set_mempolicy2: it must take
# the global path, and must find that out without calling a number the kernel
# never listed.  sysguard (test/vm/sysguard.c) runs it under ptrace and kills
# it at the first call to 472-474 (the series' numbers on 7.2, abi16), 500-502
# (the 6.12 series') or 457-459 (the seed series' numbers, statmount,
# listmount and lsm_get_self_attr on 6.12 and 7.2).

load common

GUARD=457,458,459,472,473,474,500,501,502

setup_file() {
	thp never
}

setup() {
	reset_weights
}

teardown() {
	rm -f /mnt/tmpfs/global-path-*
	reset_weights
}

@test "global path: a stock kernel (6.12, 7.2) lists no extended calls" {
	[ -d /sys/kernel/mm/mempolicy/weighted_interleave ]
	[ ! -e /sys/kernel/mm/mempolicy/syscalls ]
}

@test "global path: sysguard catches a call to 472 (mpol2test calls set_mempolicy2)" {
	run -99 --separate-stderr sysguard "$GUARD" mpol2test zero-weight
	echo "$stderr"
	[[ "$stderr" == *"forbidden syscall 472"* ]]
}

@test "global path: --weights writes the global table, the split follows it, no forbidden call" {
	run -0 --separate-stderr sysguard "$GUARD" numactl2 -w 0-3 --weights=0:8,1:4,2:2,3:1 alloc -s 64M
	echo "$output"
	echo "$stderr"
	[[ "$stderr" == *"none forbidden"* ]]
	assert_split "0 1 2 3" "8 4 2 1"
	[ "$(global_weights)" = "8 4 2 1" ]
}

@test "global path: --show under --weights reports the global weights, no forbidden call" {
	run -0 --separate-stderr sysguard "$GUARD" numactl2 -w 0,1 --weights=0:5,1:2 numactl2 --show
	echo "$output"
	[[ "$stderr" == *"none forbidden"* ]]
	printf '%s\n' "$output" | grep -qx 'interleaveweights: 5 2'
	printf '%s\n' "$output" | grep -q '^weightsource: global'
}

@test "global path: --file with --weights uses mbind and the global table, no forbidden call" {
	run -0 --separate-stderr sysguard "$GUARD" numactl2 --length 4M --file /mnt/tmpfs/global-path-f \
		-w 0,1 --weights=0:3,1:1 --touch
	echo "$stderr"
	[[ "$stderr" == *"none forbidden"* ]]
	[ "$(global_weights | cut -d' ' -f1-2)" = "3 1" ]
}

@test "global path: --no-global-weights refuses, and changes nothing" {
	run -1 --separate-stderr sysguard "$GUARD" numactl2 --no-global-weights -w 0,1 --weights=0:4,1:1 true
	echo "$stderr"
	[[ "$stderr" == *"none forbidden"* ]]
	[ "$(global_weights)" = "1 1 1 1" ]
}

#!/usr/bin/env bats
# The kernel series (kernel/) through its own calls, on the 6.12-mpol2 guest:
# each test runs one case of test/vm/mpol2test.c, which calls
# set_mempolicy2, get_mempolicy2 and mbind2 directly and checks every page's
# node against the weighted round robin.

load common

setup_file() {
	thp never
}

setup() {
	reset_weights
}

teardown() {
	reset_weights
}

@test "mpol2: /sys/kernel/mm/mempolicy/syscalls lists the header's numbers, 500-502" {
	run -0 mpol2test syscalls-file
	echo "$output"
	[ "${lines[0]}" = "set_mempolicy2 500" ]
}

@test "mpol2: set_mempolicy2 with task weights 8:4:2:1: every page placed, read back, global table untouched" {
	run -0 mpol2test task-weights
	echo "$output"
}

@test "mpol2: set_mempolicy2 without il_weights follows the global weights (no MPOL_F_TASK_WEIGHTS)" {
	run -0 mpol2test global-weights
	echo "$output"
}

@test "mpol2: a weight of 0 for a node in the mask is EINVAL and keeps the old policy" {
	run -0 mpol2test zero-weight
	echo "$output"
}

@test "mpol2: nodes outside the mask get weight 1" {
	run -0 mpol2test outside-mask
	echo "$output"
}

@test "mpol2: unknown flags, modes and bad combinations are EINVAL" {
	run -0 mpol2test bad-flags
	echo "$output"
}

@test "mpol2: size versioning: < VER0 EINVAL, VER0 without weights, zero tail ok, non-zero tail E2BIG" {
	run -0 mpol2test sizes
	echo "$output"
}

@test "mpol2: pol_maxnodes up to a page of bits: no read or write past either side's buffers" {
	run -0 mpol2test maxnodes
	echo "$output"
}

@test "mpol2: mbind2 range weights; the rest follows the task policy; MPOL_F_ADDR reads them" {
	run -0 mpol2test mbind2-targeted
	echo "$output"
}

@test "mpol2: mbind2 MPOL_MF_HOME_NODE sets the home node of a BIND range" {
	run -0 mpol2test mbind2-home-node
	echo "$output"
}

@test "mpol2: mbind2 MPOL_MF_STRICT and MPOL_MF_MOVE as mbind: moved pages follow the weights" {
	run -0 mpol2test mbind2-move-strict
	echo "$output"
}

@test "mpol2: threads and forked children keep the task weights" {
	run -0 mpol2test inherit
	echo "$output"
}

@test "mpol2: set_mempolicy, get_mempolicy and mbind see no change" {
	run -0 mpol2test old-calls
	echo "$output"
}

@test "mpol2: other modes report no weights; default, interleave, bind, static nodes" {
	run -0 mpol2test other-modes
	echo "$output"
}

@test "mpol2: every case of mpol2test has a test here" {
	run -0 mpol2test -l
	[ "${#lines[@]}" -eq 14 ]
}

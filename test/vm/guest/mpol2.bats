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
	run mpol2test syscalls-file
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "set_mempolicy2 500" ]
}

@test "mpol2: set_mempolicy2 with task weights 8:4:2:1: every page placed, read back, global table untouched" {
	run mpol2test task-weights
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: set_mempolicy2 without il_weights follows the global weights (no MPOL_F_TASK_WEIGHTS)" {
	run mpol2test global-weights
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: a weight of 0 for a node in the mask is EINVAL and keeps the old policy" {
	run mpol2test zero-weight
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: nodes outside the mask get weight 1" {
	run mpol2test outside-mask
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: unknown flags, modes and bad combinations are EINVAL" {
	run mpol2test bad-flags
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: size versioning: < VER0 EINVAL, VER0 without weights, zero tail ok, non-zero tail E2BIG" {
	run mpol2test sizes
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: pol_maxnodes up to a page of bits: no read or write past either side's buffers" {
	run mpol2test maxnodes
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: mbind2 range weights; the rest follows the task policy; MPOL_F_ADDR reads them" {
	run mpol2test mbind2-targeted
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: mbind2 MPOL_MF_HOME_NODE sets the home node of a BIND range" {
	run mpol2test mbind2-home-node
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: mbind2 MPOL_MF_STRICT and MPOL_MF_MOVE as mbind: pages moved off node 3 follow the weights" {
	run mpol2test mbind2-move-strict
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: threads and forked children keep the task weights" {
	run mpol2test inherit
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: set_mempolicy, get_mempolicy and mbind see no change" {
	run mpol2test old-calls
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: other modes report no weights; default, interleave, bind, static nodes" {
	run mpol2test other-modes
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: page cache (no interleave index) follows the task weights: weighted_interleave_nodes" {
	run mpol2test page-cache
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: the bulk allocator (vmalloc'ed thread stacks) follows the task weights" {
	run mpol2test bulk
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: every case of mpol2test has a test here" {
	run -0 mpol2test -l
	[ "${#lines[@]}" -eq 16 ]
}

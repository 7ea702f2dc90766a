#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel series (kernel/) through its own calls, on the 7.2-mpol2 guest:
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

@test "mpol2: /sys/kernel/mm/mempolicy/syscalls lists 'name abi number', x86_64's 472-474" {
	run mpol2test syscalls-file
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "set_mempolicy2 x86_64 472" ]
}

@test "mpol2: set_mempolicy2 with task weights 8:4:2:1: every page placed, read back, global table untouched" {
	run mpol2test task-weights
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: set_mempolicy2 without il_weights (or all zero) follows the global weights, reads back all zero" {
	run mpol2test global-weights
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: a weight of 0 for a node in the mask is EINVAL and keeps the old policy" {
	run mpol2test zero-weight
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: weights of nodes outside the mask are kept and read back" {
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

@test "mpol2: mbind2 MPOL_MF_HOME_NODE sets the home node of a BIND range; EOPNOTSUPP for weighted interleave" {
	run mpol2test mbind2-home-node
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: set_mempolicy2 MPOL_MF_HOME_NODE: the task's home node; EOPNOTSUPP for weighted interleave" {
	run mpol2test set-home-node
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: get-then-set with MPOL_MF_HOME_NODE reproduces mode, nodes, home node and weights" {
	run mpol2test round-trip
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mpol2: a cpuset move 0-2 -> 1-3 -> 0-2 takes weights 1:1:8 along by position, 100 pages split 10/10/80" {
	run mpol2test cpuset-move
	echo "$output"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -q '^moved to 1-3: 100 pages: N0=0 N1=10 N2=10 N3=80 '
	printf '%s\n' "$output" | grep -q '^moved back to 0-2: 100 pages: N0=10 N1=10 N2=80 N3=0 '
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
	[ "${#lines[@]}" -eq 19 ]
}

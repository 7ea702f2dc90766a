#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# numactl's classic policies: numactl2 must place pages where numactl does.
# Runs on every guest kernel (6.12 and 6.1).

load common

setup_file() {
	thp never
}

# classic "OPTIONS" [alloc args]: run alloc under numactl2 OPTIONS.
classic() {
	local opts=$1
	shift
	# shellcheck disable=SC2086
	run -0 --separate-stderr numactl2 $opts alloc "$@"
	echo "numactl2 $opts: $output"
	[ "${#stderr_lines[@]}" -eq 0 ]
}

# same_as_numactl "OPTIONS": Debian's numactl with the same options puts
# the pages on the same nodes (64 MiB: a whole number of interleave rounds).
same_as_numactl() {
	local mine theirs
	# shellcheck disable=SC2086
	run -0 numactl2 $1 alloc -s 64M
	mine=$(node_tokens "$(region_line A nodes)")
	# shellcheck disable=SC2086
	run -0 numactl $1 alloc -s 64M
	theirs=$(node_tokens "$(region_line A nodes)")
	echo "numactl2 $1: $mine"
	echo "numactl $1:  $theirs"
	[ -n "$mine" ] || return 1
	[ "$mine" = "$theirs" ] || return 1
}

@test "no policy: every page on node 0, the CPUs' node" {
	run -0 alloc -s 16M
	assert_all_on 0
	assert_policy default
}

@test "-m 2: every page on node 2" {
	classic "-m 2" -s 64M
	assert_all_on 2
	assert_policy "bind:2"
	assert_maps_match
}

@test "--membind=1,3: every page on nodes 1 and 3" {
	classic "--membind=1,3" -s 64M
	assert_all_on "1 3"
	assert_policy "bind:1,3"
}

@test "-i 1,2: split evenly, page by page" {
	classic "-i 1,2" -s 64M
	assert_split "1 2" "1 1"
	assert_policy "interleave:1-2"
	assert_maps_match
}

@test "-i all: split evenly over the four nodes" {
	classic "-i all" -s 64M
	assert_split "0 1 2 3" "1 1 1 1"
	assert_policy "interleave:0-3"
}

@test "--interleave=0,3 on a small heap block: exact" {
	classic "--interleave=0,3" -k heap -s 64K
	assert_split "0 3" "1 1"
}

@test "-i 0-3 on a tmpfs file: exact" {
	classic "-i 0-3" -k tmpfs -s 16M
	assert_split "0 1 2 3" "1 1 1 1"
}

@test "-p 3: every page on node 3" {
	classic "-p 3" -s 64M
	assert_all_on 3
	assert_policy "prefer:3"
}

@test "-P 2,3: every page on nodes 2 and 3" {
	classic "-P 2,3" -s 64M
	assert_all_on "2 3"
	assert_policy "prefer (many):2-3"
}

@test "--preferred takes one node: -p 1,2 is refused and runs nothing" {
	# Nodes 1 and 2 exist here, so libnuma accepts the list and numactl2's
	# own check answers (on a one-node host libnuma's range check does).
	refused --usage --absent /tmp/preferred-ran "numactl2: --preferred takes one node: '1,2'" \
		numactl2 -p 1,2 touch /tmp/preferred-ran
}

@test "-l: every page on node 0, local to the CPUs" {
	classic "-l" -s 64M
	assert_all_on 0
	assert_policy local
}

@test "-N 0: runs on node 0's CPUs, pages on node 0" {
	classic "-N 0" -s 64M
	[ "${lines[0]}" = "cpus: 0 1" ]
	assert_all_on 0
}

@test "-C 1: runs on CPU 1 only, pages on node 0" {
	classic "-C 1" -s 64M
	[ "${lines[0]}" = "cpus: 1" ]
	assert_all_on 0
}

@test "-N 0 -m 3: CPUs of node 0, pages on node 3" {
	classic "-N 0 -m 3" -s 16M
	[ "${lines[0]}" = "cpus: 0 1" ]
	assert_all_on 3
}

@test "-N 1: a node without CPUs is an error" {
	run -1 --separate-stderr numactl2 -N 1 alloc -s 64K
	echo "stderr: $stderr"
	[[ "$stderr" == numactl2:* ]]
	[ -z "$output" ]
}

@test "threads and a forked child inherit -i 0-3" {
	classic "-i 0-3" -t 2 -f -s 64M
	[ "${lines[0]}" = child ]
	assert_split "0 1 2 3" "1 1 1 1"
}

@test "-m, -i, -p, -P and -l place pages as Debian's numactl does" {
	local o
	for o in "-m 2" "-m 1,3" "-i 1,2" "-i all" "-p 3" "-P 2,3" "-l" "-N 0" "-C 1"; do
		same_as_numactl "$o"
	done
}

@test "--show under -m 1,2" {
	run -0 numactl2 -m 1,2 numactl2 --show
	echo "$output"
	[ "${lines[0]}" = "policy: bind" ]
	printf '%s\n' "${lines[@]}" | grep -qx 'membind: 1 2 *'
}

@test "--show under -p 3" {
	run -0 numactl2 -p 3 numactl2 --show
	echo "$output"
	[ "${lines[0]}" = "policy: preferred" ]
	[ "${lines[1]}" = "preferred node: 3" ]
}

@test "--hardware: four nodes, nodes 1-3 without CPUs" {
	run -0 --separate-stderr numactl2 -H
	echo "$output"
	[ "${lines[0]}" = "available: 4 nodes (0-3)" ]
	[ "${lines[1]}" = "node 0 cpus: 0 1" ]
	printf '%s\n' "${lines[@]}" | grep -qx 'node 1 cpus:'
	printf '%s\n' "${lines[@]}" | grep -qx 'node 3 cpus:'
}

@test "the program's exit status comes back; a missing program is 127" {
	run -3 numactl2 -m 0 bash -c 'exit 3'
	run -127 --separate-stderr numactl2 -m 0 /no/such/program
	[[ "$stderr" == numactl2:* ]]
}

#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 13 on the mpol2 guest: a program that starts with Debian 12's
# libnuma (2.0.16) loses task-local weights in libnuma's constructor. Debian's
# numactl is such a program: "numactl alloc" runs its constructor, then execs
# alloc under the policy it left. numactl2 sees it coming and takes the
# global table with a lease (or refuses under --no-global-weights); started
# through a shell it cannot see it, and --report says what happened.

load common

LINE="numactl2: /usr/bin/numactl loads /lib/x86_64-linux-gnu/libnuma.so.1 (libnuma 2.0.15-2.0.17), whose start-up resets the memory policy without its task-local weights"

setup_file() {
	thp never
}

setup() {
	[ -e /sys/kernel/mm/mempolicy/syscalls ] || skip "needs the mpol2 kernel"
	reset_weights
}

teardown() {
	reset_weights
}

@test "libnuma 2.0.16: -w 0,1 --weights=0:3,1:1 gets 3:1 exactly through the global table, said on stderr" {
	local before
	before=$(global_weights)
	run -0 --separate-stderr numactl2 -w 0,1 --weights=0:3,1:1 numactl alloc -s 16M
	echo "$output"
	echo "stderr: $stderr"
	[ "${stderr_lines[0]}" = "$LINE; the weights go to the global table instead, with a lease" ]
	[ "$(region_field A pages)" = 4096 ]
	assert_split "0 1" "3 1"
	assert_policy "weighted interleave:0-1"
	# The table was 1:1 before: an exact 3:1 split came from it at 3 1, and
	# it is back as it was once the job has ended.
	[ "$before" = "1 1 1 1" ]
	wait_for_weights "$before"
}

@test "libnuma 2.0.16 under --no-global-weights: refused, nothing changed" {
	local before
	before=$(global_weights)
	refused --unchanged global_weights "$before" \
		"$LINE, and --no-global-weights forbids changing the global ones" \
		numactl2 -w 0,1 --weights=0:3,1:1 --no-global-weights numactl alloc -s 16M
}

@test "a program without libnuma keeps task-local weights: no line, the table untouched" {
	run -0 --separate-stderr numactl2 -w 0,1 --weights=0:3,1:1 alloc -s 16M
	echo "$output"
	[ -z "$stderr" ]
	assert_split "0 1" "3 1"
	[ "$(global_weights)" = "1 1 1 1" ]
}

@test "--report says when the weights in effect at the end are not the ones asked for" {
	# Through a shell numactl2 sees no libnuma: the weights are lost as in
	# the issue (2048:2048), and the report says so.
	run -0 --separate-stderr numactl2 --report -w 0,1 --weights=0:3,1:1 sh -c 'numactl alloc -s 16M'
	echo "$output"
	echo "stderr: $stderr"
	assert_split "0 1" "1 1"
	printf '%s\n' "$stderr" | grep -qE '^weights: asked 0:3,1:1 \(task-local\), not in effect at the end: pid [0-9]+ has weighted interleave:0-1 \(no weights of its own: the global table.s\)$'
	run -0 --separate-stderr numactl2 --report=json -w 0,1 --weights=0:3,1:1 sh -c 'numactl alloc -s 16M'
	[ "$(printf '%s\n' "$stderr" | jq -c '.task_weights | [.asked, .kept, .policy]')" = '["0:3,1:1",false,"weighted interleave:0-1"]' ]
	run -0 --separate-stderr numactl2 --report=json -w 0,1 --weights=0:3,1:1 alloc -s 16M
	[ "$(printf '%s\n' "$stderr" | jq -c '.task_weights | [.asked, .kept, .pid]')" = '["0:3,1:1",true,null]' ]
}

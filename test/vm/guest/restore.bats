#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The real table as it was (lib/weights/baseline.c, settle.c,
# lib/job/watcher.c): once the last job that needs changed global weights
# has ended, the kernel's weights and its auto mode are back, put back by
# the job's watcher or, where that was killed, by the next run that takes
# the table's lock. The 7.2 guest: auto mode from its HMAT.

load common

setup() {
	reset_weights
	numactl2 --auto-global-weights 2>/dev/null
	before=$(global_weights)
	bg=()
}

teardown() {
	local p
	for p in "${bg[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
	for p in "${bg[@]}"; do wait "$p" 2>/dev/null || true; done
	reset_weights
}

auto_state() { cat "$WI/auto"; }

# The table as "W0 W1 W2 W3 AUTO".
table() { echo "$(global_weights) $(auto_state)"; }
is_table() { [ "$(table)" = "$1" ]; }

# The watcher processes (busybox here has no pgrep).
watchers() {
	local c
	for c in /proc/[0-9]*/comm; do
		[ "$(cat "$c" 2>/dev/null)" = numactl2-watch ] || continue
		c=${c#/proc/}
		echo "${c%/comm}"
	done
	return 0
}
one_watcher() { watcher=$(watchers); [ -n "$watcher" ] && [ "$(wc -w <<<"$watcher")" -eq 1 ]; }

gone() { ! kill -0 "$1" 2>/dev/null; }

@test "auto mode on: the kernel's weights differ from 1 (what the tests below put back)" {
	[ "$(auto_state)" = true ]
	[ "$before" != "1 1 1 1" ]
}

@test "a job that exits: the weights and the kernel's auto mode back as they were" {
	run -0 --separate-stderr numactl2 -w 0-1 --weights=0:3,1:2 sh -c "cat $WI/node0 $WI/node1 $WI/auto"
	[ "$output" = $'3\n2\nfalse' ]
	[ "$stderr" = "numactl2: changed global interleave weights: node0 ${before%% *}->3, node1 $(cut -d' ' -f2 <<<"$before")->2; kernel auto weights switched off; all back as they were once the last job using them ends" ]
	# The watcher puts it back after the job has ended, not with it.
	wait_until is_table "$before true"
}

@test "a job killed with SIGKILL: back as it was" {
	numactl2 -w 0 --weights=0:5 sleep 60 2>/dev/null &
	local job=$!
	bg+=("$job")
	wait_until eval '[ "$(cat $WI/node0)" = 5 ]'
	kill -KILL "$job"
	wait_until is_table "$before true"
}

@test "the watcher killed: the next run that takes the table's lock puts it back, and says so" {
	numactl2 -w 0 --weights=0:5 sleep 60 2>/dev/null &
	local job=$!
	bg+=("$job")
	wait_until one_watcher
	kill -KILL "$watcher"
	kill -KILL "$job"
	wait_until gone "$job"
	[ "$(cat "$WI/node0")" = 5 ]
	[ "$(auto_state)" = false ]
	run -0 --separate-stderr numactl2 -w 1 true
	[ "$stderr" = "numactl2: put the global interleave weights back as they were: node0 5->${before%% *}; kernel auto weights back on" ]
	is_table "$before true"
}

@test "--keep-weights: the weights stay, auto stays off" {
	run -0 --separate-stderr numactl2 -w 0 --weights=0:5 --keep-weights true
	[ "$stderr" = "numactl2: changed global interleave weights: node0 ${before%% *}->5; kernel auto weights switched off; kept after the job (--keep-weights)" ]
	[ -z "$(watchers)" ]
	run -0 --separate-stderr numactl2 -w 1 true
	[ -z "$stderr" ]
	[ "$(cat "$WI/node0") $(auto_state)" = "5 false" ]
}

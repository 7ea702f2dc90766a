#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The real table as it was (lib/owner/book.c, state.c, lib/job/watcher.c):
# once the last job that needs changed global weights has ended, the
# kernel's weights and its auto mode are back, put back by the table's
# owner (root's numactl2 here: no numactl2d runs), told by the job's watcher
# or, where that was killed, at the next run that asks it (the system log
# says so). The 7.2 guest: auto mode from its HMAT.

load common

setup() {
	reset_weights
	numactl2 --auto-global-weights 2>/dev/null
	before=$(global_weights)
	# Node 1 at the weight it has: the jobs below change node 0 alone, over
	# two nodes (one node holds nothing: no weight moves a page there).
	w1=$(cut -d' ' -f2 <<<"$before")
	bg=()
}

teardown() {
	local p
	for p in "${bg[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
	for p in "${bg[@]}"; do wait "$p" 2>/dev/null || true; done
	if [ -n "${unit:-}" ] && [ -d "$unit" ]; then
		echo 1 >"$unit/cgroup.kill"
		wait_until cgroup_empty
		rmdir "$unit"
	fi
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

# A systemd unit, as systemd runs one: a cgroup v2 of its own ($unit), the
# job started in it (numactl2 execs it: $job), and whatever the job and
# numactl2 start (the watcher) in it too. systemd itself is not here; what
# it does to a unit's processes is.
cgroup2() {
	# /proc/mounts: device, mount point, type.
	grep -q '^[^ ]* /sys/fs/cgroup cgroup2 ' /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup
}
unit_start() {
	cgroup2
	unit=/sys/fs/cgroup/unit$BATS_TEST_NUMBER.service
	mkdir "$unit"
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$unit" "$@" 2>/dev/null &
	job=$!
	bg+=("$job")
}
unit_procs() { cat "$unit/cgroup.procs"; }
cgroup_empty() { [ -z "$(unit_procs)" ]; }
in_unit() { grep -qx "$1" "$unit/cgroup.procs"; }

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
	numactl2 -w 0,1 --weights=0:5,1:"$w1" sleep 60 2>/dev/null &
	local job=$!
	bg+=("$job")
	wait_until eval '[ "$(cat $WI/node0)" = 5 ]'
	kill -KILL "$job"
	wait_until is_table "$before true"
}

@test "the watcher killed: the next run that asks the owner puts it back" {
	numactl2 -w 0,1 --weights=0:5,1:"$w1" sleep 60 2>/dev/null &
	local job=$!
	bg+=("$job")
	wait_until one_watcher
	kill -KILL "$watcher"
	kill -KILL "$job"
	wait_until gone "$job"
	[ "$(cat "$WI/node0")" = 5 ]
	[ "$(auto_state)" = false ]
	run -0 --separate-stderr numactl2 -w 1,2 true
	[ -z "$stderr" ]
	is_table "$before true"
}

@test "--keep-weights: the weights stay, auto stays off" {
	run -0 --separate-stderr numactl2 -w 0,1 --weights=0:5,1:"$w1" --keep-weights true
	[ "$stderr" = "numactl2: changed global interleave weights: node0 ${before%% *}->5; kernel auto weights switched off; kept after the job (--keep-weights)" ]
	[ -z "$(watchers)" ]
	run -0 --separate-stderr numactl2 -w 1,2 true
	[ -z "$stderr" ]
	[ "$(cat "$WI/node0") $(auto_state)" = "5 false" ]
}

# systemctl stop (KillMode=control-group, the default): SIGTERM to every
# process of the unit's cgroup at once, the watcher included; it still
# waits for the job's end and puts the table back before it goes.
@test "a systemd unit stopped (SIGTERM to its whole cgroup): the watcher puts the table back" {
	unit_start numactl2 -w 0,1 --weights=0:5,1:"$w1" sleep 60
	wait_until eval '[ "$(cat $WI/node0)" = 5 ]'
	wait_until one_watcher
	in_unit "$watcher"
	in_unit "$job"
	local p
	for p in $(unit_procs); do kill -TERM "$p"; done
	wait "$job" || true
	wait_until is_table "$before true"
	wait_until cgroup_empty
}

# systemctl kill --signal=KILL, or the stop's timeout: cgroup.kill SIGKILLs
# every process of the cgroup, the watcher too, and nothing restores; the
# next run that takes the table's lock does.
@test "a systemd unit's cgroup killed (cgroup.kill): the next run puts the table back" {
	unit_start numactl2 -w 0,1 --weights=0:5,1:"$w1" sleep 60
	wait_until eval '[ "$(cat $WI/node0)" = 5 ]'
	wait_until one_watcher
	in_unit "$watcher"
	echo 1 >"$unit/cgroup.kill"
	wait "$job" || true
	wait_until cgroup_empty
	[ "$(cat "$WI/node0") $(auto_state)" = "5 false" ]
	run -0 --separate-stderr numactl2 -w 1,2 true
	[ -z "$stderr" ]
	is_table "$before true"
}

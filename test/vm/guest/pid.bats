#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# numactl2 --pid on the 7.2-mpol2 guest (the kernel series with its pidfd
# patch): a running job retuned from 1:1 to 9:1, its new pages counted
# exactly, in every thread of a job with several, or in the one thread
# named; another user's numactl2 refused; a process that has exited; the
# global table never touched.

load common
load retune

setup_file() {
	# Exact 4 KiB splits; and nobody (asnobody) must reach the programs:
	# the initramfs root comes from mktemp -d, mode 0700.
	thp never
	chmod 755 /
}

setup() {
	retune_setup
}

teardown() {
	retune_teardown
}

# start_threads THREADS NUMACTL2-ARGS...: retune -t THREADS 100 under
# numactl2 ARGS; $job is its pid once every thread has its batch 1 in place.
start_threads() {
	local n=$1
	shift
	start_retune "$@" -- -t "$n" 100 || return 1
	[ "$(ls "/proc/$job/task" | wc -l)" -eq "$n" ]
}

@test "--pid: a running job retuned from 1:1 to 9:1: new pages 90:10, old ones stay" {
	start_job -w 0,1 --weights=0:1,1:1
	show_until $'interleaveweights: 1 1\nweightsource: task-local'
	run -0 --separate-stderr numactl2 --pid="$job" -w 0,1 --weights=0:9,1:1
	[ -z "$output" ]
	[ -z "$stderr" ]
	show_until $'interleaveweights: 9 1\nweightsource: task-local'
	[[ $output == *"policy: weighted-interleave"* ]]
	[[ $output == *"interleavemask: 0 1"* ]]
	finish_job
	[[ $output == *"batch1: N0=50 N1=50 N2=0 N3=0"* ]]
	[[ $output == *"batch2: N0=90 N1=10 N2=0 N3=0"* ]]
	[[ $output == *"batch1-after: N0=50 N1=50 N2=0 N3=0"* ]]
	assert_global_unchanged
}

@test "--pid: every thread of a running job retuned from 1:1 to 9:1: each one's new pages 90:10" {
	local t
	start_threads 4 -w 0,1 --weights=0:1,1:1
	run -0 --separate-stderr numactl2 --pid="$job" -w 0,1 --weights=0:9,1:1
	[ -z "$output" ]
	[ -z "$stderr" ]
	show_until $'interleaveweights: 9 1\nweightsource: task-local'
	for t in $(ls "/proc/$job/task"); do
		show_until $'interleaveweights: 9 1\nweightsource: task-local' "$t"
	done
	finish_job
	for t in 0 1 2 3; do
		[[ $output == *"thread$t batch1: N0=50 N1=50 N2=0 N3=0"* ]]
		[[ $output == *"thread$t batch2: N0=90 N1=10 N2=0 N3=0"* ]]
	done
	assert_global_unchanged
}

@test "--pid=TID of a thread other than the main one: that thread alone" {
	local tid t
	start_threads 3 -w 0,1 --weights=0:1,1:1
	tid=$(ls "/proc/$job/task" | grep -vx "$job" | head -n 1)
	run -0 numactl2 --pid="$tid" -w 0,1 --weights=0:9,1:1
	show_until "pid: $tid"$'\npolicy: weighted-interleave' "$tid"
	show_until $'interleaveweights: 9 1\nweightsource: task-local' "$tid"
	run -0 numactl2 --show --pid="$job"
	[[ $output == *$'interleaveweights: 1 1\nweightsource: task-local'* ]]
	finish_job
	t=$(sed -n "s/^thread\([0-9]\) tid: $tid\$/\1/p" <<<"$output")
	[ -n "$t" ]
	[ "$t" -ne 0 ]
	[[ $output == *"thread$t batch2: N0=90 N1=10 N2=0 N3=0"* ]]
	[ "$(grep -c 'batch2: N0=50 N1=50 N2=0 N3=0' <<<"$output")" -eq 2 ]
	assert_global_unchanged
}

@test "--pid: -w without --weights makes the job follow the global table" {
	start_job -w 0,1 --weights=0:1,1:1
	run -0 numactl2 --pid="$job" -w 0,1
	show_until $'interleaveweights: 3 5\nweightsource: global'
	finish_job
	# 3:5 over 100 pages from any phase: 12 full rounds of 8, then 4 pages.
	[[ $output =~ batch2:\ N0=([0-9]+)\ N1=([0-9]+) ]]
	[ $((BASH_REMATCH[1] + BASH_REMATCH[2])) -eq 100 ]
	[ "${BASH_REMATCH[1]}" -ge 36 ] && [ "${BASH_REMATCH[1]}" -le 40 ]
	assert_global_unchanged
}

@test "--pid: another user's numactl2 is refused, the job keeps its policy" {
	start_job -w 0,1 --weights=0:1,1:1
	refused "numactl2: --pid=$job: not permitted to change the policy of that process (another user's: needs CAP_SYS_PTRACE and CAP_SYS_NICE); nothing changed" \
		asnobody numactl2 --pid="$job" -w 0,1 --weights=0:9,1:1
	refused "numactl2: --pid=$job: not permitted to read the policy of that process (another user's: needs CAP_SYS_PTRACE); nothing changed" \
		asnobody numactl2 --show --pid="$job"
	show_until $'interleaveweights: 1 1\nweightsource: task-local'
	finish_job
	[[ $output == *"batch2: N0=50 N1=50 N2=0 N3=0"* ]]
	assert_global_unchanged
}

@test "--pid: a process that has exited (not yet reaped): ESRCH, a clear message" {
	retune -z "$BATS_TEST_TMPDIR/ready" &
	bg_pids+=" $!"
	local gone
	wait_until [ -e "$BATS_TEST_TMPDIR/ready" ] || return 1
	gone=$(cat "$BATS_TEST_TMPDIR/ready")
	# retune -z writes the file, then its main thread exits.
	wait_until grep -q '^State:.*Z' "/proc/$gone/status" || return 1
	refused "numactl2: --pid=$gone: the process has exited; nothing changed" \
		numactl2 --pid="$gone" -w 0,1 --weights=0:9,1:1
	refused "numactl2: --pid=$gone: the process has exited; nothing changed" \
		numactl2 --show --pid="$gone"
	assert_global_unchanged
}

@test "--pid: a process that is gone: no such process" {
	true &
	local gone=$!
	wait "$gone"
	refused "numactl2: --pid=$gone: no such process" numactl2 --pid="$gone" -w 0,1 --weights=0:9,1:1
	assert_global_unchanged
}

@test "--pid: --membind and --preferred on a running job" {
	start_job -w 0,1 --weights=0:1,1:1
	run -0 numactl2 --pid="$job" --membind=2
	show_until "membind: 2"
	[[ $output == *"policy: bind"* ]]
	finish_job
	[[ $output == *"batch2: N0=0 N1=0 N2=100 N3=0"* ]]
	assert_global_unchanged
}

@test "--pid: a stopped job: it keeps its policy until it runs, and the last request wins" {
	start_job -w 0,1 --weights=0:1,1:1
	kill -STOP "$job"
	run -0 numactl2 --pid="$job" -w 0,1 --weights=0:9,1:1
	run -0 numactl2 --pid="$job" -w 0,1 --weights=0:1,1:9
	run -0 numactl2 --pid="$job" -w 0,1 --weights=0:3,1:1
	run -0 numactl2 --show --pid="$job"
	[[ $output == *$'interleaveweights: 1 1\nweightsource: task-local'* ]]
	kill -CONT "$job"
	show_until $'interleaveweights: 3 1\nweightsource: task-local'
	sleep 0.1
	run -0 numactl2 --show --pid="$job"
	[[ $output == *$'interleaveweights: 3 1\nweightsource: task-local'* ]]
	finish_job
	[[ $output == *"batch2: N0=75 N1=25 N2=0 N3=0"* ]]
	assert_global_unchanged
}

# A cgroup v2 cpuset for one job, cpus 0 and mems 0-2 (mpol2.bats' cpuset
# test mounts cgroup2 too; mounted here when this file runs alone).
CPUSET=/sys/fs/cgroup/pidmove
make_cpuset() {
	grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup || return 1
	echo +cpuset >/sys/fs/cgroup/cgroup.subtree_control || return 1
	mkdir -p "$CPUSET" || return 1
	echo 0 >"$CPUSET/cpuset.cpus" || return 1
	echo 0-2 >"$CPUSET/cpuset.mems" || return 1
}

@test "--pid: a request pending while the job is stopped follows a cpuset move made meanwhile" {
	make_cpuset
	start_job -w 0,1 --weights=0:1,1:1
	echo "$job" >"$CPUSET/cgroup.procs"
	kill -STOP "$job"
	run -0 numactl2 --pid="$job" -w 0-2 --weights=0:1,1:1,2:8
	# While the request waits, the job's cpuset moves from 0-2 to 1-3.
	echo 1-3 >"$CPUSET/cpuset.mems"
	kill -CONT "$job"
	# The new policy, rebound as the move would have: weights with their
	# nodes' positions, 1:1:8 on 1-3.
	show_until $'interleavemask: 1 2 3 \ninterleaveweights: 1 1 8\nweightsource: task-local'
	finish_job
	echo "$job" >/sys/fs/cgroup/cgroup.procs 2>/dev/null || true
	rmdir "$CPUSET"
	[[ $output == *"batch2: N0=0 N1=10 N2=10 N3=80"* ]]
	assert_global_unchanged
}

@test "--pid: a job retuned 300 times while it allocates: no crash, the last policy holds" {
	numactl2 -w 0,1 --weights=0:1,1:1 retune -s "$BATS_TEST_TMPDIR/ready" >"$BATS_TEST_TMPDIR/out" 2>&1 &
	bg_pids+=" $!"
	local i
	wait_until [ -e "$BATS_TEST_TMPDIR/ready" ] || return 1
	job=$(cat "$BATS_TEST_TMPDIR/ready")
	for ((i = 0; i < 150; i++)); do
		numactl2 --pid="$job" -w 0,1 --weights=0:9,1:1
		numactl2 --pid="$job" -w 0-3 --weights=0:1,1:2,2:3,3:4
	done
	show_until $'interleaveweights: 1 2 3 4\nweightsource: task-local'
	finish_job
	[[ $output =~ churned:\ [1-9][0-9]*\ batches ]]
	assert_global_unchanged
}

#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# numactl2 --pid --migrate on the 7.2-mpol2 guest: a running job retuned,
# the pages it already has moved where the new policy places pages, counted
# exactly with move_pages (test/vm/retune.c); without --migrate they stay.

load common
load retune

setup_file() {
	# Exact 4 KiB splits: a huge page would move whole.
	thp never
}

setup() {
	retune_setup
	bound=
}

teardown() {
	retune_teardown
	thp never
}

# The N<node>= counts of PID's 2048-page mapping in its numa_maps.
numa_counts() {
	grep ' anon=2048 ' "/proc/$1/numa_maps" | tr ' ' '\n' | grep -E '^N[0-9]+=' | tr '\n' ' ' | sed 's/ $//'
}

# retune_quietly ARGS...: numactl2 --pid=$job ARGS succeeds and says nothing.
retune_quietly() {
	run -0 --separate-stderr numactl2 --pid="$job" "$@"
	[ -z "$output" ] || return 1
	[ -z "$stderr" ] || return 1
}

@test "--migrate: a job retuned from 1:1 to 9:1: its 100 pages 90:10, new ones too" {
	start_job -w 0,1 --weights=0:1,1:1
	retune_quietly -w 0,1 --weights=0:9,1:1 --migrate
	show_until $'interleaveweights: 9 1\nweightsource: task-local'
	finish_job
	# retune counts batch 1 twice at the end: both after the move.
	[[ $output == *"batch1: N0=90 N1=10 N2=0 N3=0"* ]]
	[[ $output == *"batch2: N0=90 N1=10 N2=0 N3=0"* ]]
	[[ $output == *"batch1-after: N0=90 N1=10 N2=0 N3=0"* ]]
	assert_global_unchanged
}

@test "--migrate: without it the pages stay 50:50" {
	start_job -w 0,1 --weights=0:1,1:1
	retune_quietly -w 0,1 --weights=0:9,1:1
	show_until $'interleaveweights: 9 1\nweightsource: task-local'
	finish_job
	[[ $output == *"batch2: N0=90 N1=10 N2=0 N3=0"* ]]
	[[ $output == *"batch1-after: N0=50 N1=50 N2=0 N3=0"* ]]
	assert_global_unchanged
}

@test "--migrate: --membind=2 puts every page on node 2" {
	start_job -w 0,1 --weights=0:1,1:1
	retune_quietly --membind=2 --migrate
	show_until "membind: 2"
	finish_job
	[[ $output == *"batch2: N0=0 N1=0 N2=100 N3=0"* ]]
	[[ $output == *"batch1-after: N0=0 N1=0 N2=100 N3=0"* ]]
	assert_global_unchanged
}

@test "--migrate: --membind=0,1 over pages already on 0 and 1 moves none" {
	start_job -w 0,1 --weights=0:1,1:1
	retune_quietly --membind=0,1 --migrate
	show_until "membind: 0 1"
	finish_job
	[[ $output == *"batch1-after: N0=50 N1=50 N2=0 N3=0"* ]]
}

@test "--migrate: -i 0-3 spreads them 25 each; --preferred=3 takes them all" {
	start_job -w 0,1 --weights=0:1,1:1
	retune_quietly -i 0-3 --migrate
	show_until "interleavemask: 0 1 2 3"
	finish_job
	[[ $output == *"batch1-after: N0=25 N1=25 N2=25 N3=25"* ]]
	rm -f "$BATS_TEST_TMPDIR/ready"
	start_job -w 0,1 --weights=0:1,1:1
	retune_quietly --preferred=3 --migrate
	show_until "preferred: 3"
	finish_job
	[[ $output == *"batch1-after: N0=0 N1=0 N2=0 N3=100"* ]]
}

@test "--migrate: -w alone moves them by the global table's 3:5" {
	start_job -w 0,1 --weights=0:1,1:1
	retune_quietly -w 0,1 --migrate
	show_until $'interleaveweights: 3 5\nweightsource: global'
	finish_job
	# 3:5 over 100 pages from any phase: 12 full rounds of 8, then 4 pages.
	[[ $output =~ batch1-after:\ N0=([0-9]+)\ N1=([0-9]+)\ N2=0\ N3=0 ]]
	[ $((BASH_REMATCH[1] + BASH_REMATCH[2])) -eq 100 ]
	[ "${BASH_REMATCH[1]}" -ge 36 ] && [ "${BASH_REMATCH[1]}" -le 39 ]
	assert_global_unchanged
}

@test "--migrate: a range with a policy of its own (mbind to node 3) is left alone" {
	bound=1
	start_job -w 0,1 --weights=0:1,1:1
	run -0 cat "/proc/$job/numa_maps"
	[[ $output == *" bind:3 anon=100 "* ]]
	retune_quietly -w 0,1 --weights=0:9,1:1 --migrate
	show_until $'interleaveweights: 9 1\nweightsource: task-local'
	finish_job
	[[ $output == *"batch1-after: N0=90 N1=10 N2=0 N3=0"* ]]
	[[ $output == *"bound: N0=0 N1=0 N2=0 N3=100"* ]]
	assert_global_unchanged
}

@test "--migrate with transparent huge pages: each 2 MiB page moves whole, in turns of blocks; again, nothing moves" {
	thp always
	npages=2048
	start_job -w 0,1 --weights=0:1,1:1
	grep -Eq '^AnonHugePages: +8192 kB' "/proc/$job/smaps"
	echo "before: $(numa_counts "$job")"
	retune_quietly -w 0,1 --weights=0:9,1:1 --migrate
	echo "after: $(numa_counts "$job")"
	grep -v ' file=' "/proc/$job/numa_maps"
	# Its four 2 MiB pages take the first four turns of 9:1: node 0 each.
	[ "$(numa_counts "$job")" = "N0=2048" ]
	retune_quietly -w 0,1 --weights=0:9,1:1 --migrate
	echo "again: $(numa_counts "$job")"
	[ "$(numa_counts "$job")" = "N0=2048" ]
	finish_job
	[[ $output == *"batch1-after: N0=2048 N1=0 N2=0 N3=0"* ]]
}

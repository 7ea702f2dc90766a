#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# numactl2 with task-local weights, on the 7.2-mpol2 guest (the kernel
# series in kernel/): --weights goes through set_mempolicy2 (mbind2 for
# --file/--shm), and the global table in sysfs never changes.

load common

# The numbers numactl2 must never call by guessing: the series' own are
# fine here since the kernel lists them, the seed's 457-459 are other calls,
# and 500-502 were the 6.12 series' (no calls on 7.2).
SEED_NRS=457,458,459,500,501,502

setup_file() {
	thp never
}

setup() {
	reset_weights
	# Global weights no test here asks for: a change would show.
	numactl2 --set-global-weights=0:3,1:5,2:7,3:9
	snapshot_global "$BATS_TEST_TMPDIR/global.before"
}

teardown() {
	local p
	for p in ${bg_pids:-}; do kill "$p" 2>/dev/null || true; done
	rm -f /mnt/tmpfs/task-local-*
	reset_weights
	thp never
}

# Every global nodeN file, byte for byte, with its name.
snapshot_global() {
	local f
	for f in "$WI"/node*; do
		printf '== %s\n' "$f"
		cat "$f"
	done >"$1"
}

assert_global_unchanged() {
	snapshot_global "$BATS_TEST_TMPDIR/global.after"
	cmp "$BATS_TEST_TMPDIR/global.before" "$BATS_TEST_TMPDIR/global.after"
	[ "$(global_weights)" = "3 5 7 9" ]
}

# tl NODES WEIGHTLIST "NODEIDS" "WEIGHTS" [alloc args...]: alloc under
# task-local weights: the exact split, numa_maps agrees, no global change,
# no notice about global weights on stderr.
tl() {
	local nodes=$1 list=$2 ids=$3 weights=$4
	shift 4
	run -0 --separate-stderr sysguard "$SEED_NRS" numactl2 -w "$nodes" --weights="$list" alloc "$@"
	echo "$output"
	echo "stderr: $stderr"
	assert_split "$ids" "$weights"
	assert_policy "weighted interleave:$(compact "$ids")"
	assert_global_unchanged
	[[ "$stderr" != *global* ]]
}

@test "task-local: the kernel lists the calls for x86_64, so numactl2 takes the task-local path" {
	run -0 cat /sys/kernel/mm/mempolicy/syscalls
	echo "$output"
	printf '%s\n' "$output" | grep -qx 'set_mempolicy2 x86_64 472'
	printf '%s\n' "$output" | grep -qx 'get_mempolicy2 x86_64 473'
	printf '%s\n' "$output" | grep -qx 'mbind2 x86_64 474'
	run -0 --separate-stderr numactl2 -w 0 --weights=0:3 --dry-run true
	echo "$output"
	[[ "$output" == *$'\nweights go to: task-local'* ]]
}

@test "task-local: -w 0-3 --weights=8:4:2:1: exact split, every global nodeN file as before" {
	tl 0-3 0:8,1:4,2:2,3:1 "0 1 2 3" "8 4 2 1" -s 64M
	assert_maps_match
}

@test "task-local: --weights=auto: 8:4:2:1 from the HMAT, exact split, global table untouched" {
	tl 0-3 auto "0 1 2 3" "8 4 2 1" -s 64M
	assert_maps_match
}

@test "task-local: -w 0,1 --weights=9:1: exact split, global table untouched" {
	tl 0,1 0:9,1:1 "0 1" "9 1" -s 64M
}

@test "task-local: -w 0-2 --weights=5:2:1 over tmpfs MAP_SHARED: exact split" {
	tl 0-2 0:5,1:2,2:1 "0 1 2" "5 2 1" -k tmpfs -s 32M
}

@test "task-local: two programs at once, 9:1 and 1:9, each get their own split" {
	local a=$BATS_TEST_TMPDIR/a b=$BATS_TEST_TMPDIR/b pa pb i
	numactl2 -w 0,1 --weights=0:9,1:1 alloc -p -s 32M >"$a" 2>"$a.err" &
	pa=$!
	numactl2 -w 0,1 --weights=0:1,1:9 alloc -p -s 32M >"$b" 2>"$b.err" &
	pb=$!
	bg_pids="$pa $pb"
	for i in $(seq 300); do
		grep -q '^READY$' "$a" && grep -q '^READY$' "$b" && break
		sleep 0.1
	done
	# both hold region A under their own weights at the same time
	grep -q '^READY$' "$a"
	grep -q '^READY$' "$b"
	kill -USR1 "$pa" "$pb"
	wait "$pa"
	wait "$pb"
	output=$(cat "$a")
	echo "$output"
	assert_split "0 1" "9 1" A
	assert_split "0 1" "9 1" B
	output=$(cat "$b")
	echo "$output"
	assert_split "0 1" "1 9" A
	assert_split "0 1" "1 9" B
	assert_global_unchanged
}

@test "task-local: threads keep the weights" {
	tl 0-3 0:1,1:2,2:3,3:4 "0 1 2 3" "1 2 3 4" -t 4 -s 64M
}

@test "task-local: a forked child keeps the weights" {
	tl 0-2 0:5,1:2,2:1 "0 1 2" "5 2 1" -f -s 64M
	[ "${lines[0]}" = child ]
}

@test "task-local: a forked child's threads keep the weights" {
	tl 0-1 0:9,1:1 "0 1" "9 1" -f -t 2 -k heap -s 64M
}

# --show in the same call as the policy: a second numactl2 started under the
# policy would lose the weights first, because Debian 12's libnuma (2.0.16)
# probes MPOL_PREFERRED_MANY in its constructor and puts the policy back with
# plain set_mempolicy(), which knows no task weights (libnuma 2.0.19 probes
# lazily).
@test "task-local: --show prints the task's weights, not the global table's" {
	run -0 --separate-stderr numactl2 -w 0-3 --weights=0:8,1:4,2:2,3:1 --show
	echo "$output"
	[ "${lines[0]}" = "policy: weighted-interleave" ]
	printf '%s\n' "$output" | grep -qx 'interleaveweights: 8 4 2 1'
	printf '%s\n' "$output" | grep -qx 'weightsource: task-local'
	assert_global_unchanged
}

@test "task-local: -w all without --weights: the global weights, read where they are" {
	run -0 --separate-stderr numactl2 -w all --show
	echo "$output"
	printf '%s\n' "$output" | grep -qx 'interleaveweights: 3 5 7 9'
	printf '%s\n' "$output" | grep -q '^weightsource: global'
	assert_global_unchanged
}

# Per-node page counts, "N0=5 N1=7", from --dump-nodes lines "START-END: NODE".
dump_counts() {
	local range node n=(0 0 0 0) out= k
	while read -r range node; do
		range=${range%:}
		n[node]=$((n[node] + (16#${range#*-} - 16#${range%-*}) / 4096))
	done <<<"$1"
	for k in 0 1 2 3; do
		[ "${n[k]}" -eq 0 ] || out+="${out:+ }N$k=${n[k]}"
	done
	echo "$out"
}

@test "task-local: --file with -w and --weights: mbind2 gives the file its own split" {
	local f=/mnt/tmpfs/task-local-file ino want got
	run -0 --separate-stderr sysguard "$SEED_NRS" numactl2 --length 8M --file "$f" \
		-w 0-3 --weights=0:8,1:4,2:2,3:1 --touch
	ino=$(stat -c %i "$f")
	run -0 --separate-stderr numactl2 --length 8M --file "$f" --dump-nodes
	echo "$output"
	got=$(dump_counts "$output")
	want=$(expected_split "0 1 2 3" "8 4 2 1" "$ino" 2048 1)
	echo "want: $want"
	echo "got:  $got"
	[ "$got" = "$want" ]
	assert_global_unchanged
}

@test "task-local: --global-weights takes the old path: the global table changes" {
	# --keep-weights: the change stays after the job, to be seen here.
	run -0 --separate-stderr numactl2 --global-weights --keep-weights -w 0,1 --weights=0:2,1:1 alloc -s 16M
	echo "$output"
	assert_split "0 1" "2 1"
	[ "$(global_weights | cut -d' ' -f1-2)" = "2 1" ]
}

# numa_maps prints "weights=" after the policy of one with weights of its
# own (kernel series), and nothing for one that follows the global table.
@test "task-local: numa_maps shows weights= for task-local weights" {
	tl 0-3 0:8,1:4,2:2,3:1 "0 1 2 3" "8 4 2 1" -s 16M
	run -0 numa_maps_weights "$(region_line A numa_maps)"
	[ "$output" = "0:8,1:4,2:2,3:1" ]
}

@test "task-local: numa_maps shows no weights= for the global table's" {
	run -0 --separate-stderr numactl2 --global-weights -w 0,1 --weights=0:2,1:1 alloc -s 16M
	echo "$output"
	assert_split "0 1" "2 1"
	assert_policy "weighted interleave:0-1"
	run -0 numa_maps_weights "$(region_line A numa_maps)"
	[ "$output" = "" ]
	run -0 --separate-stderr numactl2 -w 0,1 alloc -s 16M
	assert_policy "weighted interleave:0-1"
	run -0 numa_maps_weights "$(region_line A numa_maps)"
	[ "$output" = "" ]
}

@test "task-local: --report prints the job's own weights (numa_maps weights=)" {
	run -0 --separate-stderr numactl2 --report -w 0-3 --weights=0:8,1:4,2:2,3:1 alloc -s 16M
	echo "$output"
	echo "$stderr"
	assert_split "0 1 2 3" "8 4 2 1"
	printf '%s\n' "$stderr" | grep -qx '    weights: 0:8,1:4,2:2,3:1 (own)'
	assert_global_unchanged
}

@test "task-local: --report prints the global table's weights for a policy without its own" {
	run -0 --separate-stderr numactl2 --report -w 0-3 alloc -s 16M
	echo "$stderr"
	printf '%s\n' "$stderr" | grep -qx '    weights: 0:3,1:5,2:7,3:9 (global)'
}

@test "task-local: numactl2 never calls 457-459, with or without weights" {
	run -0 --separate-stderr sysguard "$SEED_NRS" numactl2 -w 0-3 numactl2 --show
	echo "$output"
	echo "$stderr"
	[[ "$stderr" == *"none forbidden"* ]]
}

#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The guest suites' placement checks (test/vm/guest/common.bash), tested on
# the host against alloc output made up here: a correct split passes, and
# empty output, a surplus on any node, a missing node, a page outside the
# nodes and (THP) small pages each fail.

load helpers
load vm/guest/common

# with TEXT ASSERT ARGS...: runs ASSERT with $output set to TEXT, as after
# "run alloc" in a guest test.
with() {
	output=$1
	shift
	"$@"
}

# region NODES-LINE [PAGES] [HUGE]: the lines alloc prints for region A
# (ilx 0, hilx 0).
region() {
	printf 'region=A kind=mmap addr=0x7f0000000000 pages=%s ilx=0 hilx=0\n' "${2:-8192}"
	printf 'nodes: %s\n' "$1"
	printf 'numa_maps: 7f0000000000 weighted interleave:0-3 anon=%s %s\n' "${2:-8192}" "$1"
	printf 'huge: %s\n' "${3:-0}"
}

# The split of 8192 pages by weights 4:2:1:1 from ilx 0 is exact:
# 1024 rounds of 8 pages.
GOOD="N0=4096 N1=2048 N2=1024 N3=1024"

@test "assert_split passes the exact split and fails without alloc's output" {
	run -0 with "$(region "$GOOD")" assert_split "0 1 2 3" "4 2 1 1"
	run -1 with "" assert_split "0 1 2 3" "4 2 1 1"
	run -1 with "cpus: 0 1" assert_split "0 1 2 3" "4 2 1 1"
	run -1 with "$(region "" 0)" assert_split "0 1 2 3" "4 2 1 1"
}

@test "assert_split fails on a surplus on any node and on a missing node" {
	local n
	for n in 0 1 2 3; do
		run -1 with "$(region "${GOOD/N$n=/N$n=1}")" assert_split "0 1 2 3" "4 2 1 1"
	done
	run -1 with "$(region "N0=4096 N1=2048 N2=1024")" assert_split "0 1 2 3" "4 2 1 1"
	run -1 with "$(region "$GOOD")" assert_split "0 1 2" "4 2 1"
}

@test "assert_split_huge passes a folio split within one huge page per node" {
	run -0 with "$(region "$GOOD" 8192 8192)" assert_split_huge "0 1 2 3" "4 2 1 1"
	run -0 with "$(region "N0=4608 N1=1536 N2=1024 N3=1024" 8192 8192)" assert_split_huge "0 1 2 3" "4 2 1 1"
}

@test "assert_split_huge fails on empty output, small pages, a surplus on any node, a missing node" {
	local n t
	run -1 with "" assert_split_huge "0 1 2 3" "4 2 1 1"
	run -1 with "$(region "$GOOD" 8192 0)" assert_split_huge "0 1 2 3" "4 2 1 1"
	run -1 with "$(region "$GOOD" 8192 "")" assert_split_huge "0 1 2 3" "4 2 1 1"
	for n in 0 1 2 3; do
		# 1024 pages more on node n, 1024 fewer on the next: the total holds.
		t=$(awk -v n="$n" '{ for (i = 1; i <= NF; i++) { split($i, a, "="); if (a[1] == "N" n) a[2] += 1024; if (a[1] == "N" (n + 1) % 4) a[2] -= 1024; $i = a[1] "=" a[2] } print }' <<<"$GOOD")
		run -1 with "$(region "$t" 8192 8192)" assert_split_huge "0 1 2 3" "4 2 1 1"
	done
	run -1 with "$(region "N0=5120 N1=2048 N2=1024" 8192 8192)" assert_split_huge "0 1 2 3" "4 2 1 1"
	run -1 with "$(region "N0=4096 N1=2048 N2=1024 N3=512 N4=512" 8192 8192)" assert_split_huge "0 1 2 3" "4 2 1 1"
}

@test "assert_all_on fails on empty output, a page elsewhere, a missing node" {
	run -0 with "$(region "N1=100 N3=92" 192)" assert_all_on "1 3"
	run -1 with "" assert_all_on "1 3"
	run -1 with "$(region "N1=100 N2=1 N3=91" 192)" assert_all_on "1 3"
	run -1 with "$(region "N1=100" 192)" assert_all_on "1 3"
}

@test "assert_policy and assert_maps_match fail on empty output" {
	run -0 with "$(region "$GOOD")" assert_policy "weighted interleave:0-3"
	run -1 with "" assert_policy "weighted interleave:0-3"
	run -1 with "$(region "$GOOD")" assert_policy "interleave:0-3"
	run -0 with "$(region "$GOOD")" assert_maps_match
	run -1 with "" assert_maps_match
}

# The helpers of test/lib, which the host suites use too.

# A numa_maps as the kernel writes it: a file mapping, the heap under
# weighted interleave, an anonymous mapping, a hugetlb one, the stack.
MAPS='55d192d6a000 default file=/usr/bin/alloc mapped=4 N0=4 kernelpagesize_kB=4
55d193000000 weighted interleave:0-2 heap anon=30 dirty=30 N0=20 N2=10 kernelpagesize_kB=4
7f0000000000 prefer (many):2-3 anon=8 dirty=8 active=0 N2=5 N3=3 kernelpagesize_kB=4
7f0000400000 bind=static:1 huge anon=2 dirty=2 N1=2 kernelpagesize_kB=2048
7ffd00000000 default stack anon=3 dirty=3 N1=3 kernelpagesize_kB=4'

@test "numa_maps_read: address, kind, policy with its spaces, pages in 4 KiB" {
	run -0 numa_maps_read <<<"$MAPS"
	[ "${lines[0]}" = $'55d192d6a000\tfile\tdefault\tN0=4' ]
	[ "${lines[1]}" = $'55d193000000\theap\tweighted interleave:0-2\tN0=20 N2=10' ]
	[ "${lines[2]}" = $'7f0000000000\tanon\tprefer (many):2-3\tN2=5 N3=3' ]
	[ "${lines[3]}" = $'7f0000400000\tanon\tbind=static:1\tN1=1024' ]
	[ "${lines[4]}" = $'7ffd00000000\tstack\tdefault\tN1=3' ]
	[ "${#lines[@]}" -eq 5 ]
	run -0 numa_maps_read <<<"7f0000000000 default"
	[ "$output" = $'7f0000000000\tanon\tdefault\t' ]
}

@test "numa_maps_read fails on a line that is not numa_maps'" {
	run -1 numa_maps_read <<<"maps:"
	run -1 numa_maps_read <<<"7f0000000000"
	run -1 numa_maps_read <<<"7f0000000000 anon=3 N0=3"
	run -1 numa_maps_read <<<"region=A kind=mmap"
	run -1 numa_maps_read <<<"$MAPS"$'\nnodes: N0=3'
}

@test "numa_maps_policy and numa_maps_nodes: one line, or they fail" {
	run -0 numa_maps_policy "7f0000000000 weighted interleave:0-3 anon=5 N0=3 N1=2 kernelpagesize_kB=4"
	[ "$output" = "weighted interleave:0-3" ]
	run -0 numa_maps_nodes "7f0000000000 weighted interleave:0-3 anon=5 N0=3 N1=2 kernelpagesize_kB=4"
	[ "$output" = "N0=3 N1=2" ]
	run -1 numa_maps_policy ""
	run -1 numa_maps_nodes ""
	run -1 numa_maps_policy "x weighted interleave:0-3"
	run -1 numa_maps_policy "$MAPS"
}

# A policy with weights of its own (kernel series): "weights=" after it.
@test "numa_maps_read, numa_maps_policy, numa_maps_weights: the weights= token" {
	local own="7f0000000000 weighted interleave:0-3 weights=0:8,1:4,2:2,3:1 anon=15 dirty=15 N0=8 N1=4 N2=2 N3=1 kernelpagesize_kB=4"
	local glob="7f1000000000 weighted interleave:0-3 anon=4 N0=1 N1=1 N2=1 N3=1 kernelpagesize_kB=4"
	run -0 numa_maps_read <<<"$own"
	[ "$output" = $'7f0000000000\tanon\tweighted interleave:0-3\tN0=8 N1=4 N2=2 N3=1' ]
	run -0 numa_maps_policy "$own"
	[ "$output" = "weighted interleave:0-3" ]
	run -0 numa_maps_weights "$own"
	[ "$output" = "0:8,1:4,2:2,3:1" ]
	run -0 numa_maps_nodes "$own"
	[ "$output" = "N0=8 N1=4 N2=2 N3=1" ]
	run -0 numa_maps_weights "$glob"
	[ "$output" = "" ]
	run -0 numa_maps_weights "7f2000000000 weighted interleave=static:1,3 weights=1:5,3:2 heap anon=7 N1=5 N3=2"
	[ "$output" = "1:5,3:2" ]
	run -1 numa_maps_weights ""
	run -1 numa_maps_weights "x weighted interleave:0-3 weights=0:1"
}

@test "numa_maps_heap_policy: the heap's policy, and a failure without a heap" {
	local f=$BATS_TEST_TMPDIR/maps
	printf '%s\n' "$MAPS" >"$f"
	run -0 numa_maps_heap_policy "$f"
	[ "$output" = "weighted interleave:0-2" ]
	grep -v heap <<<"$MAPS" >"$f"
	run -1 numa_maps_heap_policy "$f"
	: >"$f"
	run -1 numa_maps_heap_policy "$f"
	# The real thing: this shell's own, under the policy it runs with.
	run -0 "${HEAP_POLICY[@]}"
	[ "$output" = default ]
	run -0 numactl -i 0 "${HEAP_POLICY[@]}"
	[ "$output" = "interleave:0" ]
}

@test "numa_maps_pages: heap, anon and file pages of a node from alloc -m's dump" {
	local text=$'region=A kind=mmap\nmaps:\n'"$MAPS"
	run -0 numa_maps_pages 0 "$text"
	[ "$output" = "20 0 4" ]
	run -0 numa_maps_pages 1 "$text"
	[ "$output" = "0 1027 0" ]
	run -0 numa_maps_pages 2 "$text"
	[ "$output" = "10 5 0" ]
	output=$text
	run -0 numa_maps_pages 3
	[ "$output" = "0 3 0" ]
	# A node with nothing is zeros; no dump, an empty one or a stray line fails.
	run -0 numa_maps_pages 7 "$text"
	[ "$output" = "0 0 0" ]
	run -1 numa_maps_pages 0 "$MAPS"
	run -1 numa_maps_pages 0 $'region=A\nmaps:'
	run -1 numa_maps_pages 0 "$text"$'\nnodes: N0=5'
}

# A command for refused: prints $2 on stdout and $3 on stderr, exits $1.
says() { printf '%s' "$2"; printf '%s' "$3" >&2; return "$1"; }

@test "refused passes exit 1, the message alone on stderr (or numactl2's hint after it)" {
	run -0 refused "error: bad" says 1 "" "error: bad"
	run -0 refused "numactl2: bad" says 1 "" "numactl2: bad"
	run -0 refused "numactl2: bad" says 1 "" $'numactl2: bad\n'"$NM2_USAGE_HINT"
	run -0 refused --usage "numactl2: bad" says 1 "" $'numactl2: bad\n'"$NM2_USAGE_HINT"
}

@test "refused fails on another status, stdout, another message or more stderr" {
	run -1 refused "numactl2: bad" says 0 "" "numactl2: bad"
	run -1 refused "numactl2: bad" says 2 "" "numactl2: bad"
	run -1 refused "numactl2: bad" says 1 "out" "numactl2: bad"
	run -1 refused "numactl2: bad" says 1 "" ""
	run -1 refused "numactl2: bad" says 1 "" "numactl2: bad!"
	run -1 refused "numactl2: bad" says 1 "" $'numactl2: other\nnumactl2: bad'
	run -1 refused "numactl2: bad" says 1 "" $'numactl2: bad\nnumactl2: more'
	run -1 refused "error: bad" says 1 "" $'error: bad\n'"$NM2_USAGE_HINT"
	run -1 refused --usage "numactl2: bad" says 1 "" "numactl2: bad"
	run -1 refused "" says 1 "" ""
	run -1 refused "numactl2: bad"
}

@test "refused fails when something was done: a state changed, a file made" {
	local f=$BATS_TEST_TMPDIR/made
	state() { echo "state $STATE"; }
	STATE=1
	run -0 refused --unchanged state "state 1" --absent "$f" "e: x" says 1 "" "e: x"
	run -1 refused --unchanged state "state 2" "e: x" says 1 "" "e: x"
	run -0 refused --unchanged state "state 1" --unchanged state "state 1" "e: x" says 1 "" "e: x"
	run -1 refused --unchanged state "state 1" --unchanged state "state 2" "e: x" says 1 "" "e: x"
	run -1 refused --absent "$f" "e: x" sh -c 'touch "$1"; echo "e: x" >&2; exit 1' _ "$f"
	run -1 refused --absent /nonexistent --absent "$f" "e: x" says 1 "" "e: x"
}

# A fake numactl2 for the lease helpers. --show lists, as holders of node
# $NODE (a line each, as lib/owner/listprint.c prints them), the jobs
# started so far; a job (-w NODES --weights=W sleep SECONDS)
# records its arguments and, with $RECORD set, its pid, then sleeps.
# (Not named as the suites name numactl2: test/check-all's fakes part runs
# the files that do.)
fake_numactl2() {
	local fake=$BATS_TEST_TMPDIR/numactl2
	NUMACTL2=$fake
	cat >"$fake" <<-'EOS'
	#!/bin/sh
	if [ "$1" = --show ]; then
		for p in $(cat "$PIDS"); do
			echo "interleave weight holder: pid $p user root command sleep weights $NODE:9"
		done
		exit 0
	fi
	echo "$*" >"$PIDS.args"
	[ -z "$RECORD" ] || echo $$ >>"$PIDS"
	exec sleep "$5"
	EOS
	chmod +x "$fake"
	export PIDS=$BATS_TEST_TMPDIR/pids NODE=1 RECORD=
	: >"$PIDS"
	LEASE_WAIT=1
}

@test "lease_msg: the message of a run a lease is in the way of" {
	[ "$(lease_msg 2 7 12 5)" = "numactl2: node 2 is held at weight 7 by PID 12 (sleep, uid 0); this needs weight 5 there: --wait to queue, --force to override" ]
	[ "$(lease_msg 2 7 12 5 app 1000)" = "numactl2: node 2 is held at weight 7 by PID 12 (app, uid 1000); this needs weight 5 there: --wait to queue, --force to override" ]
}

@test "wait_for_lease: the pid among the node's holders, or a failure" {
	fake_numactl2
	echo "100 1234 5678" >"$PIDS"
	run -0 wait_for_lease 1 1234
	run -0 wait_for_lease 1 100
	run -0 wait_for_lease 1 5678
	run -1 wait_for_lease 0 1234
	run -1 wait_for_lease 1 123
	run -1 wait_for_lease 1 234
	run -1 wait_for_lease 1 10
	: >"$PIDS"
	run -1 wait_for_lease 1 1234
}

@test "hold: a background job once its lease shows, or a failure" {
	fake_numactl2
	bg=()
	# The job never leases: hold fails, the job is in bg for the teardown.
	# (These jobs sleep 1 s: run waits for the output they hold open.)
	run -1 hold 0-2 2:9 1
	hold 0-2 2:9 1 || true
	[ "${#bg[@]}" -eq 1 ]
	[ "$(cat "$PIDS.args")" = "-w 0-2 --weights=2:9 sleep 1" ]
	# Its lease shows on another node than the first of the weights: a failure.
	RECORD=1 NODE=0 run -1 hold 0-2 2:9 1
	# It does: $holder is the job, running, and in bg.
	: >"$PIDS"
	bg=()
	RECORD=1 NODE=2
	hold 0-2 2:9,0:1 30
	[ "${bg[*]}" = "$holder" ]
	[ "$(cat "$PIDS")" = "$holder" ]
	kill -0 "$holder"
	kill "$holder"
}

@test "wait_until: true at once, or after a few tries; false past its bound fails and says so" {
	run -0 wait_until true
	local f=$BATS_TEST_TMPDIR/later
	(sleep 0.3; touch "$f") &
	run -0 wait_until [ -e "$f" ]
	WAIT_SECS=1 run -1 wait_until false
	[ "$output" = "wait_until: still false after 1 s: false" ]
}

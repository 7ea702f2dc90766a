#!/usr/bin/env bats
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

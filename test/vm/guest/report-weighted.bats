#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --weights=measured with --report in the 6.12 guest (weighted interleave):
# the weights the measurement chose are the ones the pages follow, exactly,
# and the report's requested shares are those weights.

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

@test "--weights=measured: measured, said in one line, the split follows them exactly" {
	local f=$BATS_TEST_TMPDIR/r.json line weights w n sum=0
	run -0 --separate-stderr numactl2 -w all --weights=measured --measure-size=8m --measure-time=20 \
		--report=json --report-file="$f" alloc -s 64M -m
	echo "$stderr"
	line=$(printf '%s\n' "$stderr" | grep '^numactl2: measured ')
	[[ "$line" =~ ^numactl2:\ measured\ node\ 0\ [0-9.]+\ GB/s,\ node\ 1\ [0-9.]+\ GB/s,\ node\ 2\ [0-9.]+\ GB/s,\ node\ 3\ [0-9.]+\ GB/s\ in\ [0-9.]+\ s:\ weights\ (0:[0-9]+,1:[0-9]+,2:[0-9]+,3:[0-9]+)$ ]] || return 1
	weights=""
	for w in ${BASH_REMATCH[1]//,/ }; do
		weights+="${weights:+ }${w#*:}"
		sum=$((sum + ${w#*:}))
	done
	echo "measured weights: $weights"
	assert_split "0 1 2 3" "$weights"
	assert_report_json "$f" "0 1 2 3"
	n=0
	for w in $weights; do
		jq -e --argjson n "$n" --argjson w "$w" --argjson s "$sum" \
			'.nodes[$n].requested_share - $w / $s | fabs < 1e-6' "$f"
		n=$((n + 1))
	done
	[ "$(global_weights)" = "$weights" ]
}

@test "--report: -w without --weights asks for the global weights in effect" {
	local f=$BATS_TEST_TMPDIR/r.json
	run -0 numactl2 --set-global-weights=0:3,1:1
	run -0 --separate-stderr numactl2 -w 0,1 --report=json --report-file="$f" alloc -s 16M -m
	assert_split "0 1" "3 1"
	assert_report_json "$f" "0 1 2 3"
	[ "$(jq -r '[.nodes[].requested_share] | map(tostring) | join(" ")' "$f")" = "0.75 0.25 0 0" ]
}

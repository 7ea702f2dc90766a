#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's auto weights (6.16+; the 7.2 guest): the `auto` switch, the
# weights the kernel computes from the guest's HMAT (200/100/50/25 GB/s),
# and how numactl2 reports, keeps and leaves auto mode.

load common

setup() {
	reset_weights
}

teardown() {
	reset_weights
}

auto_state() { cat "$WI/auto"; }

# The weights mm/mempolicy.c (7.2, reduce_interleave_weights) computes from
# the access1 bandwidth of the nodes that have a weight file: b = min(read,
# write); w = floor(32 * b / sum b) when 32 * b > sum b, else 1; then every w
# divided by the gcd of them all.  "W0 W1 W2 W3".
kernel_auto_weights() {
	local n d=/sys/devices/system/node r w
	for n in 0 1 2 3; do
		[ -e "$WI/node$n" ] || continue
		r=$(cat "$d/node$n/access1/initiators/read_bandwidth" 2>/dev/null || echo 0)
		w=$(cat "$d/node$n/access1/initiators/write_bandwidth" 2>/dev/null || echo 0)
		echo "$((r < w ? r : w))"
	done | awk '
		function gcd(a, b) { while (b) { t = b; b = a % b; a = t } return a }
		{ bw[NR] = $1; sum += $1 }
		END {
			for (i = 1; i <= NR; i++) {
				w[i] = (bw[i] && sum < 32 * bw[i]) ? int(32 * bw[i] / sum) : 1
				g = i == 1 ? w[i] : gcd(g, w[i])
			}
			for (i = 1; i <= NR; i++) out = out (i > 1 ? " " : "") w[i] / g
			print out
		}'
}

@test "--auto-global-weights turns auto on: the kernel's weights from the HMAT bandwidth" {
	local want
	# 7.2: the switch, and a weight file for each memory node (all four).
	[ "$(ls "$WI" | tr '\n' ' ')" = "auto node0 node1 node2 node3 " ]
	want=$(kernel_auto_weights)
	echo "computed from access1 bandwidth: $want"
	[ "$want" != "1 1 1 1" ]
	[ "$(auto_state)" = false ]
	run -0 --separate-stderr numactl2 --auto-global-weights
	echo "stderr: $stderr"
	[ "$stderr" = "numactl2: global interleave weights are now set by the kernel from node bandwidth" ]
	[ "$(auto_state)" = true ]
	echo "kernel: $(global_weights)"
	[ "$(global_weights)" = "$want" ]
}

@test "auto mode: -w without --weights places pages exactly by the kernel's weights, changes nothing" {
	numactl2 --auto-global-weights 2>/dev/null
	local w
	w=$(global_weights)
	run -0 --separate-stderr numactl2 -w 0-3 alloc -s 64M
	echo "$output"
	assert_split "0 1 2 3" "$w"
	[ "${#stderr_lines[@]}" -eq 0 ]
	[ "$(auto_state)" = true ]
	[ "$(global_weights)" = "$w" ]
}

@test "auto mode: --show says weightsource: global auto, with the kernel's weights" {
	numactl2 --auto-global-weights 2>/dev/null
	run -0 --separate-stderr numactl2 -w all numactl2 --show
	echo "$output"
	printf '%s\n' "${lines[@]}" | grep -qx "interleaveweights: $(global_weights)"
	printf '%s\n' "${lines[@]}" | grep -qx 'weightsource: global auto'
}

@test "auto mode: --hardware shows the kernel's weights and says auto" {
	numactl2 --auto-global-weights 2>/dev/null
	local n w
	read -ra w <<<"$(global_weights)"
	run -0 --separate-stderr numactl2 --hardware
	echo "$output"
	for n in 0 1 2 3; do
		printf '%s\n' "${lines[@]}" | grep -qx "node $n interleave weight: ${w[n]}"
	done
	printf '%s\n' "${lines[@]}" | grep -qx 'global interleave weights: auto'
}

@test "--weights in auto mode: writes its nodes, auto goes off, stderr says so" {
	numactl2 --auto-global-weights 2>/dev/null
	local w
	read -ra w <<<"$(global_weights)"
	run -0 --separate-stderr numactl2 -w 0,1 --weights=0:5,1:1 alloc -s 16M
	echo "stderr: $stderr"
	[ "$stderr" = "numactl2: changed global interleave weights: node0 ${w[0]}->5, node1 ${w[1]}->1; kernel auto weights switched off" ]
	assert_split "0 1" "5 1"
	[ "$(auto_state)" = false ]
	# The kernel keeps the auto weights of the nodes that were not written.
	[ "$(global_weights)" = "5 1 ${w[2]} ${w[3]}" ]
}

@test "after --weights turned auto off, --show says weightsource: global manual" {
	numactl2 --auto-global-weights 2>/dev/null
	run -0 --separate-stderr numactl2 -w 0-3 --weights=0:3 numactl2 --show
	echo "$output"
	printf '%s\n' "${lines[@]}" | grep -qx 'weightsource: global manual'
	[ "$(auto_state)" = false ]
}

@test "auto mode: weight 0 is refused before anything is written" {
	numactl2 --auto-global-weights 2>/dev/null
	local before
	before=$(global_weights)
	# node0's weight is valid: a numactl2 that wrote it before finding the 0
	# would leave the table changed, or say the kernel refused node 1.
	refused --usage --unchanged global_weights "$before" \
		"numactl2: invalid weight '0' for node 1 (1-255)" numactl2 -w 0,1 --weights=0:1,1:0 alloc -s 64K
	refused --usage --unchanged global_weights "$before" \
		"numactl2: invalid weight '0' for node 1 (1-255)" numactl2 --set-global-weights=0:1,1:0
	[ "$(auto_state)" = true ]
	# The kernel refuses 0 and an empty weight as well.
	run -1 sh -c "echo 0 >$WI/node1"
	run -1 sh -c "echo >$WI/node1"
	[ "$(auto_state)" = true ]
}

@test "--reset-global-weights in auto mode: every node 1, auto off, said on stderr" {
	numactl2 --auto-global-weights 2>/dev/null
	run -0 --separate-stderr numactl2 --reset-global-weights
	echo "stderr: $stderr"
	[[ "$stderr" == *"; kernel auto weights switched off" ]]
	[ "$(global_weights)" = "1 1 1 1" ]
	[ "$(auto_state)" = false ]
}

@test "--dry-run --auto-global-weights: says what it would do, changes nothing" {
	run -0 --separate-stderr numactl2 --dry-run --auto-global-weights
	echo "$output"
	[ "$output" = "would turn on the kernel's auto interleave weights" ]
	[ "$(auto_state)" = false ]
	[ "$(global_weights)" = "1 1 1 1" ]
}

# The "kernel auto weights" line of numactl2 --dry-run --weights=auto as
# "W0 W1 W2 W3".
dry_run_kernel_weights() {
	printf '%s\n' "$1" | sed -n 's/^kernel auto weights: \([0-9: ]*\) (sum.*/\1/p' |
		tr ' ' '\n' | cut -d: -f2 | paste -sd' ' -
}

@test "--weights=auto --dry-run: its 'kernel auto weights' are the running kernel's own" {
	numactl2 --auto-global-weights 2>/dev/null
	local kernel
	kernel=$(global_weights)
	echo "the kernel's: $kernel"
	[ "$kernel" != "1 1 1 1" ]
	run -0 --separate-stderr numactl2 -w all --weights=auto --dry-run alloc -s 64K
	echo "$output"
	[ "$(dry_run_kernel_weights "$output")" = "$kernel" ]
	[ "${lines[2]}" = "weights: 0:8 1:4 2:2 3:1" ]
	[ "$(auto_state)" = true ]
	[ "$(global_weights)" = "$kernel" ]
}

@test "--weights=auto in auto mode: 8:4:2:1 replaces the kernel's, auto goes off, exact split" {
	numactl2 --auto-global-weights 2>/dev/null
	local w
	read -ra w <<<"$(global_weights)"
	run -0 --separate-stderr numactl2 -w all --weights=auto alloc -s 64M
	echo "stderr: $stderr"
	[ "$stderr" = "numactl2: changed global interleave weights: node0 ${w[0]}->8, node1 ${w[1]}->4, node2 ${w[2]}->2, node3 ${w[3]}->1; kernel auto weights switched off" ]
	assert_split "0 1 2 3" "8 4 2 1"
	assert_maps_match
	[ "$(auto_state)" = false ]
}

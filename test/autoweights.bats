#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --weights=auto and --weight-budget on the host: the bandwidth it reads
# (a fake node directory through NUMACTL2_SYSFS_NODE, test build only; the
# host has one node and no HMAT), and bad input. The weights for the guest's
# four nodes and their page split are tested in test/vm/guest/weighted.bats.

load helpers

setup() {
	[ -d "$WI_DIR" ] || skip "needs Linux 6.9+ for $REAL_WI_DIR"
	before=$(wi_snapshot)
	NODE_DIR=$BATS_TEST_TMPDIR/node
	mkdir -p "$NODE_DIR/node0"
	# The job's CPUs are on node 0, as on the host (the initiators).
	cat /sys/devices/system/node/node0/cpulist >"$NODE_DIR/node0/cpulist"
	export NUMACTL2_SYSFS_NODE=$NODE_DIR
	export NUMACTL2_ACPI_TABLES=$BATS_TEST_TMPDIR/acpi
}

# node_bw NODE ACCESS READ WRITE: a fake HMAT entry, from node 0's CPUs.
node_bw() {
	local d=$NODE_DIR/node$1/access$2/initiators
	# node0: the nearest initiator, the link the kernel makes.
	mkdir -p "$d/node0"
	echo "$3" >"$d/read_bandwidth"
	echo "$4" >"$d/write_bandwidth"
}

# bad_auto MESSAGE ARGS...: numactl2 ARGS touch ... is refused with
# "numactl2: MESSAGE" (test/lib/refused.bash), the table unchanged and the
# command never run.
bad_auto() {
	local ran=$BATS_TEST_TMPDIR/ran
	refused --unchanged wi_snapshot "$before" --absent "$ran" \
		"numactl2: $1" "$NUMACTL2" "${@:2}" touch "$ran"
}

@test "--weights=auto --dry-run: min(read, write) of access1, the weights and the kernel's" {
	node_bw 0 1 200000 190000
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=auto --dry-run true
	[ "${lines[2]}" = "weights: 0:1" ]
	[ "${lines[4]}" = "bandwidth (MB/s, min of read and write, HMAT access1): 0:190000" ]
	[ "${lines[5]}" = "auto weights: 0:1 (sum 1, budget 32): modelled 190.0 GB/s, 100.0% of the nodes' 190.0 GB/s" ]
	[ "${lines[6]}" = "kernel auto weights: 0:1 (sum 1, budget 32): modelled 190.0 GB/s, 100.0% of the nodes' 190.0 GB/s" ]
	[ "$(wi_snapshot)" = "$before" ]
}

@test "--weights=auto --dry-run: the sum and why after the kernel's line (more nodes: bwweights.bats)" {
	node_bw 0 1 200000 190000
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=auto --dry-run true
	[ "${lines[5]}" = "auto weights: 0:1 (sum 1, budget 32): modelled 190.0 GB/s, 100.0% of the nodes' 190.0 GB/s" ]
	[ "${lines[7]}" = "auto weight sum 1: 100.0% of 190.0 GB/s, the best within the kernel's budget of 32, reaches 99%" ]
	[[ ${lines[8]} == "initiators (the job's CPUs, from its affinity now): node 0 ("*" CPU"*")" ]] || return 1
	[ "${lines[9]}" = "bandwidth from: sysfs access1 or access0, the nearest initiator's (HMAT: No such file or directory); the job runs on it: as the firmware gives it" ]
	[ "${lines[10]}" = "command: true" ]
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=auto --weight-budget=8 --dry-run true
	[ "${lines[5]}" = "auto weights: 0:1 (sum 1, budget 8): modelled 190.0 GB/s, 100.0% of the nodes' 190.0 GB/s" ]
	[ "${lines[7]}" = "auto weight sum 1: 100.0% of 190.0 GB/s, the best within --weight-budget=8" ]
	[ "$(wi_snapshot)" = "$before" ]
}

@test "--weights=auto: access1 before access0, access0 where access1 is missing" {
	node_bw 0 0 300000 300000
	node_bw 0 1 100000 120000
	run -0 "$NUMACTL2" -w 0 --weights=auto --dry-run true
	[ "${lines[4]}" = "bandwidth (MB/s, min of read and write, HMAT access1): 0:100000" ]
	rm -r "$NODE_DIR/node0/access1"
	run -0 "$NUMACTL2" -w 0 --weights=auto --dry-run true
	[ "${lines[4]}" = "bandwidth (MB/s, min of read and write, HMAT access1): 0:300000 (access0)" ]
}

@test "--weights=auto: a bandwidth file that is a FIFO or a symlink is no data, and nothing blocks" {
	node_bw 0 0 300000 300000
	node_bw 0 1 100000 120000
	rm "$NODE_DIR/node0/access1/initiators/read_bandwidth"
	mkfifo "$NODE_DIR/node0/access1/initiators/read_bandwidth"
	run -0 timeout 10 "$NUMACTL2" -w 0 --weights=auto --dry-run true
	[ "${lines[4]}" = "bandwidth (MB/s, min of read and write, HMAT access1): 0:300000 (access0)" ]
	rm "$NODE_DIR/node0/access1/initiators/read_bandwidth"
	echo 100000 >"$BATS_TEST_TMPDIR/rb"
	ln -s "$BATS_TEST_TMPDIR/rb" "$NODE_DIR/node0/access1/initiators/read_bandwidth"
	run -0 timeout 10 "$NUMACTL2" -w 0 --weights=auto --dry-run true
	[ "${lines[4]}" = "bandwidth (MB/s, min of read and write, HMAT access1): 0:300000 (access0)" ]
}

@test "--weight-budget shows in --dry-run; --interleave with --weights=auto is weighted" {
	node_bw 0 1 50000 50000
	run -0 "$NUMACTL2" --interleave=0 --weights=auto --weight-budget=255 --dry-run true
	[ "${lines[0]}" = "policy: weighted-interleave" ]
	[[ ${lines[5]} == "auto weights: 0:1 (sum 1, budget 255): "* ]] || return 1
}

@test "--weights=auto runs the command with the weights written, and says so" {
	node_bw 0 1 50000 50000
	echo 5 >"$WI_DIR/node0"
	run -0 --separate-stderr "$NUMACTL2" -w 0 --weights=auto cat "$WI_DIR/node0"
	[ "$output" = 1 ]
	[[ ${stderr_lines[0]} == "numactl2: changed global interleave weights: node0 5->1"* ]] || return 1
}

@test "--weights=auto from CPUs the node's figure is not for (HMAT unread): approximated, said by --dry-run and the run, with --weights=measured" {
	node_bw 0 1 200000 200000
	# Node 0's figure is for its initiator node0 (CPU 0); the job runs on CPU 1, node 1's.
	echo 0 >"$NODE_DIR/node0/cpulist"
	mkdir -p "$NODE_DIR/node1"
	echo 1 >"$NODE_DIR/node1/cpulist"
	echo "10 20" >"$NODE_DIR/node0/distance"
	echo "20 10" >"$NODE_DIR/node1/distance"
	run -0 --separate-stderr "$NUMACTL2" --physcpubind=1 -w 0 --weights=auto --dry-run true
	[ "${lines[4]}" = "bandwidth (MB/s, min of read and write, HMAT access1): 0:100000 (approximated)" ]
	[ "${lines[5]}" = "auto weights: 0:1 (sum 1, budget 32): approximated from SLIT distances: worst case not known (no node's figure is exact for the job's CPUs)" ]
	[[ $(printf '%s\n' "${lines[@]}" | grep -F "bandwidth from:") == *"; --weights=measured measures from the job's CPUs" ]] || return 1
	[ -z "$stderr" ]
	run -0 --separate-stderr "$NUMACTL2" --physcpubind=1 -w 0 --weights=auto true
	[ "${stderr_lines[0]}" = "numactl2: --weights=auto (HMAT: No such file or directory): weights 0:1 approximated from SLIT distances: worst case not known (no node's figure is exact for the job's CPUs); --weights=measured measures from the job's CPUs" ]
	# From node 0's own CPU the figure is exact: no notice.
	run -0 --separate-stderr "$NUMACTL2" --physcpubind=0 -w 0 --weights=auto true
	[[ $stderr != *--weights=auto* ]] || return 1
}

@test "--weights=auto without bandwidth data: exit 1, says to measure, nothing changed" {
	bad_auto "node 0 reports no bandwidth (nothing in $NODE_DIR/node0/access1 or access0): measure it with --measure, or use --weights=measured" \
		-w 0 --weights=auto
	node_bw 0 1 0 100000
	bad_auto "node 0 reports no bandwidth (nothing in $NODE_DIR/node0/access1 or access0): measure it with --measure, or use --weights=measured" \
		-w 0 --weights=auto
	echo junk >"$NODE_DIR/node0/access1/initiators/read_bandwidth"
	bad_auto "node 0 reports no bandwidth (nothing in $NODE_DIR/node0/access1 or access0): measure it with --measure, or use --weights=measured" \
		-w 0 --weights=auto --dry-run
}

@test "--weight-budget: bad values, exit 1 with a usage error, nothing changed" {
	node_bw 0 1 50000 50000
	local b
	for b in 0 256 4294967296 -1 abc "" 0x10 " 3"; do
		bad_auto "invalid weight budget '$b' (1-255)" -w 0 --weights=auto --weight-budget="$b"
		[ "${stderr_lines[1]}" = "Try 'numactl2 --help' for more information." ]
	done
}

@test "--weight-budget: only with --weights=auto, once, not with the global options" {
	node_bw 0 1 50000 50000
	bad_auto "--weight-budget needs --weights=auto or --weights=measured" -w 0 --weight-budget=8
	bad_auto "--weight-budget needs --weights=auto or --weights=measured" -w 0 --weights=0:2 --weight-budget=8
	bad_auto "--weight-budget given twice" -w 0 --weights=auto --weight-budget=8 --weight-budget=9
	run -1 --separate-stderr "$NUMACTL2" --set-global-weights=0:2 --weight-budget=8
	[ "${stderr_lines[0]}" = "numactl2: global weight options run alone, without a policy or command" ]
	[ "$(wi_snapshot)" = "$before" ]
}

@test "--weights=auto needs weighted interleave" {
	node_bw 0 1 50000 50000
	bad_auto "--weights needs --weighted-interleave or --interleave" --membind=0 --weights=auto
	bad_auto "--weights needs --weighted-interleave or --interleave" --weights=auto
	bad_auto "invalid weight list item 'Auto' (expected NODES:WEIGHT)" -w 0 --weights=Auto
}

@test "--hardware reads the same node bandwidth files" {
	node_bw 0 1 200000 190000
	run -0 "$NUMACTL2" --hardware
	[[ $output == *$'\n'"node 0 bandwidth: 200000 MB/s read, 190000 MB/s write"$'\n'* ]] || return 1
}

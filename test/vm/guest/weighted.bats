#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Weighted interleave on a kernel that has it (6.9+; the 6.12 and 7.2 guests).
# numactl2 puts the weights in the global sysfs table there, so every test
# that changes them resets them afterwards.

load common

setup_file() {
	thp never
	force_global_path
}

# This file is about the global table.  On a kernel with the series
# (kernel/), numactl2 keeps --weights task-local instead (task-local.bats);
# there, every numactl2 call that sets weights goes the global way: a
# numactl2 first in PATH execs the real one with --global-weights (exec, so
# that $! of a background numactl2 is numactl2's own PID).
force_global_path() {
	local real bin=$BATS_FILE_TMPDIR/global-bin
	[ -e /sys/kernel/mm/mempolicy/syscalls ] || return 0
	real=$(command -v numactl2)
	mkdir -p "$bin"
	cat >"$bin/numactl2" <<-EOF
		#!/bin/bash
		case " \$* " in
		*" --weights="* | *" --weights "*) exec "$real" --global-weights "\$@" ;;
		esac
		exec "$real" "\$@"
	EOF
	chmod +x "$bin/numactl2"
	export PATH=$bin:$PATH
}

setup() {
	reset_weights
}

teardown() {
	# A background alloc left waiting would keep bats waiting too.
	[ -z "${bg_pid:-}" ] || kill "$bg_pid" 2>/dev/null || true
	reset_weights
	thp never
}

# wi NODES WEIGHTLIST "NODEIDS" "WEIGHTS" [alloc args...]: run alloc under
# weighted interleave and check the exact 4 KiB split and the numa_maps line.
wi() {
	local nodes=$1 list=$2 ids=$3 weights=$4
	shift 4
	run -0 --separate-stderr numactl2 -w "$nodes" --weights="$list" alloc "$@"
	echo "$output"
	assert_split "$ids" "$weights"
	assert_policy "weighted interleave:$(compact "$ids")"
}

@test "weights 1:1 on nodes 0,1: exact 4 KiB split" {
	wi 0,1 0:1,1:1 "0 1" "1 1" -s 64M
	assert_maps_match
}

@test "weights 5:1 on nodes 0,1: exact 4 KiB split" {
	wi 0,1 0:5,1:1 "0 1" "5 1" -s 64M
	assert_maps_match
}

@test "weights 1:5 on nodes 0,1: exact 4 KiB split" {
	wi 0-1 0:1,1:5 "0 1" "1 5" -s 64M
}

@test "weights 9:1 on nodes 0,1: exact 4 KiB split" {
	wi 0,1 0:9,1:1 "0 1" "9 1" -s 64M
}

@test "weights 255:1 on nodes 0,1: exact 4 KiB split" {
	wi 0,1 0:255,1:1 "0 1" "255 1" -s 64M
}

@test "weights 5:2:1 on nodes 0-2: 64 MiB splits 10240/4096/2048" {
	wi 0-2 0:5,1:2,2:1 "0 1 2" "5 2 1" -s 64M
	[ "$(node_tokens "$(region_line A nodes)")" = "N0=10240 N1=4096 N2=2048" ]
	assert_maps_match
}

@test "weights 1:2:3:4 on nodes 0-3: exact 4 KiB split" {
	wi 0-3 0:1,1:2,2:3,3:4 "0 1 2 3" "1 2 3 4" -s 64M
	assert_maps_match
}

@test "weights 8:4:2:1 on nodes 0-3: exact 4 KiB split" {
	wi 0-3 0:8,1:4,2:2,3:1 "0 1 2 3" "8 4 2 1" -s 64M
	assert_maps_match
}

@test "a single node: every page on it, and the global table left alone" {
	run -0 --separate-stderr numactl2 -w 2 --weights=2:7 alloc -s 16M
	echo "$output"
	assert_all_on 2
	assert_policy "weighted interleave:2"
	[ "$stderr" = "numactl2: node 2 alone needs no weights (weighted interleave over one node puts every page there): the global interleave weights are left as they are" ]
	[ "$(global_weights)" = "1 1 1 1" ]
}

@test "all: the four nodes, unnamed nodes get weight 1" {
	wi all 0:3 "0 1 2 3" "3 1 1 1" -s 64M
	# The split is the table's while the job ran; after it, the table is
	# back as it was (restore.bats).
	wait_until eval '[ "$(global_weights)" = "1 1 1 1" ]'
}

@test "--keep-weights: the global weights stay as numactl2 wrote them" {
	run -0 --separate-stderr numactl2 -w 0-3 --weights=0:8,1:4,2:2,3:1 --keep-weights true
	[ "$(global_weights)" = "8 4 2 1" ]
}

@test "numactl2 says on stderr, in one line, that it changed the global weights" {
	run -0 --separate-stderr numactl2 -w 0,1 --weights=0:5 alloc -s 64K
	echo "stderr: $stderr"
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "${stderr_lines[0]}" == "numactl2: "* ]]
	[[ "${stderr_lines[0]}" == *global* ]]
	[[ "$output" == *"region=A"* ]]
}

@test "-w NODES, --weighted-interleave, -w --interleave, -w -i and --interleave --weights agree" {
	local spelling
	numactl2 --set-global-weights=0:3,1:1
	for spelling in "-w 0,1" "--weighted-interleave=0,1" "-w --interleave=0,1" \
			"-w -i 0,1" "-w -i0,1"; do
		# shellcheck disable=SC2086
		run -0 --separate-stderr numactl2 $spelling alloc -s 16M
		echo "$spelling"
		assert_split "0 1" "3 1"
		assert_policy "weighted interleave:0-1"
	done
	run -0 --separate-stderr numactl2 --interleave=0,1 --weights=0:3 alloc -s 16M
	assert_split "0 1" "3 1"
	assert_policy "weighted interleave:0-1"
}

@test "-w without --weights uses the global weights as they are" {
	numactl2 --set-global-weights=0:2,1:1,2:1,3:4
	run -0 --separate-stderr numactl2 -w 0-3 alloc -s 64M
	assert_split "0 1 2 3" "2 1 1 4"
	[ "${#stderr_lines[@]}" -eq 0 ]
}

@test "--dry-run changes no weight and runs nothing" {
	run -0 --separate-stderr numactl2 --dry-run -w 0-1 --weights=0:9 alloc -s 64K
	echo "$output"
	[ "$(global_weights)" = "1 1 1 1" ]
	[[ "$output" != *"region=A"* ]]
}

@test "--weights takes node ranges: 0:4,1-3:2" {
	wi all 0:4,1-3:2 "0 1 2 3" "4 2 2 2" -s 64M
}

@test "-C 1 with weighted interleave: runs on CPU 1, weighted split" {
	run -0 --separate-stderr numactl2 -C 1 -w 0-1 --weights=0:3 alloc -s 64M
	echo "$output"
	[ "${lines[0]}" = "cpus: 1" ]
	assert_split "0 1" "3 1"
}

@test "-N 0 with weighted interleave over 1-3: node 0's CPUs, pages on 1-3 only" {
	run -0 --separate-stderr numactl2 -N 0 -w 1-3 --weights=1:1,2:2,3:4 alloc -s 64M
	echo "$output"
	[ "${lines[0]}" = "cpus: 0 1" ]
	assert_split "1 2 3" "1 2 4"
	assert_policy "weighted interleave:1-3"
}

@test "a weight out of range changes nothing" {
	run -1 --separate-stderr numactl2 -w 0,1 --weights=0:256 alloc -s 64K
	echo "stderr: $stderr"
	[[ "$stderr" == numactl2:* ]]
	[ -z "$output" ]
	[ "$(global_weights)" = "1 1 1 1" ]
}

# Memory kinds and sizes, weights 8:4:2:1 over the four nodes.

@test "heap (malloc) 256 MiB: exact split" {
	wi 0-3 0:8,1:4,2:2,3:1 "0 1 2 3" "8 4 2 1" -k heap -s 256M
}

@test "heap (malloc) 64 KiB: exact split" {
	wi 0-3 0:8,1:4,2:2,3:1 "0 1 2 3" "8 4 2 1" -k heap -s 64K
}

@test "anonymous mmap 256 MiB: exact split" {
	wi 0-3 0:8,1:4,2:2,3:1 "0 1 2 3" "8 4 2 1" -k mmap -s 256M
	assert_maps_match
}

@test "anonymous mmap 64 KiB: exact split" {
	wi 0-3 0:8,1:4,2:2,3:1 "0 1 2 3" "8 4 2 1" -k mmap -s 64K
	assert_maps_match
}

@test "tmpfs file MAP_SHARED 256 MiB: exact split" {
	wi 0-3 0:8,1:4,2:2,3:1 "0 1 2 3" "8 4 2 1" -k tmpfs -s 256M
	[[ "$(region_line A numa_maps)" == *" file=/mnt/tmpfs/"* ]]
	assert_maps_match
}

@test "tmpfs file MAP_SHARED 64 KiB: exact split" {
	wi 0-3 0:8,1:4,2:2,3:1 "0 1 2 3" "8 4 2 1" -k tmpfs -s 64K
	assert_maps_match
}

# Huge pages.

@test "THP on, MADV_NOHUGEPAGE: exact 4 KiB split" {
	thp always
	wi 0-2 0:5,1:2,2:1 "0 1 2" "5 2 1" -n -s 64M
}

@test "THP on, 2 MiB folios: each node within one huge page, 8:4:2:1" {
	thp always
	run -0 --separate-stderr numactl2 -w 0-3 --weights=0:8,1:4,2:2,3:1 alloc -H -s 256M
	echo "$output"
	assert_split_huge "0 1 2 3" "8 4 2 1"
	assert_policy "weighted interleave:0-3"
}

@test "THP on, 2 MiB folios: each node within one huge page, 5:2:1" {
	thp always
	run -0 --separate-stderr numactl2 -w 0-2 --weights=0:5,1:2,2:1 alloc -H -s 64M
	echo "$output"
	assert_split_huge "0 1 2" "5 2 1"
}

# Inheritance.

@test "threads inherit the policy and the weights" {
	wi 0-3 0:1,1:2,2:3,3:4 "0 1 2 3" "1 2 3 4" -t 4 -s 64M
}

@test "a forked child inherits the policy and the weights" {
	wi 0-2 0:5,1:2,2:1 "0 1 2" "5 2 1" -f -s 64M
	[ "${lines[0]}" = child ]
}

@test "a forked child's threads inherit the policy and the weights" {
	wi 0-1 0:9,1:1 "0 1" "9 1" -f -t 2 -k heap -s 64M
}

# Global weights changed while the program runs.

# start_paused OUT NUMACTL2-ARGS...: runs numactl2 in the background with its
# output in OUT, and waits (30 s at most) until alloc -p says READY. Sets pid.
start_paused() {
	local out=$1 i
	shift
	numactl2 "$@" >"$out" 2>"$out.err" &
	pid=$!
	bg_pid=$pid
	for i in $(seq 300); do
		grep -q '^READY$' "$out" && break
		sleep 0.1
	done
	grep -q '^READY$' "$out"
}

@test "changing global weights mid-run: only later allocations follow them" {
	local out=$BATS_TEST_TMPDIR/out
	start_paused "$out" -w 0,1 --weights=0:1,1:1 alloc -p -s 64M
	# The job holds 1:1: only --force changes it under the job.
	run -1 --separate-stderr numactl2 --set-global-weights=0:3,1:1
	[ "$(global_weights)" = "1 1 1 1" ]
	run -0 --separate-stderr numactl2 --force --set-global-weights=0:3,1:1
	[[ "${stderr_lines[0]}" == "numactl2: changed global interleave weights: node0 1->3"* ]] || return 1
	[ "$(global_weights)" = "3 1 1 1" ]
	kill -USR1 "$pid"
	wait "$pid"
	output=$(cat "$out")
	echo "$output"
	assert_split "0 1" "1 1" A
	assert_split "0 1" "3 1" B
	# Pages already placed do not move.
	assert_maps_match A
}

@test "changing global weights mid-run over four nodes: 8:4:2:1, then 1:1:1:1" {
	local out=$BATS_TEST_TMPDIR/out
	start_paused "$out" -w all --weights=0:8,1:4,2:2,3:1 alloc -p -k tmpfs -s 32M
	numactl2 --force --reset-global-weights
	kill -USR1 "$pid"
	wait "$pid"
	output=$(cat "$out")
	echo "$output"
	assert_split "0 1 2 3" "8 4 2 1" A
	assert_split "0 1 2 3" "1 1 1 1" B
}

# --show and --hardware.

@test "--show under weighted interleave prints the mask and the weights" {
	run -0 --separate-stderr numactl2 -w 0-2 --weights=0:5,1:2 numactl2 --show
	echo "$output"
	[ "${lines[0]}" = "policy: weighted-interleave" ]
	printf '%s\n' "${lines[@]}" | grep -qx 'interleavemask: 0 1 2 *'
	printf '%s\n' "${lines[@]}" | grep -qx 'interleaveweights: 5 2 1 *'
}

@test "--show without a policy" {
	run -0 numactl2 --show
	echo "$output"
	[ "${lines[0]}" = "policy: default" ]
}

@test "--show under -w all without --weights: the global weights" {
	numactl2 --set-global-weights=0:6,1:3,2:2,3:1
	run -0 --separate-stderr numactl2 -w all numactl2 --show
	echo "$output"
	[ "${lines[0]}" = "policy: weighted-interleave" ]
	printf '%s\n' "${lines[@]}" | grep -qx 'interleaveweights: 6 3 2 1 *'
}

@test "--show under -i all" {
	run -0 numactl2 -i all numactl2 --show
	echo "$output"
	[ "${lines[0]}" = "policy: interleave" ]
	printf '%s\n' "${lines[@]}" | grep -qx 'interleavemask: 0 1 2 3 *'
}

@test "--hardware: four nodes, CPU-less nodes 1-3, numactl's layout" {
	run -0 --separate-stderr numactl2 --hardware
	echo "$output"
	[ "${lines[0]}" = "available: 4 nodes (0-3)" ]
	[ "${lines[1]}" = "node 0 cpus: 0 1" ]
	printf '%s\n' "${lines[@]}" | grep -qx 'node 1 cpus:'
	printf '%s\n' "${lines[@]}" | grep -qx 'node 2 cpus:'
	printf '%s\n' "${lines[@]}" | grep -qx 'node 3 cpus:'
	printf '%s\n' "${lines[@]}" | grep -Eqx 'node 0 size: (9[0-9]{2}|10[0-9]{2}) MB'
	printf '%s\n' "${lines[@]}" | grep -Eqx 'node 3 size: (4[5-9][0-9]|5[01][0-9]) MB'
	printf '%s\n' "${lines[@]}" | grep -qx 'node distances:'
}

@test "--hardware matches Debian's numactl --hardware apart from free memory" {
	run -0 numactl --hardware
	want=$(printf '%s\n' "$output" | grep -v ' free: ')
	run -0 numactl2 --hardware
	got=$(printf '%s\n' "$output" | grep -v ' free: ' | head -n "$(printf '%s\n' "$want" | wc -l)")
	diff <(echo "$want") <(echo "$got")
}

@test "--hardware shows the HMAT bandwidth and latency of every node" {
	run -0 numactl2 --hardware
	echo "$output"
	local n bw=(204800 102400 51200 25600) lat=(100 200 250 300)
	for n in 0 1 2 3; do
		printf '%s\n' "${lines[@]}" | grep -E "^node $n bandwidth: .*\b${bw[n]}\b"
		printf '%s\n' "${lines[@]}" | grep -E "^node $n latency: .*\b${lat[n]}\b"
	done
}

@test "--hardware shows the global weights" {
	numactl2 --set-global-weights=0:8,1:4,2:2,3:1
	run -0 numactl2 --hardware
	echo "$output"
	local n w=(8 4 2 1)
	for n in 0 1 2 3; do
		printf '%s\n' "${lines[@]}" | grep -E "^node $n .*weight.*\b${w[n]}\b"
	done
}

@test "--reset-global-weights puts every node back to 1" {
	numactl2 --set-global-weights=0:8,1:4,2:2,3:1
	[ "$(global_weights)" = "8 4 2 1" ]
	run -0 --separate-stderr numactl2 --reset-global-weights
	[ "$(global_weights)" = "1 1 1 1" ]
}

@test "the guest's HMAT: access1 read bandwidth 200/100/50/25 GB/s" {
	local n bw=(204800 102400 51200 25600)
	for n in 0 1 2 3; do
		[ "$(cat /sys/devices/system/node/node$n/access1/initiators/read_bandwidth)" = "${bw[n]}" ]
	done
}

# --weights=auto. The guest's HMAT (run.sh) gives 204800/102400/51200/25600
# MB/s from node 0, read = write: 8:4:2:1 is exact (100% of the bandwidth
# sum, the smallest such sum), where the kernel's rule at 32 gives 17:8:4:2.

# auto_dry_run ARGS...: the --dry-run lines, with nothing changed.
auto_dry_run() {
	run -0 --separate-stderr numactl2 "$@" --dry-run alloc -s 64M
	echo "$output"
	[ -z "$stderr" ] || return 1
	[ "$(global_weights)" = "1 1 1 1" ] || return 1
}

@test "--weights=auto --dry-run: the HMAT bandwidths, 8:4:2:1 and the kernel's 17:8:4:2" {
	auto_dry_run -w all --weights=auto
	[ "${lines[2]}" = "weights: 0:8 1:4 2:2 3:1" ]
	[ "${lines[4]}" = "bandwidth (MB/s, min of read and write, HMAT, from the job's CPUs): 0:204800 1:102400 2:51200 3:25600" ]
	[ "${lines[5]}" = "auto weights: 0:8 1:4 2:2 3:1 (sum 15, budget 32): modelled 384.0 GB/s, 100.0% of the nodes' 384.0 GB/s" ]
	[ "${lines[6]}" = "kernel auto weights: 0:17 1:8 2:4 3:2 (sum 31, budget 32): modelled 373.5 GB/s, 97.3% of the nodes' 384.0 GB/s" ]
}

@test "--weights=auto: 8:4:2:1 in the global table and the exact 4 KiB split in numa_maps" {
	run -0 --separate-stderr numactl2 -w all --weights=auto --keep-weights alloc -s 64M
	echo "$output"
	[[ ${stderr_lines[0]} == "numactl2: changed global interleave weights: node0 1->8, node1 1->4, node2 1->2"* ]] || return 1
	[ "$(global_weights)" = "8 4 2 1" ]
	assert_split "0 1 2 3" "8 4 2 1"
	assert_maps_match
	assert_policy "weighted interleave:0-3"
}

@test "--weights=auto on nodes 1-3: 4:2:1, node 0 untouched, exact split" {
	run -0 --separate-stderr numactl2 --interleave=1-3 --weights=auto --keep-weights alloc -s 64M
	echo "$output"
	[ "$(global_weights)" = "1 4 2 1" ]
	assert_split "1 2 3" "4 2 1"
	assert_maps_match
	assert_policy "weighted interleave:1-3"
}

@test "--weight-budget=12: 7:3:1:1, the best that sums to 12 or less, and its exact split" {
	auto_dry_run -w all --weights=auto --weight-budget=12
	[ "${lines[5]}" = "auto weights: 0:7 1:3 2:1 3:1 (sum 12, budget 12): modelled 307.2 GB/s, 80.0% of the nodes' 384.0 GB/s" ]
	run -0 --separate-stderr numactl2 -w all --weights=auto --weight-budget=12 --keep-weights alloc -s 64M
	echo "$output"
	[ "$(global_weights)" = "7 3 1 1" ]
	assert_split "0 1 2 3" "7 3 1 1"
	assert_maps_match
}

# auto_refused MESSAGE ARGS...: numactl2 ARGS alloc ... is refused with
# "numactl2: MESSAGE" (test/lib/refused.bash), the table unchanged.
auto_refused() {
	refused --unchanged global_weights "1 1 1 1" "numactl2: $1" numactl2 "${@:2}" alloc -s 64K
}

@test "--weights=auto, bad input: a budget below the node count or out of range, exit 1, nothing changed" {
	auto_refused "weight budget 3 is below the 4 nodes of the interleave set (each weight is at least 1)" \
		-w all --weights=auto --weight-budget=3
	auto_refused "weight budget 2 is below the 3 nodes of the interleave set (each weight is at least 1)" \
		-w 1-3 --weights=auto --weight-budget=2
	auto_refused "invalid weight budget '0' (1-255)" -w all --weights=auto --weight-budget=0
	auto_refused "invalid weight budget '256' (1-255)" -w all --weights=auto --weight-budget=256
	auto_refused "--weight-budget needs --weights=auto or --weights=measured" -w all --weights=0:2 --weight-budget=8
	auto_refused "--weights needs --weighted-interleave or --interleave" --membind=0-3 --weights=auto
}

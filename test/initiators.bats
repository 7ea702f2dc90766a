#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --weights=auto for the job's own CPUs (lib/bandwidth/initiators.c,
# autoweights.c) on the two-socket machine of test/vm's "sockets" guest,
# faked on the host (build/test/hmat_driver: the test build's NUMACTL2_SYSFS_NODE
# and NUMACTL2_ACPI_TABLES): nodes 0 and 1 with CPUs 0 and 1, CPU-less
# node 2 behind socket 0 and node 3 behind socket 1. From socket 0:
# 200/80/60/20 GB/s; sysfs (access1, the nearest initiator's) says
# 200/200/60/60 for every job. The guest checks the page split.

load helpers
load lib/twosockets

setup() {
	two_socket_machine "$BATS_TEST_TMPDIR"
}

# auto CPUNODES CPUS: the --dry-run lines for nodes 0-3 from those CPUs.
auto() {
	run -0 "$HMAT_DRIVER" auto 0,1,2,3 "$@"
	printf '%s\n' "${lines[@]}"
}

# line PREFIX: the line of $output that starts with PREFIX.
line() {
	printf '%s\n' "${lines[@]}" | grep -F -- "$1" | head -n 1
}

@test "socket 0 (--cpunodebind=0): its own bandwidths, 10:4:3:1, the model within its 360 GB/s" {
	auto 0 -
	[ "${lines[0]}" = "bandwidth (MB/s, min of read and write, HMAT, from the job's CPUs): 0:200000 1:80000 2:60000 3:20000" ]
	[ "${lines[1]}" = "auto weights: 0:10 1:4 2:3 3:1 (sum 18, budget 32): modelled 360.0 GB/s, 100.0% of the nodes' 360.0 GB/s" ]
	# The kernel's rule reads access1, the same for every job: 4:4:1:1 draws 56% here.
	[ "${lines[2]}" = "kernel auto weights: 0:4 1:4 2:1 3:1 (sum 10, budget 32): modelled 200.0 GB/s, 55.6% of the nodes' 360.0 GB/s" ]
	[ "$(line initiators)" = "initiators (the job's CPUs, from --cpunodebind): node 0 (1 CPU)" ]
	[ "$(line "bandwidth from")" = "bandwidth from: HMAT, from the job's initiators to each node (proximity domains to nodes by SRAT)" ]
	[ "$(line "local nodes")" = "local nodes (nearest to the job's CPUs, -w local): 0:10 2:3: modelled 260.0 GB/s of their 260.0 GB/s, beside 360.0 GB/s with all 4 nodes" ]
}

@test "socket 1 (--physcpubind=1): the mirror image" {
	auto - 1
	[ "${lines[1]}" = "auto weights: 0:4 1:10 2:1 3:3 (sum 18, budget 32): modelled 360.0 GB/s, 100.0% of the nodes' 360.0 GB/s" ]
	[ "$(line initiators)" = "initiators (the job's CPUs, from --physcpubind): node 1 (1 CPU)" ]
	[ "$(line "local nodes")" = "local nodes (nearest to the job's CPUs, -w local): 1:10 3:3: modelled 260.0 GB/s of their 260.0 GB/s, beside 360.0 GB/s with all 4 nodes" ]
}

@test "a job on both sockets: each node's bandwidth by the share of its CPUs on each" {
	auto 0,1 -
	[ "${lines[0]}" = "bandwidth (MB/s, min of read and write, HMAT, from the job's CPUs): 0:140000 1:140000 2:40000 3:40000" ]
	[ "${lines[1]}" = "auto weights: 0:7 1:7 2:2 3:2 (sum 18, budget 32): modelled 360.0 GB/s, 100.0% of the nodes' 360.0 GB/s" ]
	[ "$(line initiators)" = "initiators (the job's CPUs, from --cpunodebind): node 0 (1 CPU), node 1 (1 CPU): each node's bandwidth from them, by their share of the CPUs" ]
	# Every node is local to one of its sockets: no line for fewer.
	[ -z "$(line "local nodes")" ]
}

@test "no binding: the CPUs of its affinity" {
	run -0 taskset -c 1 "$HMAT_DRIVER" auto 0,1,2,3 - -
	[ "${lines[1]}" = "auto weights: 0:4 1:10 2:1 3:3 (sum 18, budget 32): modelled 360.0 GB/s, 100.0% of the nodes' 360.0 GB/s" ]
	[ "$(line initiators)" = "initiators (the job's CPUs, from its affinity now): node 1 (1 CPU)" ]
}

@test "HMAT unreadable: sysfs scaled by SLIT distance, the approximation said" {
	rm "$NUMACTL2_ACPI_TABLES/HMAT"
	auto 0 -
	# 200 * 10/20, 60 * 14/28: the SLIT's guess of 100/30 where HMAT says 80/20.
	[ "${lines[0]}" = "bandwidth (MB/s, min of read and write, HMAT access1): 0:200000 1:100000 (approximated) 2:60000 3:30000 (approximated)" ]
	[ "$(line "bandwidth from")" = "bandwidth from: sysfs access1 or access0, the nearest initiator's (HMAT: No such file or directory); scaled by SLIT distance for the job's initiators that are not the nearest: an approximation (bandwidth taken as inverse to distance); --weights=measured measures from the job's CPUs" ]
}

@test "HMAT unreadable: no figure above what socket 0 can draw (360 GB/s), the worst case from its exact nodes" {
	rm "$NUMACTL2_ACPI_TABLES/HMAT"
	auto 0 -
	# The guess sums to 390 GB/s; nodes 0 and 2 are socket 0's own (access1 names it): exact.
	[ "${lines[1]}" = "auto weights: 0:20 1:10 2:6 3:3 (sum 39, chosen): approximated from SLIT distances: worst case 260.0 GB/s, from nodes 0,2 (exact for the job's CPUs) of their 260.0 GB/s" ]
	[ "${lines[2]}" = "kernel auto weights: 0:4 1:4 2:1 3:1 (sum 10, budget 32): approximated from SLIT distances: worst case 250.0 GB/s, from nodes 0,2 (exact for the job's CPUs) of their 260.0 GB/s" ]
	[ "${lines[3]}" = "auto weight sum 39: 100.0% of the approximated row; at 32: 98.9% (the smallest sum that reaches 99%)" ]
	[ "$(line "local nodes")" = "local nodes (nearest to the job's CPUs, -w local): 0:10 2:3: modelled 260.0 GB/s of their 260.0 GB/s, beside a worst case of 260.0 GB/s with all 4 nodes" ]
	# No "cannot help" line: which nodes cannot help is the guess's to say.
	[ -z "$(line "cannot help")" ]
	figures_at_most 360.0
	# Nodes 1 and 3 alone, from socket 0: neither is exact, so no figure at all.
	run -0 "$HMAT_DRIVER" auto 1,3 0 -
	[ "${lines[1]}" = "auto weights: 1:10 3:3 (sum 13, budget 32): approximated from SLIT distances: worst case not known (no node's figure is exact for the job's CPUs)" ]
	[[ $output != *GB/s* ]] || return 1
}

@test "HMAT unreadable: a run's notice as a value: why, the weights, and the worst case in --dry-run's words" {
	rm "$NUMACTL2_ACPI_TABLES/HMAT"
	run -0 "$HMAT_DRIVER" notice 0,1,2,3 0 -
	[ "${lines[1]}" = "auto weights: 0:20 1:10 2:6 3:3 (sum 39, chosen): approximated from SLIT distances: worst case 260.0 GB/s, from nodes 0,2 (exact for the job's CPUs) of their 260.0 GB/s" ]
	[ "$(line "notice:")" = "notice: HMAT: No such file or directory; weights 0:20,1:10,2:6,3:3; approximated from SLIT distances: worst case 260.0 GB/s, from nodes 0,2 (exact for the job's CPUs) of their 260.0 GB/s" ]
	# Without SLIT distances: from the nearest initiators' figures.
	rm "$NUMACTL2_SYSFS_NODE"/node*/distance
	run -0 "$HMAT_DRIVER" notice 0,1,2,3 1 -
	[ "$(line "notice:")" = "notice: HMAT: No such file or directory; weights 0:10,1:10,2:3,3:3; approximated from the nearest initiators' figures: worst case 260.0 GB/s, from nodes 1,3 (exact for the job's CPUs) of their 260.0 GB/s" ]
}

@test "HMAT read: the row is exact, no notice" {
	run -0 "$HMAT_DRIVER" notice 0,1,2,3 0 -
	[ "$(line "notice:")" = "notice: none" ]
}

@test "HMAT unreadable: a guess is never above the figure of the node's nearest initiator" {
	rm "$NUMACTL2_ACPI_TABLES/HMAT"
	# A SLIT that puts socket 0 nearer to node 3 (12) than node 3's own
	# initiator, node 1 (14): 60000 * 14/12 would be more than node 1 draws.
	echo "10 20 14 12" >"$NUMACTL2_SYSFS_NODE/node0/distance"
	auto 0 -
	[ "${lines[0]}" = "bandwidth (MB/s, min of read and write, HMAT access1): 0:200000 1:100000 (approximated) 2:60000 3:60000 (approximated)" ]
}

@test "HMAT unreadable, the job on the nodes' nearest initiator: sysfs as is" {
	rm "$NUMACTL2_ACPI_TABLES/HMAT"
	run -0 "$HMAT_DRIVER" auto 0,2 0 -
	[ "${lines[0]}" = "bandwidth (MB/s, min of read and write, HMAT access1): 0:200000 2:60000" ]
	[ "$(line "bandwidth from")" = "bandwidth from: sysfs access1 or access0, the nearest initiator's (HMAT: No such file or directory); the job runs on it: as the firmware gives it" ]
}

@test "HMAT unreadable and no distances: sysfs as is, and said to be so" {
	rm "$NUMACTL2_ACPI_TABLES/HMAT" "$NUMACTL2_SYSFS_NODE"/node*/distance
	auto 1 -
	[ "${lines[0]}" = "bandwidth (MB/s, min of read and write, HMAT access1): 0:200000 (approximated) 1:200000 2:60000 (approximated) 3:60000" ]
	[ "${lines[1]}" = "auto weights: 0:10 1:10 2:3 3:3 (sum 26, budget 32): approximated from the nearest initiators' figures: worst case 260.0 GB/s, from nodes 1,3 (exact for the job's CPUs) of their 260.0 GB/s" ]
	[ "$(line "bandwidth from")" = "bandwidth from: sysfs access1 or access0, the nearest initiator's (HMAT: No such file or directory); as is for the job's initiators that are not the nearest (no SLIT distances): an approximation that may promise more than they draw; --weights=measured measures from the job's CPUs" ]
}

@test "a malformed HMAT is not used: sysfs, and why" {
	python3 "$MKHMAT" "$NUMACTL2_ACPI_TABLES" --cpus 0,1 --mems 0,1,2,3 --bw 0:0=200000 --bad-checksum
	auto 0 -
	[[ $(line "bandwidth from") == "bandwidth from: sysfs access1 or access0, the nearest initiator's (HMAT: malformed); scaled by SLIT"* ]]
}

@test "HMAT without a pair the job needs: sysfs, and why" {
	python3 "$MKHMAT" "$NUMACTL2_ACPI_TABLES" --cpus 0,1 --mems 0,1,2,3 \
		--bw 0:0=200000 --bw 0:1=80000 --bw 0:2=60000 --bw 0:3=20000
	auto 0 -
	[ "$(line "bandwidth from")" = "bandwidth from: HMAT, from the job's initiators to each node (proximity domains to nodes by SRAT)" ]
	auto 1 -
	[[ $(line "bandwidth from") == "bandwidth from: sysfs access1 or access0, the nearest initiator's (HMAT: no bandwidth for every initiator and node); scaled by SLIT"* ]]
}

@test "HMAT's rows handed over (the weight-table service's part): root's weights, from the same function" {
	rm "$NUMACTL2_ACPI_TABLES/HMAT"
	local rows="0>0=200000,0>1=80000,0>2=60000,0>3=20000,1>0=80000,1>1=200000,1>2=20000,1>3=60000"
	run -0 "$HMAT_DRIVER" rows 0,1,2,3 0 - "$rows"
	printf '%s\n' "${lines[@]}"
	# Socket 0's lines as root gets them from HMAT itself (the first test).
	[ "${lines[0]}" = "bandwidth (MB/s, min of read and write, HMAT, from the job's CPUs): 0:200000 1:80000 2:60000 3:20000" ]
	[ "${lines[1]}" = "auto weights: 0:10 1:4 2:3 3:1 (sum 18, budget 32): modelled 360.0 GB/s, 100.0% of the nodes' 360.0 GB/s" ]
	[ "$(line "bandwidth from")" = "bandwidth from: HMAT, from the job's initiators to each node (proximity domains to nodes by SRAT)" ]
	# Both sockets: each node's by the share of the job's CPUs, as from HMAT.
	run -0 "$HMAT_DRIVER" rows 0,1,2,3 0,1 - "$rows"
	[ "${lines[1]}" = "auto weights: 0:7 1:7 2:2 3:2 (sum 18, budget 32): modelled 360.0 GB/s, 100.0% of the nodes' 360.0 GB/s" ]
	# Rows without socket 1's: a job there has no figure for node 0.
	run -1 "$HMAT_DRIVER" rows 0,1,2,3 1 - "0>0=200000,0>1=80000,0>2=60000,0>3=20000"
	[ "${lines[0]}" = "no bandwidth: node 0" ]
}

@test "-w local: the memory nodes nearest to the job's CPUs" {
	run -0 "$HMAT_DRIVER" local 0 -
	[ "$output" = "local: 0 2 " ]
	run -0 "$HMAT_DRIVER" local - 1
	[ "$output" = "local: 1 3 " ]
	run -0 "$HMAT_DRIVER" local 0,1 -
	[ "$output" = "local: 0 1 2 3 " ]
	# Without access1's initiators: the smallest SLIT distance from a CPU node.
	rm -r "$NUMACTL2_SYSFS_NODE"/node*/access1
	run -0 "$HMAT_DRIVER" local - 1
	[ "$output" = "local: 1 3 " ]
	# A node without memory is not picked.
	echo "Node 3 MemTotal:  0 kB" >"$NUMACTL2_SYSFS_NODE/node3/meminfo"
	run -0 "$HMAT_DRIVER" local - 1
	[ "$output" = "local: 1 " ]
}

#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# numactl2 itself on a faked machine (the test build's NUMACTL2_ACPI_TABLES
# and NUMACTL2_SYSFS_NODE): --hardware's HMAT matrix on the two-socket
# machine of test/vm's "sockets" guest, and -w local. hmat.bats and
# initiators.bats test the parsers and the model under them through
# build/test/hmat_driver; the tests here run numactl2, so the broken
# binaries of test/fakes must fail them (test/check-all fakes).

load helpers
load lib/twosockets

setup() { four_node_dirs; }

@test "--hardware shows the matrix where HMAT can be read, nothing where not" {
	two_sockets
	run -0 "$NUMACTL2" --hardware
	local at
	for at in "${!lines[@]}"; do
		[ "${lines[at]}" != "HMAT bandwidth (MB/s, min of read and write), initiator node to node:" ] || break
	done
	[ "${lines[at + 1]}" = "          0       1       2       3" ]
	[ "${lines[at + 2]}" = " 0:  200000   80000   60000   20000" ]
	[ "${lines[at + 3]}" = " 1:   80000  200000   20000   60000" ]
	[ "${lines[at + 4]}" = "HMAT latency (ns, max of read and write), initiator node to node:" ]
	[ "${lines[at + 6]}" = " 0:     100     200     150     250" ]
	rm "$NUMACTL2_ACPI_TABLES/HMAT"
	run -0 "$NUMACTL2" --hardware
	[[ $output != *HMAT* ]]
}

@test "numactl2 -w local: resolved once the CPUs are known; refused with --pid" {
	# The host has one node: a node directory where node 0 is the nearest.
	local nd=$BATS_TEST_TMPDIR/one
	mkdir -p "$nd/node0/access1/initiators/node0"
	cat /sys/devices/system/node/node0/cpulist >"$nd/node0/cpulist"
	echo "Node 0 MemTotal:  1048576 kB" >"$nd/node0/meminfo"
	NUMACTL2_SYSFS_NODE=$nd run -0 --separate-stderr "$NUMACTL2" -w local --cpunodebind=0 --dry-run true
	[ "${lines[1]}" = "nodes: 0 " ]
	NUMACTL2_SYSFS_NODE=$nd run -1 --separate-stderr "$NUMACTL2" -w local --pid=$$
	[ "${stderr_lines[0]}" = "numactl2: node list 'local' needs the job's own CPUs: not with --pid" ]
	rm "$nd/node0/meminfo"
	NUMACTL2_SYSFS_NODE=$nd run -1 --separate-stderr "$NUMACTL2" -w local true
	[ "$stderr" = "numactl2: node list 'local': no node with memory is nearest to the job's CPUs ($nd/nodeN/access1/initiators, or the distances)" ]
}

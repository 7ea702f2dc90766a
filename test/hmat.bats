#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The HMAT and SRAT parsers (lib/bandwidth/hmat.c, srat.c, acpitable.c) on
# tables test/lib/mkhmat.py writes, through build/test/hmat_driver (the test
# build's NUMACTL2_ACPI_TABLES and NUMACTL2_SYSFS_NODE): the two-socket
# machine of test/vm's "sockets" guest, other numberings, and hostile
# tables, each refused whole.

load helpers
load lib/twosockets

setup() { four_node_dirs; }

MATRIX="0>0 200000 100
0>1 80000 200
0>2 60000 150
0>3 20000 250
1>0 80000 200
1>1 200000 100
1>2 20000 250
1>3 60000 150"

@test "the two-socket matrix: every initiator to every node, bandwidth and latency" {
	two_sockets
	run -0 "$HMAT_DRIVER" matrix
	[ "${lines[0]}" = "srat yes" ]
	[ "$(printf '%s\n' "${lines[@]:1}")" = "$MATRIX" ]
}

@test "domains are numbered as the kernel numbers them from SRAT, not taken for nodes" {
	# Domains 10, 11, 5, 7: CPUs first (10, 11), then memory (5, 7).
	two_sockets --pd 0=10,1=11,2=5,3=7
	run -0 "$HMAT_DRIVER" matrix
	[ "${lines[0]}" = "srat yes" ]
	[ "$(printf '%s\n' "${lines[@]:1}")" = "$MATRIX" ]
	# Without SRAT, domain N is node N: node 0's domain 10 is taken for node 10.
	rm "$NUMACTL2_ACPI_TABLES/SRAT"
	run -0 "$HMAT_DRIVER" matrix
	[ "${lines[0]}" = "srat no" ]
	[ "${lines[1]}" = "10>5 60000 150" ]
}

@test "no SRAT, or one naming a node the system does not have: domain N is node N" {
	two_sockets --no-srat
	run -0 "$HMAT_DRIVER" matrix
	[ "${lines[0]}" = "srat no" ]
	[ "$(printf '%s\n' "${lines[@]:1}")" = "$MATRIX" ]
	rm -r "$NUMACTL2_SYSFS_NODE/node3"
	two_sockets
	run -0 "$HMAT_DRIVER" matrix
	[ "${lines[0]}" = "srat no" ]
}

@test "read and write bandwidth: the smaller; revision 1 in tenths" {
	python3 "$MKHMAT" "$NUMACTL2_ACPI_TABLES" --cpus 0 --mems 0,1 \
		--bw 0:0=200000/150000 --bw 0:1=30000/40000
	run -0 "$HMAT_DRIVER" matrix
	[ "$output" = "srat yes
0>0 150000 0
0>1 30000 0" ]
	python3 "$MKHMAT" "$NUMACTL2_ACPI_TABLES" --cpus 0 --mems 0 --revision 1 --bw 0:0=50000
	run -0 "$HMAT_DRIVER" matrix
	[ "$output" = "srat yes
0>0 5000 0" ]
}

# refused MESSAGE MKHMAT-OPTIONS...: the two-socket table so changed is not used at all.
refused() {
	two_sockets "${@:2}"
	run -1 "$HMAT_DRIVER" matrix
	[ "$output" = "error: $1" ]
}

@test "hostile tables: truncated, lengths that lie, huge counts, a bad checksum, too large" {
	refused "Bad message" --truncate 100
	refused "Bad message" --truncate 20
	refused "Bad message" --length 100000
	refused "Bad message" --length 20
	refused "Bad message" --init-count 4294967295
	refused "Bad message" --init-count 40000
	refused "Bad message" --struct-length 4294967295
	refused "Bad message" --struct-length 4
	refused "Bad message" --struct-length 33
	refused "Bad message" --bad-checksum
	refused "File too large" --pad 1048576
	: >"$NUMACTL2_ACPI_TABLES/HMAT"
	run -1 "$HMAT_DRIVER" matrix
	[ "$output" = "error: Bad message" ]
	rm "$NUMACTL2_ACPI_TABLES/HMAT"
	run -1 "$HMAT_DRIVER" matrix
	[ "$output" = "error: No such file or directory" ]
}

@test "bytes past the table's own length are not read; a fitting table still parses" {
	two_sockets --pad 4096
	run -0 "$HMAT_DRIVER" matrix
	[ "$(printf '%s\n' "${lines[@]:1}")" = "$MATRIX" ]
}

@test "a table not readable (not root) is refused with its errno" {
	command -v setpriv >/dev/null || skip "needs setpriv"
	local dir
	dir=$(mktemp -d /tmp/numactl2-hmat.XXXXXX)
	chmod 755 "$dir"
	NUMACTL2_ACPI_TABLES=$dir two_sockets
	chmod 400 "$dir/HMAT"
	NUMACTL2_ACPI_TABLES=$dir run -1 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$HMAT_DRIVER" matrix
	rm -r "$dir"
	[ "$output" = "error: Permission denied" ]
}

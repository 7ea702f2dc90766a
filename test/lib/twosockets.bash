# SPDX-License-Identifier: GPL-2.0-or-later
# The two-socket machine of test/vm's "sockets" guest, as ACPI tables
# (test/lib/mkhmat.py) for the test build's NUMACTL2_ACPI_TABLES.

MKHMAT=$BATS_TEST_DIRNAME/lib/mkhmat.py

# four_node_dirs: empty ACPI tables and node directories 0-3 of the test's
# own, for the test build to read instead of the host's.
four_node_dirs() {
	local n
	export NUMACTL2_ACPI_TABLES=$BATS_TEST_TMPDIR/acpi
	export NUMACTL2_SYSFS_NODE=$BATS_TEST_TMPDIR/node
	for n in 0 1 2 3; do
		mkdir -p "$NUMACTL2_SYSFS_NODE/node$n"
	done
}

# two_sockets [MKHMAT OPTIONS...]: nodes 0 and 1 with a CPU each, 2 behind
# socket 0 and 3 behind socket 1: 200/80 GB/s to local/remote DRAM, 60/20
# to local/remote CXL, 100/200/150/250 ns.
two_sockets() {
	python3 "$MKHMAT" "$NUMACTL2_ACPI_TABLES" --cpus 0,1 --mems 0,1,2,3 \
		--bw 0:0=200000 --bw 0:1=80000 --bw 0:2=60000 --bw 0:3=20000 \
		--bw 1:0=80000 --bw 1:1=200000 --bw 1:2=20000 --bw 1:3=60000 \
		--lat 0:0=100 --lat 0:1=200 --lat 0:2=150 --lat 0:3=250 \
		--lat 1:0=200 --lat 1:1=100 --lat 1:2=250 --lat 1:3=150 "$@"
}


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

# two_socket_machine DIR: that machine in DIR (exported as the test build's
# NUMACTL2_ACPI_TABLES and NUMACTL2_SYSFS_NODE): sysfs's access1 gives the
# nearest initiator's 200/200/60/60 GB/s to every job, SLIT local 10,
# remote DRAM 20, local CXL 14, remote CXL 28, and HMAT each socket's row.
two_socket_machine() {
	export NUMACTL2_ACPI_TABLES=$1/acpi
	export NUMACTL2_SYSFS_NODE=$1/node
	local n near bw d
	for n in 0 1 2 3; do
		near=$((n % 2)) bw=$((n < 2 ? 200000 : 60000))
		d=$NUMACTL2_SYSFS_NODE/node$n
		mkdir -p "$d/access1/initiators/node$near"
		echo "$bw" >"$d/access1/initiators/read_bandwidth"
		echo "$bw" >"$d/access1/initiators/write_bandwidth"
		echo "Node $n MemTotal:  1048576 kB" >"$d/meminfo"
		: >"$d/cpulist"
	done
	echo 0 >"$NUMACTL2_SYSFS_NODE/node0/cpulist"
	echo 1 >"$NUMACTL2_SYSFS_NODE/node1/cpulist"
	echo "10 20 14 28" >"$NUMACTL2_SYSFS_NODE/node0/distance"
	echo "20 10 28 14" >"$NUMACTL2_SYSFS_NODE/node1/distance"
	echo "14 28 10 28" >"$NUMACTL2_SYSFS_NODE/node2/distance"
	echo "28 14 28 10" >"$NUMACTL2_SYSFS_NODE/node3/distance"
	python3 "$MKHMAT" "$NUMACTL2_ACPI_TABLES" --cpus 0,1 --mems 0,1,2,3 \
		--bw 0:0=200000 --bw 0:1=80000 --bw 0:2=60000 --bw 0:3=20000 \
		--bw 1:0=80000 --bw 1:1=200000 --bw 1:2=20000 --bw 1:3=60000
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


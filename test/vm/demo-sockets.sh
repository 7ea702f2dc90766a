#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The two-socket demo, inside the guest (run.sh -T sockets): a job on socket
# 0 gets --weights=auto from its own socket's HMAT row, where the kernel's
# auto rule reads access1 (each node's nearest initiator only). The triad's
# split and the throughput socket 0's row predicts, under the kernel's rule,
# --weights=auto and -w local --weights=auto; then socket 1's weights.
set -uo pipefail

mib=${DEMO_MIB:-64}

# The split, bars and prediction both demos draw.
. "${BASH_SOURCE[0]%/*}/lib/demo.bash"

# dry_run SOCKET ARGS...: the --dry-run of --weights=auto for a job there.
dry_run() {
	local s=$1
	shift
	echo "+ numactl2 --cpunodebind=$s $* --weights=auto --dry-run triad"
	numactl2 --cpunodebind="$s" "$@" --weights=auto --dry-run triad
}

# The dry-run's bandwidth line, "bandwidth (...): 0:204800 1:81920 ..." ->
# "204800 81920 ...": the row of the job's initiators, node order.
bw_row() { sed -n 's/^bandwidth (MB\/s[^:]*: //p' | tr ' ' '\n' | cut -d: -f2 | paste -sd' ' -; }

echo never >/sys/kernel/mm/transparent_hugepage/enabled
dry=$(dry_run 0 -w all) || { echo "demo: --weights=auto failed on socket 0"; exit 1; }
echo "$dry"
read -r -a bw <<<"$(printf '%s\n' "$dry" | bw_row)"
[ ${#bw[@]} -eq 4 ] || { echo "demo: no bandwidth row for socket 0 in the dry-run"; exit 1; }
sum_gbs=$(bw_sum_gbs)
auto=$(printf '%s\n' "$dry" | weight_list weights)
kernel=$(printf '%s\n' "$dry" | weight_list "kernel auto weights")
echo
echo "demo: the bars and predictions below use socket 0's row (MB/s): ${bw[*]}"
echo

runone "the kernel's auto rule (access1), $kernel" --cpunodebind=0 -w all --weights="$kernel"
runone "numactl2 --weights=auto, $auto" --cpunodebind=0 -w all --weights=auto
runone "-w local --weights=auto (nodes 0, 2)" --cpunodebind=0 -w local --weights=auto

table
echo "demo: the same job on socket 1:"
dry_run 1 -w all | grep -E '^(\+ |initiators \(|bandwidth \(|auto weights:)' || status=1
echo
cat <<'EOF'
Socket 0 draws 200 GB/s from its DRAM (node 0), 80 from socket 1's, 60 from
its CXL (node 2) and 20 from socket 1's (node 3): --weights=auto reads that
row for the job's CPUs and spreads the pages in its proportion. The kernel's
auto rule reads access1, which keeps only each node's nearest initiator
(200/200/60/60 as if every node were local), so it gives socket 1's DRAM and
CXL as much as socket 0's own, and the remote nodes cap the triad. -w local
keeps the job on its socket's nodes (0 and 2) and leaves socket 1's to its
own jobs. Socket 1 mirrors socket 0 (4:10:1:3).

The prediction is the model numactl2 optimises: a node holding a share s of
the pages, with bandwidth B, limits the whole to B / s, from the pages'
actual split (numa_maps above). No run times: under QEMU TCG every guest
node is the same host RAM.
EOF
exit $status

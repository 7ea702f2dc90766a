#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The demo, inside the guest: a STREAM-like triad under four policies, where
# its pages went (a bar per node, from numa_maps), and the throughput the
# guest's HMAT bandwidths predict for that split.
# Argument: the user's weights, a --weights LIST (e.g. 0:1,1:3).
set -uo pipefail

user=${1:-0:1,1:3}
mib=${DEMO_MIB:-64}
node_sys=/sys/devices/system/node
nodes=(0 1 2 3)

# The bandwidth numactl2 and the kernel use: min(read, write) of access1, MB/s.
hmat_bw() {
	local r w
	r=$(cat "$node_sys/node$1/access1/initiators/read_bandwidth" 2>/dev/null) || return 1
	w=$(cat "$node_sys/node$1/access1/initiators/write_bandwidth" 2>/dev/null) || return 1
	echo $((r < w ? r : w))
}

# The split, bars and prediction both demos draw.
. "${BASH_SOURCE[0]%/*}/lib/demo.bash"

echo never >/sys/kernel/mm/transparent_hugepage/enabled
bw=()
for n in "${nodes[@]}"; do
	b=$(hmat_bw "$n") || { echo "demo: no HMAT bandwidth for node $n in this guest"; exit 1; }
	bw+=("$b")
done
sum_gbs=$(bw_sum_gbs)
echo "demo: the guest's HMAT, min(read, write) bandwidth from node 0 (access1):"
for n in "${nodes[@]}"; do printf '  node %d: %6d MB/s\n' "$n" "${bw[n]}"; done
echo "  (QEMU's 200G is 200 GiB/s, which sysfs gives as 204800 \"MB/s\": 384 GB/s in all)"
echo
echo "+ numactl2 -w all --weights=auto --dry-run triad"
dry=$(numactl2 -w all --weights=auto --dry-run triad) || { echo "demo: --weights=auto failed"; exit 1; }
echo "$dry"
auto=$(printf '%s\n' "$dry" | weight_list weights)
kernel=$(printf '%s\n' "$dry" | weight_list "kernel auto weights")
echo

runone "default interleave (-i all), 1:1:1:1" -i all
runone "the kernel's auto rule (6.16+), $kernel" -w all --weights="$kernel"
runone "numactl2 --weights=auto, $auto" -w all --weights=auto
runone "your weights, $user" -w "$(list_nodes "$user")" --weights="$user"

table
cat <<'EOF'
The prediction is the model numactl2 optimises: the triad streams over all of
its pages, so a node holding a share s of them, with bandwidth B, limits the
whole to B / s. It is computed from the pages' actual split (numa_maps above).
The kernel's auto rule is computed by numactl2 (--dry-run's kernel auto
weights), with the formula of the kernel's auto mode (6.16+: mm/mempolicy.c,
reduce_interleave_weights).

No run times are shown: the guest runs under QEMU TCG, where every guest node
is the same host RAM, so a triad's time measures the emulator, not the
placement (weights used to look slower than -i all here for that reason).
EOF
exit $status

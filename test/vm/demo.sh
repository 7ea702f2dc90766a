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

# The node set a weight list names: "0:1,1-3:2" -> "0,1-3".
list_nodes() { printf '%s\n' "$1" | tr ',' '\n' | cut -d: -f1 | paste -sd, -; }

# "weights: 0:8 1:4" or "kernel auto weights: 0:17 ... (sum" -> "0:8,1:4".
weight_list() { sed -n "s/^$1: \([0-9: ]*\).*/\1/p" | sed 's/ *$//; s/ /,/g'; }

# The numa_maps reader the suites use (test/lib, /vmtest/lib in the guest).
. "${BASH_SOURCE[0]%/*}/lib/numa_maps.bash"

# The N<nid>=<pages> of the numa_maps lines ("numa_maps: ...") summed per
# node, as "P0 P1 P2 P3".
split_of() {
	local maps
	maps=$(sed -n 's/^numa_maps: //p' | numa_maps_read) || return 1
	printf '%s\n' "$maps" | awk -F '\t' '
		{
			n = split($4, t, " ")
			for (i = 1; i <= n; i++) { split(substr(t[i], 2), kv, "="); c[kv[1]] += kv[2] }
		}
		END { print c[0] + 0, c[1] + 0, c[2] + 0, c[3] + 0 }'
}

# predict "P0 P1 P2 P3": the triad streams over all its pages, so node i
# serves share_i of the traffic and caps the whole at bw_i / share_i; the
# lowest cap is the throughput (GB/s = 1000 MB/s).
predict() {
	awk -v p="$1" -v b="${bw[*]}" 'BEGIN {
		split(p, pg, " "); split(b, bw, " ")
		for (i = 1; i <= 4; i++) total += pg[i]
		t = -1
		for (i = 1; i <= 4; i++)
			if (pg[i] > 0 && (t < 0 || bw[i] * total / pg[i] < t)) t = bw[i] * total / pg[i]
		printf "%.1f", t / 1000
	}'
}

# bars "P0 P1 P2 P3": a bar of 50 columns per node for its share of the pages.
bars() {
	awk -v p="$1" -v b="${bw[*]}" 'BEGIN {
		split(p, pg, " "); split(b, bw, " ")
		for (i = 1; i <= 4; i++) total += pg[i]
		for (i = 1; i <= 4; i++) {
			share = total ? pg[i] / total : 0
			bar = ""
			for (k = 0; k < int(share * 50 + 0.5); k++) bar = bar "#"
			printf "    node %d %6.1f GB/s |%-50s| %5.1f%% %6d pages\n", i - 1, bw[i] / 1000, bar, 100 * share, pg[i]
		}
	}'
}

echo never >/sys/kernel/mm/transparent_hugepage/enabled
bw=()
for n in "${nodes[@]}"; do
	b=$(hmat_bw "$n") || { echo "demo: no HMAT bandwidth for node $n in this guest"; exit 1; }
	bw+=("$b")
done
sum_gbs=$(awk -v b="${bw[*]}" 'BEGIN { n = split(b, x, " "); for (i = 1; i <= n; i++) s += x[i]; printf "%.1f", s / 1000 }')
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

rows=()
status=0
# runone LABEL ARGS...: the triad under numactl2 ARGS, its split and prediction.
runone() {
	local label=$1 out split t
	shift
	echo "+ numactl2 $* triad $mib 1"
	if ! out=$(numactl2 "$@" triad "$mib" 1 2>&1); then
		echo "$out"
		echo "demo: '$label' failed"
		status=1
		return
	fi
	if ! split=$(printf '%s\n' "$out" | split_of); then
		echo "$out"
		echo "demo: '$label': a numa_maps line that numa_maps_read cannot read"
		status=1
		return
	fi
	t=$(predict "$split")
	echo "  $label"
	bars "$split"
	echo "    predicted: $t GB/s of the $sum_gbs GB/s the four nodes have"
	echo
	rows+=("$(printf '%-50s %8s GB/s %6.1f%%' "$label" "$t" "$(awk -v t="$t" -v s="$sum_gbs" 'BEGIN { print 100 * t / s }')")")
	numactl2 --reset-global-weights >/dev/null 2>&1
}

runone "default interleave (-i all), 1:1:1:1" -i all
runone "the kernel's auto rule (6.16+), $kernel" -w all --weights="$kernel"
runone "numactl2 --weights=auto, $auto" -w all --weights=auto
runone "your weights, $user" -w "$(list_nodes "$user")" --weights="$user"

printf '%-50s %13s %7s\n' policy predicted share
for r in "${rows[@]}"; do echo "$r"; done
echo
cat <<'EOF'
The prediction is the model numactl2 optimises: the triad streams over all of
its pages, so a node holding a share s of them, with bandwidth B, limits the
whole to B / s. It is computed from the pages' actual split (numa_maps above).
The kernel's auto rule is computed, not read: this 6.12 guest predates the
kernel's auto mode (6.16), so its weights come from the same formula
(mm/mempolicy.c, reduce_interleave_weights).

No run times are shown: the guest runs under QEMU TCG, where every guest node
is the same host RAM, so a triad's time measures the emulator, not the
placement (weights used to look slower than -i all here for that reason).
EOF
exit $status

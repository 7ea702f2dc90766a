#!/bin/bash
# The demo, inside the guest: a STREAM-like triad three ways, and where its
# pages went.  Argument: the user's weights, a --weights LIST (e.g. 0:1,1:3).
set -uo pipefail

user=${1:-0:1,1:3}
mib=${DEMO_MIB:-64}
reps=${DEMO_REPS:-3}
node_sys=/sys/devices/system/node

gcd() { local a=$1 b=$2 t; while [ "$b" -ne 0 ]; do t=$((a % b)); a=$b; b=$t; done; echo "$a"; }

# Weights proportional to each node's read bandwidth from its nearest CPU
# (access1), reduced by their gcd and, if still above 255, scaled down.
hmat_weights() {
	local n bw=() nodes=() g=0 max=0 w list=
	for n in $(seq 0 63); do
		[ -r "$node_sys/node$n/access1/initiators/read_bandwidth" ] || continue
		nodes+=("$n")
		bw+=("$(cat "$node_sys/node$n/access1/initiators/read_bandwidth")")
	done
	[ ${#nodes[@]} -gt 0 ] || return 1
	for w in "${bw[@]}"; do g=$(gcd "$w" "$g"); done
	for w in "${bw[@]}"; do [ $((w / g)) -gt "$max" ] && max=$((w / g)); done
	for n in "${!nodes[@]}"; do
		w=$((bw[n] / g))
		[ "$max" -gt 255 ] && w=$(((w * 255 + max / 2) / max)) && [ "$w" -lt 1 ] && w=1
		list+="${list:+,}${nodes[n]}:$w"
	done
	echo "$list"
}

# The node set a weight list names: "0:1,1-3:2" -> "0,1-3".
list_nodes() { printf '%s\n' "$1" | tr ',' '\n' | cut -d: -f1 | paste -sd, -; }

# Sum the N<nid>= tokens of the numa_maps line and print percentages.
placement() {
	awk '/^numa_maps:/ {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^N[0-9]+=/) { split(substr($i, 2), kv, "="); c[kv[1]] += kv[2]; t += kv[2] }
	}
	END { for (n = 0; n < 4; n++) printf " %6.1f%%", t ? 100 * c[n] / t : 0 }'
}

echo 'demo: THP is off in the guest so that pages are counted one by one'
echo never >/sys/kernel/mm/transparent_hugepage/enabled
echo 'demo: HMAT read bandwidth from node 0 (access1), MB/s:'
for n in 0 1 2 3; do
	printf '  node %d: %s\n' "$n" "$(cat $node_sys/node$n/access1/initiators/read_bandwidth 2>/dev/null || echo none)"
done
hmat=$(hmat_weights) || { echo "demo: no HMAT bandwidth in this guest"; exit 1; }
echo "demo: weights from HMAT bandwidth: $hmat"
echo "demo: user weights: $user"
echo "demo: triad over 3 x $mib MiB, best of $reps"
echo

rows=()
status=0
runone() {
	local label=$1 out
	shift
	echo "+ numactl2 $* triad $mib $reps"
	if ! out=$(numactl2 "$@" triad "$mib" "$reps" 2>&1); then
		echo "$out"
		echo "demo: '$label' failed"
		status=1
		return
	fi
	echo "$out"
	rows+=("$(printf '%-34s%s %9s' "$label" "$(printf '%s\n' "$out" | placement)" \
		"$(printf '%s\n' "$out" | sed -n 's/.*: \([0-9.]* s\), .*/\1/p')")")
}

runone "default interleave (-i all)" -i all
runone "HMAT weights $hmat" -w all --weights="$hmat"
runone "user weights $user" -w "$(list_nodes "$user")" --weights="$user"
numactl2 --reset-global-weights >/dev/null 2>&1

echo
printf '%-34s %7s %7s %7s %7s %9s\n' "policy" N0 N1 N2 N3 "time"
for r in "${rows[@]}"; do echo "$r"; done
echo
echo 'Note: the guest runs under QEMU TCG (software emulation), so the triad time'
echo 'says nothing about memory bandwidth: all guest nodes are the same host RAM.'
echo 'The page placement is what the demo shows; on real tiered memory, weights'
echo 'matched to bandwidth (here 8:4:2:1) keep every tier busy in proportion.'
exit $status

# SPDX-License-Identifier: GPL-2.0-or-later
# What both demos (demo.sh, demo-sockets.sh) draw, inside the guest: a
# triad's page split per node as bars and the throughput a bandwidth row
# predicts for it. The callers set bw (MB/s per node 0-3, the row the job's
# CPUs see), sum_gbs and mib; runone fills rows and status.

# The numa_maps reader the suites use (test/lib, /vmtest/lib in the guest).
. "${BASH_SOURCE[0]%/*}/numa_maps.bash"

rows=()
status=0

# The node set a weight list names: "0:1,1-3:2" -> "0,1-3".
list_nodes() { printf '%s\n' "$1" | tr ',' '\n' | cut -d: -f1 | paste -sd, -; }

# "weights: 0:8 1:4" or "kernel auto weights: 0:17 ... (sum" -> "0:8,1:4".
weight_list() { sed -n "s/^$1: \([0-9: ]*\).*/\1/p" | sed 's/ *$//; s/ /,/g'; }

# The sum of the bw row, GB/s (1000 MB/s).
bw_sum_gbs() { awk -v b="${bw[*]}" 'BEGIN { n = split(b, x, " "); for (i = 1; i <= n; i++) s += x[i]; printf "%.1f", s / 1000 }'; }

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

# failed LABEL WHY OUTPUT: report a run that gave no split.
failed() {
	echo "$3"
	echo "demo: '$1': $2"
	status=1
}

# runone LABEL ARGS...: the triad under numactl2 ARGS, its split and prediction.
runone() {
	local label=$1 out split t
	shift
	echo "+ numactl2 $* triad $mib 1"
	out=$(numactl2 "$@" triad "$mib" 1 2>&1) || { failed "$label" failed "$out"; return; }
	split=$(printf '%s\n' "$out" | split_of) ||
		{ failed "$label" "a numa_maps line that numa_maps_read cannot read" "$out"; return; }
	t=$(predict "$split")
	echo "  $label"
	bars "$split"
	echo "    predicted: $t GB/s of the $sum_gbs GB/s the four nodes have"
	echo
	rows+=("$(printf '%-50s %8s GB/s %6.1f%%' "$label" "$t" "$(awk -v t="$t" -v s="$sum_gbs" 'BEGIN { print 100 * t / s }')")")
	numactl2 --reset-global-weights >/dev/null 2>&1
}

# The closing table of runone's rows.
table() {
	printf '%-50s %13s %7s\n' policy predicted share
	printf '%s\n' "${rows[@]}"
	echo
}

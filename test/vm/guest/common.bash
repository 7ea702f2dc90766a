# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the guest suites.  The guest has four nodes: node 0 with the two
# CPUs and 1 GiB, nodes 1-3 memory only with 512 MiB each.
#
# alloc (test/vm/alloc.c) prints, per region:
#   region=A kind=mmap addr=0x.. pages=16384 ilx=34359 hilx=67
#   nodes: N0=10240 N1=4096 N2=2048
#   numa_maps: 7f3f2c000000 weighted interleave:0-2 anon=16384 ... N0=10240 ...
#   huge: 15872          (pages of the VMA in PMD-mapped huge folios)
#
# Every assert_* ends in "|| return 1" at each check: the function fails on
# its own whether or not the caller runs under set -e (bats' run does not),
# and the self-test (test/guest-helpers.bats) shows each check can fail.

bats_require_minimum_version 1.5.0

# The helpers the host suites share (numa_maps, refused, lease holders):
# test/lib, which the initramfs puts next to this file (/vmtest/lib).
nm2_lib=${BASH_SOURCE[0]%/*}/lib
[ -d "$nm2_lib" ] || nm2_lib=${BASH_SOURCE[0]%/*}/../../lib
for nm2_lib in "$nm2_lib"/*.bash; do
	source "$nm2_lib"
done
unset nm2_lib

WI=/sys/kernel/mm/mempolicy/weighted_interleave
THP=/sys/kernel/mm/transparent_hugepage/enabled

# Put every global weight back to 1.  numactl2 first; sysfs as a fallback
# so that one broken option cannot poison the tests after it.
reset_weights() {
	[ -d "$WI" ] || return 0
	numactl2 --reset-global-weights 2>/dev/null && return 0
	local f
	for f in "$WI"/node*; do echo 1 >"$f"; done
}

# The global weights as "W0 W1 W2 W3".
global_weights() {
	local n out=
	for n in 0 1 2 3; do out+="${out:+ }$(cat "$WI/node$n")"; done
	echo "$out"
}

thp() { echo "$1" >"$THP"; }

# wait_for_weights "W0 W1 W2 W3": until the global table is that, for
# wait_until's bound: a job's watcher puts the table back after the job's
# end, not with it.
wait_for_weights() {
	wait_until weights_are "$1" && return 0
	echo "global weights: $(global_weights), not $1"
	return 1
}
weights_are() { [ "$(global_weights)" = "$1" ]; }

# The line of $output (or of file $2) that follows the header of region $1.
region_header() { printf '%s\n' "${2:-$output}" | grep -m1 "^region=$1 "; }
region_line() {		# region_line A nodes|numa_maps
	printf '%s\n' "${3:-$output}" | awk -v r="$1" -v want="$2:" '
		$1 == "region=" r { found = 1; next }
		found && $1 == want { sub(/^[^:]*: ?/, ""); print; exit }'
}
region_field() {	# region_field A pages
	region_header "$1" "${3:-}" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# The N<nid>=<pages> tokens of a line, sorted by node: "N0=5 N2=7".
node_tokens() {
	printf '%s\n' "$1" | tr ' ' '\n' | grep -E '^N[0-9]+=[0-9]+$' | sort -t= -k1.2n | tr '\n' ' ' | sed 's/ $//'
}

# expected_split "NODES" "WEIGHTS" ILX UNITS UNITPAGES
# The kernel's weighted round robin (mm/mempolicy.c weighted_interleave_nid):
# unit i (a page, or a folio of UNITPAGES pages) goes to the node whose weight
# slot holds (ILX + i) mod (sum of weights), nodes in ascending order.
expected_split() {
	awk -v nodes="$1" -v weights="$2" -v ilx="$3" -v units="$4" -v up="$5" 'BEGIN {
		n = split(nodes, nd, " "); split(weights, w, " ")
		total = 0
		for (i = 1; i <= n; i++) total += w[i]
		full = int(units / total); rem = units % total; phase = ilx % total
		for (i = 1; i <= n; i++) cnt[i] = full * w[i]
		for (j = 0; j < rem; j++) {
			r = (phase + j) % total
			for (i = 1; i <= n; i++) { if (r < w[i]) break; r -= w[i] }
			cnt[i]++
		}
		out = ""
		for (i = 1; i <= n; i++)
			if (cnt[i]) out = out (out == "" ? "" : " ") "N" nd[i] "=" cnt[i] * up
		print out
	}'
}

# pages_of REGION: the region's page count; fails unless a positive number.
pages_of() {
	local pages
	pages=$(region_field "$1" pages)
	[[ $pages =~ ^[0-9]+$ ]] || return 1
	[ "$pages" -gt 0 ] || return 1
	echo "$pages"
}

# assert_split "NODES" "WEIGHTS" [REGION]: with 4 KiB pages, the region's
# per-node pages are exactly the weighted round robin's.
assert_split() {
	local region=${3:-A} pages ilx want got
	echo "region $region: nodes $1 weights $2"
	pages=$(pages_of "$region") || return 1
	ilx=$(region_field "$region" ilx)
	[[ $ilx =~ ^[0-9]+$ ]] || return 1
	want=$(expected_split "$1" "$2" "$ilx" "$pages" 1)
	got=$(node_tokens "$(region_line "$region" nodes)")
	echo "  pages=$pages ilx=$ilx"
	echo "  want: $want"
	echo "  got:  $got"
	[ -n "$want" ] || return 1
	[ "$got" = "$want" ] || return 1
}

# assert_split_huge "NODES" "WEIGHTS" [REGION]: the region is in 2 MiB
# folios (all but the two partly covered at its ends), no page is outside
# NODES, and every node is within one huge page (512 pages) of the folio
# round robin's count.
assert_split_huge() {
	local region=${3:-A} pages hilx huge want got n w g t
	echo "region $region (THP): nodes $1 weights $2"
	pages=$(pages_of "$region") || return 1
	hilx=$(region_field "$region" hilx)
	[[ $hilx =~ ^[0-9]+$ ]] || return 1
	huge=$(region_line "$region" huge)
	want=$(expected_split "$1" "$2" "$hilx" $((pages / 512)) 512)
	got=$(node_tokens "$(region_line "$region" nodes)")
	echo "  pages=$pages hilx=$hilx in huge folios: ${huge:-none}"
	echo "  want: $want (+-512 per node)"
	echo "  got:  $got"
	[[ $huge =~ ^[0-9]+$ ]] || return 1
	[ "$huge" -ge $((pages - 1024)) ] || return 1
	[ -n "$want" ] || return 1
	[ "$(sum_tokens "$got")" -eq "$pages" ] || return 1
	for t in $got; do
		n=${t%%=*}
		[[ " $1 " == *" ${n#N} "* ]] || return 1
	done
	for n in $1; do
		w=$(token "$want" "$n")
		g=$(token "$got" "$n")
		[ $((g - w)) -le 512 ] || return 1
		[ $((w - g)) -le 512 ] || return 1
	done
}

# token "N0=5 N1=7" 1 -> 7 (0 when the node is absent)
token() {
	local t
	for t in $1; do
		[ "${t%%=*}" = "N$2" ] && { echo "${t#*=}"; return; }
	done
	echo 0
}

sum_tokens() {
	local t s=0
	for t in $1; do s=$((s + ${t#*=})); done
	echo "$s"
}

# assert_all_on NODES [REGION]: every page of the region is on NODES.
assert_all_on() {
	local region=${2:-A} pages got n s=0
	echo "region $region: want every page on nodes $1"
	pages=$(pages_of "$region") || return 1
	got=$(node_tokens "$(region_line "$region" nodes)")
	echo "  pages=$pages got: $got"
	for n in $1; do s=$((s + $(token "$got" "$n"))); done
	[ "$s" -eq "$pages" ] || return 1
	[ "$(sum_tokens "$got")" -eq "$pages" ] || return 1
}

# assert_policy TEXT [REGION]: the policy of the region's VMA in numa_maps
# is TEXT.
assert_policy() {
	local line policy
	line=$(region_line "${2:-A}" numa_maps)
	echo "numa_maps: $line"
	echo "want policy: $1"
	policy=$(numa_maps_policy "$line") || return 1
	echo "policy: $policy"
	[ "$policy" = "$1" ] || return 1
}

# assert_maps_match [REGION]: numa_maps' N<nid> counts equal alloc's own
# (for a VMA that holds only the region).
assert_maps_match() {
	local region=${1:-A} a b
	a=$(node_tokens "$(region_line "$region" nodes)")
	b=$(numa_maps_nodes "$(region_line "$region" numa_maps)") || return 1
	b=$(node_tokens "$b")
	echo "alloc: $a  numa_maps: $b"
	[ -n "$a" ] || return 1
	[ "$a" = "$b" ] || return 1
}

# compact "0 1 2 5" -> "0-2,5", the kernel's node list format.
compact() {
	printf '%s\n' $1 | awk '
		function flush() { if (s != "") out = out (out == "" ? "" : ",") (s == p ? s : s "-" p) }
		{ if (s != "" && $1 == p + 1) { p = $1; next } flush(); s = $1; p = $1 }
		END { flush(); print out }'
}

# json_pages FILE NODE: the --report=json pages of NODE as "heap anon file".
json_pages() {
	jq -r --argjson n "$2" '.nodes[] | select(.node == $n) | "\(.heap.pages) \(.anon.pages) \(.file.pages)"' "$1"
}

# assert_report_json FILE NODES: the json parses, and for each of NODES its
# pages are those of alloc's numa_maps dump in $output (numa_maps_pages).
assert_report_json() {
	local n want got
	jq -e . "$1" >/dev/null || return 1
	for n in $2; do
		want=$(numa_maps_pages "$n") || return 1
		got=$(json_pages "$1" "$n")
		echo "node $n: report $got, numa_maps $want"
		[ "$got" = "$want" ] || return 1
	done
}

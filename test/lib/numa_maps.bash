# SPDX-License-Identifier: GPL-2.0-or-later
# The one reader of /proc/PID/numa_maps for the host and guest suites, and
# what the tests ask of it: a heap's policy, a line's policy and pages, the
# pages per node and kind of a whole dump. Plain POSIX awk and bash: the
# guest has busybox awk.

NM2_LIB=${BASH_SOURCE[0]%/*}

# numa_maps_read [FILE...]: numa_maps lines (FILE, or stdin), one line out
# per mapping:
#   ADDRESS<tab>KIND<tab>POLICY<tab>PAGES
# KIND is file (file=), heap, stack or anon; POLICY as the kernel prints it,
# spaces and all ("weighted interleave:0-2", "prefer (many):2-3"), without
# the weights= token a policy with weights of its own has after it (kernel
# series, kernel/: numa_maps_weights reads that); PAGES the
# N<node>=<pages> counts in 4 KiB pages (hugetlb's times kernelpagesize_kB/4),
# "N0=5 N2=7", or nothing. A line that is not a numa_maps line (no hex
# address, or no policy) is named on stderr and the reader fails.
numa_maps_read() {
	awk '
		function bad() { print "numa_maps_read: not a numa_maps line: " $0 | "cat 1>&2"; failed = 1 }
		# The first field after the policy: the mapping kind or a counter.
		function after_policy(f) {
			return f ~ /^(heap|stack|huge)$/ ||
			       f ~ /^(weights|file|anon|dirty|mapped|mapmax|swapcache|active|writeback|kernelpagesize_kB|N[0-9]+)=/
		}
		{
			if ($1 !~ /^[0-9a-f]+$/) { bad(); next }
			policy = ""
			for (i = 2; i <= NF && !after_policy($i); i++)
				policy = policy (policy == "" ? "" : " ") $i
			if (policy == "") { bad(); next }
			kind = "anon"; mult = 1; pages = ""
			for (j = i; j <= NF; j++) {
				if ($j ~ /^file=/) kind = "file"
				else if ($j == "heap" || $j == "stack") kind = $j
				else if ($j ~ /^kernelpagesize_kB=[0-9]+$/) mult = substr($j, 19) / 4
			}
			for (j = i; j <= NF; j++)
				if ($j ~ /^N[0-9]+=[0-9]+$/) {
					split($j, a, "=")
					pages = pages (pages == "" ? "" : " ") a[1] "=" a[2] * mult
				}
			printf "%s\t%s\t%s\t%s\n", $1, kind, policy, pages
		}
		END { exit failed }' "$@"
}

# numa_maps_line LINE: the one numa_maps line LINE, read; sets nm_addr,
# nm_kind, nm_policy and nm_pages. Fails on anything but one such line.
numa_maps_line() {
	local r
	[ -n "$1" ] && [[ $1 != *$'\n'* ]] || return 1
	r=$(printf '%s\n' "$1" | numa_maps_read) || return 1
	IFS=$'\t' read -r nm_addr nm_kind nm_policy nm_pages <<<"$r"
}

# numa_maps_policy LINE: the policy of one numa_maps line.
numa_maps_policy() {
	local nm_addr nm_kind nm_policy nm_pages
	numa_maps_line "$1" || return 1
	echo "$nm_policy"
}

# numa_maps_weights LINE: the policy's own weights of one numa_maps line,
# "0:8,1:4" (its weights= token), or nothing when it has none (the policy
# follows the global table, or has no weights). Fails unless LINE is one
# numa_maps line.
numa_maps_weights() {
	local nm_addr nm_kind nm_policy nm_pages
	numa_maps_line "$1" || return 1
	printf '%s\n' "$1" | tr ' ' '\n' | sed -n 's/^weights=//p'
}

# numa_maps_nodes LINE: the N<node>=<pages> counts of one numa_maps line.
numa_maps_nodes() {
	local nm_addr nm_kind nm_policy nm_pages
	numa_maps_line "$1" || return 1
	echo "$nm_pages"
}

# numa_maps_heap_policy [FILE]: the policy of the heap in FILE (default
# /proc/self/numa_maps: awk's own, which runs under the caller's policy).
# Fails without a heap.
numa_maps_heap_policy() {
	local maps addr kind policy pages
	maps=$(numa_maps_read "${1:-/proc/self/numa_maps}") || return 1
	while IFS=$'\t' read -r addr kind policy pages; do
		[ "$kind" = heap ] || continue
		echo "$policy"
		return 0
	done <<<"$maps"
	return 1
}

# The command that prints the policy of its own heap, for numactl2 to run:
#   "$NUMACTL2" -i 0 "${HEAP_POLICY[@]}"
HEAP_POLICY=(bash -c '. "$1" && numa_maps_heap_policy' heap_policy "$NM2_LIB/numa_maps.bash")

# numa_maps_pages NODE [TEXT]: the pages on NODE of the numa_maps that
# alloc -m dumps last (the lines after "maps:" in TEXT, default $output),
# summed by kind as "heap anon file" (the stack counts as anon). Fails
# without a dump, or on a line in it that is not numa_maps'.
numa_maps_pages() {
	local dump maps
	dump=$(printf '%s\n' "${2-$output}" | sed -n '/^maps:$/,$p' | sed 1d)
	[ -n "$dump" ] || return 1
	maps=$(printf '%s\n' "$dump" | numa_maps_read) || return 1
	printf '%s\n' "$maps" | awk -F '\t' -v node="$1" '
		{
			k = $2 == "stack" ? "anon" : $2
			n = split($4, t, " ")
			for (i = 1; i <= n; i++)
				if (t[i] ~ "^N" node "=") { split(t[i], a, "="); s[k] += a[2] }
		}
		END { printf "%d %d %d\n", s["heap"], s["anon"], s["file"] }'
}

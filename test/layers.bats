#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The graph of the sources: a module is a .c with its .h (or a lone
# header); an edge goes from a module to one it includes, or to the one whose
# object defines a name its object uses (nm on the release objects). The
# graph has no cycle, and no edge goes from a lower layer up:
#   0  parse, syscalls, uapi/      pure parsers and raw calls
#   1  lib/policy, lib/bandwidth   policies; bandwidths and weights from them
#   2  lib/weights                 the global table, leases, transactions
#   3  lib/job                     the job's watcher, its report
#   4  lib/libnumactl2.h           the library's public header
#   5  msg/                        the wording both front ends share
#   6  numactl2.c, cli/, slurm/    the front ends (the CLI, the Slurm plugin),
#                                  which include only the public header of lib/

load helpers

top=$BATS_TEST_DIRNAME/..

setup_file() {
	make -s -C "$top" build/release/libnumactl2.a numactl2
}

# The layer of a module (a path without .c/.h, relative to the top).
layer() {
	case $1 in
	parse | syscalls | uapi/*) echo 0 ;;
	lib/policy/* | lib/bandwidth/*) echo 1 ;;
	lib/weights/*) echo 2 ;;
	lib/job/*) echo 3 ;;
	lib/libnumactl2) echo 4 ;;
	msg/*) echo 5 ;;
	numactl2 | cli/* | slurm/*) echo 6 ;;
	*) echo "layers.bats: no layer for $1" >&2; echo 9 ;;
	esac
}

# "from to" for each include of a project header by a source or header.
include_edges() {
	local f m inc
	for f in "$@"; do
		m=${f%.[ch]}
		while read -r inc; do
			[ -e "$top/$inc" ] || inc=lib/$inc
			[ -e "$top/$inc" ] || continue
			[ "${inc%.h}" = "$m" ] || echo "$m ${inc%.h}"
		done < <(sed -n 's/^#include "\(.*\)"$/\1/p' "$top/$f")
	done
}

# "from to" for each name one release object uses and another defines.
call_edges() {
	local o
	for o in "$@"; do
		nm --defined-only -g "$top/build/release/$o" | awk -v m="${o%.o}" 'NF == 3 { print "D", $3, m }'
		nm -u "$top/build/release/$o" | awk -v m="${o%.o}" '{ print "U", $2, m }'
	done | awk '$1 == "D" { def[$2] = $3; next } { use[$3 " " $2] = 1 }
		    END { for (k in use) { split(k, a, " "); if (a[2] in def && def[a[2]] != a[1]) print a[1], def[a[2]] } }'
}

sources() {
	(cd "$top" && ls parse.c parse.h syscalls.h numactl2.c cli/*.[ch] msg/*.[ch] slurm/*.[ch] lib/libnumactl2.h lib/*/*.[ch] uapi/*.h)
}

objects() {
	(cd "$top/build/release" && ls parse.o numactl2.o cli/*.o msg/*.o lib/*/*.o)
}

graph() {
	{ include_edges $(sources); call_edges $(objects); } | sort -u
}

@test "layers: the edges are read (includes and calls)" {
	run -0 graph
	# Includes (options.c of the public header, which includes nodes.h) and a call (main calls cli_parse).
	[[ $output == *"cli/options lib/libnumactl2"* ]]
	[[ $output == *"lib/libnumactl2 lib/policy/nodes"* ]]
	[[ $output == *"numactl2 cli/options"* ]]
	[ "${#lines[@]}" -gt 50 ]
}

@test "layers: no edge goes from a lower layer up" {
	local from to up=""
	while read -r from to; do
		[ "$(layer "$from")" -ge "$(layer "$to")" ] || up+="$from -> $to; "
	done < <(graph)
	[ -z "$up" ] || { echo "upward edges: $up"; false; }
}

@test "layers: the graph has no cycle" {
	run -0 graph
	# tsort names the modules of each cycle on stderr.
	run --separate-stderr tsort <<<"$output"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ] || { echo "$stderr"; false; }
}

@test "layers: the front end includes no header of lib/ but its public one" {
	run grep -n '^#include "\(policy\|weights\|bandwidth\|job\)/' "$top/numactl2.c" "$top"/cli/*.[ch] \
		"$top"/msg/*.[ch] "$top"/slurm/*.[ch]
	[ "$status" -eq 1 ]
	[ -z "$output" ]
}

@test "layers: the check finds a cycle and an upward edge" {
	run --separate-stderr tsort <<<$'a b\nb a'
	[ -n "$stderr" ]
	[ "$(layer lib/policy/policy)" -lt "$(layer lib/weights/lease)" ]
	[ "$(layer cli/show)" -gt "$(layer lib/job/report)" ]
}

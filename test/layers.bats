#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The graph of the sources: a module is a .c with its .h (or a lone
# header, or a lone .c); an edge goes from a module to one it includes, or to
# the one whose object defines a name its object uses (nm on the release
# objects). The graph has no cycle, and no edge goes from a lower layer up:
#   0  parse, syscalls, uapi/,     pure parsers, raw calls, the one way to
#      lib/sysfile, lib/error,     read a sysfs or procfs file, the one
#                                  error value (struct nc2_error), and the
#      lib/libnumactl2             library's public face (a policy as asked
#                                  among it), which every module includes
#                                  for its public part (as libmount's
#                                  mountP.h does libmount.h)
#   1  lib/policy, lib/bandwidth   policies; bandwidths and weights from them
#   2  lib/weights                 the global table, leases, transactions
#   3  lib/job, lib/owner          the job's watcher, its report; the table's
#                                  owner (numactl2d) and asking it
#   4  lib/print                   the printers: --show, --hardware,
#                                  --dry-run's lines
#   5  lib/request                 a front end's request: resolved, applied,
#                                  the job's end, --pid; a plan's lines, its
#                                  own part handed to the printers
#   6  msg/                        the wording both front ends share
#   7  numactl2.c, cli/, slurm/,   the front ends (the CLI, the Slurm plugin,
#      service/                    the table's owner numactl2d),
#                                  which include only the public header of lib/
load helpers

top=$BATS_TEST_DIRNAME/..

setup_file() {
	make -s -C "$top" build/release/libnumactl2.a numactl2 build/release/numactl2d
}

# The layer of a module (a path without .c/.h, relative to the top).
layer() {
	case $1 in
	parse | syscalls | uapi/* | lib/sysfile/* | lib/error/* | lib/libnumactl2) echo 0 ;;
	lib/policy/* | lib/bandwidth/*) echo 1 ;;
	lib/weights/*) echo 2 ;;
	lib/job/* | lib/owner/*) echo 3 ;;
	lib/print/*) echo 4 ;;
	lib/request/*) echo 5 ;;
	msg/*) echo 6 ;;
	numactl2 | cli/* | slurm/* | service/*) echo 7 ;;
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
	(cd "$top" && ls parse.c parse.h syscalls.h numactl2.c cli/*.[ch] msg/*.[ch] slurm/*.[ch] service/*.c lib/libnumactl2.h lib/*/*.[ch] uapi/*.h)
}

objects() {
	(cd "$top/build/release" && ls parse.o numactl2.o cli/*.o msg/*.o service/*.o lib/*/*.o)
}

graph() {
	{ include_edges $(sources); call_edges $(objects); } | sort -u
}

@test "layers: the edges are read (includes and calls)" {
	run -0 graph
	# Includes (cmdline.c and nodes.c of the public header) and a call (main calls cli_parse).
	[[ $output == *"cli/cmdline lib/libnumactl2"* ]]
	[[ $output == *"lib/policy/nodes lib/libnumactl2"* ]]
	[[ $output == *"numactl2 cli/cmdline"* ]]
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
	run grep -n '^#include "\(policy\|weights\|bandwidth\|job\|owner\|sysfile\|error\|request\|print\|uapi\)/\|^#include "syscalls.h"' \
		"$top/numactl2.c" "$top"/cli/*.[ch] "$top"/msg/*.[ch] "$top"/slurm/*.[ch] "$top"/service/*.c
	[ "$status" -eq 1 ]
	[ -z "$output" ]
}

@test "layers: the check finds a cycle and an upward edge" {
	run --separate-stderr tsort <<<$'a b\nb a'
	[ -n "$stderr" ]
	[ "$(layer lib/policy/policy)" -lt "$(layer lib/weights/lease)" ]
	[ "$(layer cli/prepare)" -gt "$(layer lib/job/report)" ]
	[ "$(layer lib/request/apply)" -gt "$(layer lib/job/report)" ]
	[ "$(layer lib/policy/nodes)" -gt "$(layer lib/libnumactl2)" ]
}

@test "layers: the request layer is read, above lib/job and below the front ends" {
	run -0 graph
	# Includes (apply.c of weights/table.h and the public header) and a call (cli/prepare.c calls nc2_request_resolve).
	[[ $output == *"lib/request/apply lib/weights/table"* ]]
	[[ $output == *"lib/request/apply lib/libnumactl2"* ]]
	[[ $output == *"cli/prepare lib/request/resolve"* ]]
}

@test "layers: the printers are read, below the request and above what they print" {
	run -0 graph
	# The request hands its plan's own part to the printers (planlines.c,
	# pidpolicy.c); a printer reads the table's view.
	[[ $output == *"lib/request/planlines lib/print/planprint"* ]]
	[[ $output == *"lib/request/pidpolicy lib/print/show"* ]]
	[[ $output == *"lib/print/show lib/weights/view"* ]]
	[ "$(layer lib/print/show)" -lt "$(layer lib/request/planlines)" ]
	[ "$(layer lib/print/show)" -gt "$(layer lib/owner/wire)" ]
}

# The project's headers a header includes.
project_includes() {
	sed -n 's/^#include "\(.*\)"$/\1/p' "$1"
}

@test "layers: the public header includes one of the project's headers, which includes none" {
	run -0 project_includes "$top/lib/libnumactl2.h"
	[ "$output" = parse.h ]
	run -0 project_includes "$top/parse.h"
	[ -z "$output" ]
}

# The public header, parse.h and the front ends' own sources, alone in DIR: the
# library's other headers, syscalls.h and uapi/ are not there to include.
public_tree() {
	mkdir -p "$1"
	cp "$top/lib/libnumactl2.h" "$top/parse.h" "$1/"
	cp -r "$top/numactl2.c" "$top/cli" "$top/msg" "$top/slurm" "$top/service" "$1/"
}

# Compiles each of the files (relative to DIR) with DIR alone to include from.
compile_in() {
	local dir=$1 f
	shift
	for f in "$@"; do
		"${CC:-gcc}" -std=gnu17 -fsyntax-only -Wall -Werror -I"$dir" "$dir/$f" || return 1
	done
}

@test "layers: the front ends compile with the public headers alone" {
	local dir=$BATS_TEST_TMPDIR/public files
	public_tree "$dir"
	files=(numactl2.c cli/*.c msg/*.c service/*.c)
	[ ! -e /usr/include/slurm/spank.h ] || files+=(slurm/*.c)
	cd "$dir"
	run compile_in "$dir" "${files[@]}"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "${#files[@]}" -gt 20 ]
}

@test "layers: the check of the public headers finds a private one" {
	local dir=$BATS_TEST_TMPDIR/public
	public_tree "$dir"
	printf '#include "libnumactl2.h"\n#include "weights/txn.h"\n' >"$dir/cli/bad.c"
	run compile_in "$dir" cli/bad.c
	[ "$status" -ne 0 ]
	[[ $output == *"weights/txn.h"* ]]
}

# The pipeline is the request layer's: the front ends take neither the
# table's transaction nor its leases, records or holders themselves.
front_end_table_calls() {
	local o
	for o in "$top"/build/release/numactl2.o "$top"/build/release/cli/*.o \
		"$top"/build/pic/slurm/*.o; do
		nm -u "$o" | awk -v o="${o#"$top"/}" '$2 ~ /^(gw_txn|txn|lease|record|holders|table)_/ { print o ": " $2 }'
	done
}

@test "layers: numactl2.c and slurm/ call nothing of the table's transaction or leases" {
	[ -e /usr/include/slurm/spank.h ] || skip "no Slurm headers (libslurm-dev): no plugin to read"
	make -s -C "$top" build/pic/slurm/task.o build/pic/slurm/spank.o
	run -0 front_end_table_calls
	[[ $output != *"numactl2.o:"* ]] || { echo "$output"; false; }
	[[ $output != *"slurm/"* ]] || { echo "$output"; false; }
}

# --show, --dry-run, --hardware and the messages read the table through
# weights_view_read() and nc2_lib_place(): no front end opens the table's files,
# the lease records or the baseline itself, nor steps a transaction.
front_end_table_reads() {
	local o
	for o in "$top"/build/release/numactl2.o "$top"/build/release/cli/*.o \
		"$top"/build/release/msg/*.o "$@"; do
		nm -u "$o" | awk -v o="${o#"$top"/}" '
			$2 ~ /^gw_(read|read_auto|present|nodes|node_count|dir|open_node|write|enable_auto|lock_table)$/ ||
			$2 ~ /^gw_txn_/ || $2 == "request_txn" ||
			$2 ~ /^(holders_(list|find|of_node|recorded)|record_.*|baseline_.*|lease_.*|nodeperf_dir)$/ {
				print o ": " $2
			}'
	done
}

@test "layers: no front end reads the table, its leases or its baseline itself" {
	local plugin=()
	if [ -e /usr/include/slurm/spank.h ]; then
		make -s -C "$top" build/pic/slurm/task.o build/pic/slurm/spank.o build/pic/slurm/spankopts.o
		plugin=("$top"/build/pic/slurm/*.o)
	fi
	run -0 front_end_table_reads "${plugin[@]}"
	[ -z "$output" ] || { echo "$output"; false; }
}

@test "layers: the check of the front ends' table reads finds one" {
	printf 'unsigned gw_read(unsigned, unsigned *);\nint f(void) { unsigned w; return (int)gw_read(0, &w); }\n' \
		>"$BATS_TEST_TMPDIR/bad.c"
	"${CC:-gcc}" -c -o "$BATS_TEST_TMPDIR/bad.o" "$BATS_TEST_TMPDIR/bad.c"
	run -0 front_end_table_reads "$BATS_TEST_TMPDIR/bad.o"
	[[ $output == *"bad.o: gw_read"* ]]
}

# A change, a refusal and an admin operation reach the wording as a copy
# (struct gw_txn_said: gw_txn_say(), nc2_request_table_said(), an admin result,
# a request error's table): no front end reads a transaction's or a lease's
# fields, its nodes, lock or descriptors.
front_end_txn_fields() {
	grep -nE 'struct (gw_txn|lease|weights_change) |(\.|->)(txn|change)(\.|->)|request_txn' "$@"
}

@test "layers: no front end reads a transaction's fields" {
	run front_end_txn_fields "$top/numactl2.c" "$top"/cli/*.[ch] "$top"/msg/*.[ch] "$top"/slurm/*.[ch]
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	[ -z "$output" ]
}

@test "layers: the check of a transaction's fields finds one" {
	printf 'void f(const struct gw_txn *t);\nint g(struct admin_result *res) { return res->txn.keep; }\n' \
		>"$BATS_TEST_TMPDIR/bad.c"
	run -0 front_end_txn_fields "$BATS_TEST_TMPDIR/bad.c"
	[[ $output == *"1:void f(const struct gw_txn *t)"* ]]
	[[ $output == *"2:int g("* ]]
}

# Compiles a C file against the headers in DIR (then the top's: parse.h).
cc_with() {
	local dir=$1
	shift
	"${CC:-gcc}" -std=gnu17 -Wall -Werror -I"$dir" -I"$top" -c -o /dev/null "$@"
}

@test "layers: the error is one opaque value: a front end holds it, reads it, cannot open it" {
	cat >"$BATS_TEST_TMPDIR/holds.c" <<'EOF'
#include "libnumactl2.h"
int held(void);
int held(void) { struct nc2_error *e = nc2_error_new(); int f = nc2_error_fault(e); nc2_error_free(e); return f; }
EOF
	printf '#include "libnumactl2.h"\nunsigned long size = sizeof(struct nc2_error);\n' >"$BATS_TEST_TMPDIR/opens.c"
	run -0 cc_with "$top/lib" "$BATS_TEST_TMPDIR/holds.c"
	run ! cc_with "$top/lib" "$BATS_TEST_TMPDIR/opens.c"
	[[ $output == *"incomplete type"* ]]
}

@test "layers: the job is a closed handle: a front end makes it, reads it, cannot open it" {
	cat >"$BATS_TEST_TMPDIR/holds.c" <<'EOF'
#include "libnumactl2.h"
int held(char **command);
int held(char **command)
{
	struct job *job = nc2_job_new(command, WATCH_END);
	int status = 0;

	if (!job)
		return -1;
	(void)nc2_job_status(job, &status);
	nc2_job_free(job);
	return status;
}
EOF
	printf '#include "libnumactl2.h"\nint pidfd(struct job *j) { return j->pidfd; }\n' >"$BATS_TEST_TMPDIR/opens.c"
	run -0 cc_with "$top/lib" "$BATS_TEST_TMPDIR/holds.c"
	run ! cc_with "$top/lib" "$BATS_TEST_TMPDIR/opens.c"
	[[ $output == *"incomplete type"* || $output == *"undefined type"* ]]
}

@test "layers: the plan is a closed handle: a front end makes it, reads it, cannot open it" {
	cat >"$BATS_TEST_TMPDIR/holds.c" <<'EOF'
#include "libnumactl2.h"
int held(void);
int held(void)
{
	struct plan *pl = nc2_plan_new();
	int why;

	if (!pl)
		return -1;
	why = (int)nc2_plan_why(pl);
	why += nc2_plan_measured(pl) + nc2_plan_table_change(pl) + nc2_plan_table_taken(pl) +
	       nc2_plan_undone_written(pl) + (nc2_plan_libnuma(pl) != NULL);
	nc2_plan_free(pl);
	return why;
}
EOF
	printf '#include "libnumactl2.h"\nunsigned long size = sizeof(struct plan);\n' >"$BATS_TEST_TMPDIR/opens.c"
	run -0 cc_with "$top/lib" "$BATS_TEST_TMPDIR/holds.c"
	run ! cc_with "$top/lib" "$BATS_TEST_TMPDIR/opens.c"
	[[ $output == *"incomplete type"* ]]
}

@test "layers: the public header has one error value: no other error struct, no step enum" {
	run grep -nE '^(struct (request_error|pid_result|nc2_error)|enum (request_fault|shm_step|pid_step)) \{' \
		"$top/lib/libnumactl2.h"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	run -0 grep -c '^enum nc2_fault {$' "$top/lib/libnumactl2.h"
	[ "$output" = 1 ]
}

@test "layers: msg_error() words every fault: a new one unworded fails the build (-Wswitch)" {
	mkdir "$BATS_TEST_TMPDIR/inc"
	sed 's/^enum nc2_fault {$/&\n\tNC2_TEST_UNWORDED,/' "$top/lib/libnumactl2.h" \
		>"$BATS_TEST_TMPDIR/inc/libnumactl2.h"
	run -0 grep -c NC2_TEST_UNWORDED "$BATS_TEST_TMPDIR/inc/libnumactl2.h"
	run -0 cc_with "$top/lib" "$top/msg/reqerror.c"
	run ! cc_with "$BATS_TEST_TMPDIR/inc" "$top/msg/reqerror.c"
	[[ $output == *"NC2_TEST_UNWORDED"*"not handled in switch"* ]]
}

# The library's one prefix (libmount's mnt_): every name a front end (the
# CLI, msg/, numactl2d; the plugin's objects are read where it is built)
# takes from libnumactl2.a starts with nc2_, and no front end defines one.
front_end_objects() {
	(cd "$top/build/release" && ls numactl2.o cli/*.o msg/*.o service/*.o)
	[ ! -d "$top/build/pic/slurm" ] || (cd "$top/build/pic" && ls slurm/*.o)
}

# "object: name" for each name ARCHIVE defines that a front end's object
# uses without the prefix (ARCHIVE: libnumactl2.a of the release build).
unprefixed_uses() {
	local archive=$1 o dir
	while read -r o; do
		dir=$top/build/release
		[[ $o != slurm/* ]] || dir=$top/build/pic
		nm -u "$dir/$o" | awk -v o="$o" '{ print $2, o }'
	done < <(front_end_objects) | sort >"$BATS_TEST_TMPDIR/uses"
	nm --defined-only -g "$archive" | awk 'NF == 3 { print $3 }' | sort -u >"$BATS_TEST_TMPDIR/defs"
	join "$BATS_TEST_TMPDIR/uses" "$BATS_TEST_TMPDIR/defs" | awk '$1 !~ /^nc2_/ { print $2 ": " $1 }'
}

# "object: name" for each name one of the OBJECTS (paths; none: the front
# ends') defines with the prefix.
prefixed_defs() {
	local o
	if [ $# -eq 0 ]; then
		while read -r o; do
			[[ $o == slurm/* ]] && set -- "$@" "$top/build/pic/$o" || set -- "$@" "$top/build/release/$o"
		done < <(front_end_objects)
	fi
	for o in "$@"; do
		nm --defined-only -g "$o" | awk -v o="${o#"$top"/}" 'NF == 3 && $3 ~ /^nc2_/ { print o ": " $3 }'
	done
}

@test "layers: the front ends take from the library only names that start with nc2_" {
	run -0 unprefixed_uses "$top/build/release/libnumactl2.a"
	[ -z "$output" ] || { echo "without the prefix: $output"; false; }
	# What they take is read at all: the CLI resolves a request.
	run -0 bash -c "nm -u '$top/build/release/cli/prepare.o' | grep -c ' nc2_'"
	[ "$output" -gt 0 ]
}

@test "layers: no front end defines a name with the library's prefix" {
	run -0 prefixed_defs
	[ -z "$output" ] || { echo "front end names with nc2_: $output"; false; }
}

@test "layers: every function the public headers declare starts with nc2_" {
	run -0 grep -hoE '^[a-z][a-z_0-9 *]*[ *]\(?\*?[a-z_][a-z_0-9]*\(' "$top/lib/libnumactl2.h" "$top/parse.h"
	[ "${#lines[@]}" -gt 40 ]
	run grep -vE '[ *(]nc2_[a-z_0-9]*\($' <<<"$output"
	[ -z "$output" ] || { echo "without the prefix: $output"; false; }
}

@test "layers: the prefix checks find an unprefixed name and a front end's nc2_ name" {
	local a=$BATS_TEST_TMPDIR/fake
	mkdir -p "$a"
	# numactl2.o uses cli_request_failed (the CLI's own): a library that
	# defined it would hand a front end a name without the prefix.
	printf 'int cli_request_failed;\n' >"$a/m.c"
	"${CC:-gcc}" -c -o "$a/m.o" "$a/m.c"
	ar rc "$a/libfake.a" "$a/m.o"
	run -0 unprefixed_uses "$a/libfake.a"
	[[ $output == *"numactl2.o: cli_request_failed"* ]]
	printf 'void nc2_front(void) {}\n' >"$a/f.c"
	"${CC:-gcc}" -c -o "$a/f.o" "$a/f.c"
	run -0 prefixed_defs "$a/f.o"
	[[ $output == *": nc2_front"* ]]
}

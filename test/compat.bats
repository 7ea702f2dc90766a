#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# numactl2 prints what Debian's numactl (2.0.16) prints, byte for byte, on
# the same machine: --show under every policy both tools have, --hardware,
# and the rejection of bad node lists. Where numactl2 adds lines (weights,
# bandwidth) they are checked against /sys instead.

load helpers

NODE_SYSFS=/sys/devices/system/node

setup() {
	command -v numactl >/dev/null || skip "needs Debian's numactl to compare with"
	want=$BATS_TEST_TMPDIR/want
	got=$BATS_TEST_TMPDIR/got
	err=$BATS_TEST_TMPDIR/err
}

# Files, not $output: run would drop the trailing newline, and exit
# statuses inside diff <(...) <(...) would go unchecked.
show_matches() {
	numactl "$@" --show >"$want"
	"$NUMACTL2" "$@" --show >"$got" 2>"$err"
	diff -u "$want" "$got"
	[ ! -s "$err" ]
}

# The weighted-interleave switch: "auto" from 6.16, "__auto_type" on some 6.18.
auto_file() {
	local f
	for f in "$WI_DIR/auto" "$WI_DIR/__auto_type"; do
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}

@test "--show without a policy is numactl's" {
	show_matches
}

@test "--show under -i all is numactl's" {
	show_matches -i all
}

@test "--show under -i 0 is numactl's" {
	show_matches -i 0
}

@test "--show under -m 0 is numactl's" {
	show_matches -m 0
}

@test "--show under -p 0 is numactl's" {
	show_matches -p 0
}

@test "--show under -P 0 is numactl's" {
	numactl -P 0 true 2>/dev/null || skip "this numactl or kernel has no --preferred-many"
	show_matches -P 0
}

@test "--show under -l is numactl's, bare 'preferred node: ' included" {
	show_matches -l
}

@test "--show under -N 0 is numactl's" {
	show_matches -N 0
}

@test "--show under -C 0 is numactl's" {
	show_matches -C 0
}

@test "--show under -C 1 is numactl's" {
	[ -e /sys/devices/system/cpu/cpu1 ] || skip "needs a CPU 1"
	show_matches -C 1
}

@test "--show under -a -i all is numactl's" {
	show_matches -a -i all
}

# numactl 2.0.16 does not mask MPOL_F_NUMA_BALANCING off the mode: it prints
# "policy: [8194]" and a bare "preferred node: ". numactl2 masks it (as
# REFERENCE.md asks), so its -b -m 0 output is numactl's -m 0 output; that the
# flag is really set is shown by numactl itself, run under numactl2.
@test "-b -m 0: --show is numactl's -m 0, and numactl sees the balancing flag" {
	numactl -b -m 0 true 2>/dev/null || skip "this kernel has no NUMA balancing flag"
	numactl -m 0 --show >"$want"
	"$NUMACTL2" -b -m 0 --show >"$got" 2>"$err"
	diff -u "$want" "$got"
	[ ! -s "$err" ]
	numactl -b -m 0 numactl --show >"$want"
	"$NUMACTL2" -b -m 0 numactl --show >"$got" 2>"$err"
	diff -u "$want" "$got"
	[ ! -s "$err" ]
	# Only the policy lines differ between the tools under -b; numactl's
	# bare "preferred node: " runs into its physcpubind line.
	numactl -b -m 0 --show >"$want"
	"$NUMACTL2" -b -m 0 --show >"$got"
	diff -u <(sed -n 's/.*physcpubind:/physcpubind:/; /^physcpubind:/,$p' "$want") \
		<(sed -n 's/.*physcpubind:/physcpubind:/; /^physcpubind:/,$p' "$got")
	[ "$(head -n 1 "$got")" = "policy: bind" ]
}

@test "numactl --show run by numactl2 -i 0 sees what it sees under numactl -i 0" {
	numactl -i 0 numactl --show >"$want"
	"$NUMACTL2" -i 0 numactl --show >"$got" 2>"$err"
	diff -u "$want" "$got"
	[ ! -s "$err" ]
}

@test "numactl2 --show run by numactl -m 0 prints what numactl --show prints there" {
	numactl -m 0 numactl --show >"$want"
	numactl -m 0 "$NUMACTL2" --show >"$got" 2>"$err"
	diff -u "$want" "$got"
	[ ! -s "$err" ]
}

@test "-w 0 --show: numactl's -i 0 lines plus interleaveweights and weightsource, in order" {
	[ -d "$WI_DIR" ] || skip "needs Linux 6.9+ for weighted interleave"
	local before after auto source
	before=$(cat "$WI_DIR/node0")
	"$NUMACTL2" -w 0 --show >"$got" 2>"$err"
	after=$(cat "$WI_DIR/node0")
	[ ! -s "$err" ]
	run -0 cut -d: -f1 "$got"
	[ "$output" = "policy
preferred node
interleavemask
interleaveweights
weightsource
interleavenode
physcpubind
cpubind
nodebind
membind
preferred" ]
	run -0 grep '^interleaveweights:' "$got"
	# 6.9-6.15 may show 0 for the default weight, which is 1.
	[ "$output" = "interleaveweights: $((before ? before : 1))" ] ||
		[ "$output" = "interleaveweights: $((after ? after : 1))" ]
	run -0 grep '^weightsource:' "$got"
	if auto=$(auto_file); then
		source=manual
		[ "$(cat "$auto")" = true ] && source=auto
		[ "$output" = "weightsource: global $source" ] || [ "$output" = "weightsource: task-local $source" ]
	else
		[ "$output" = "weightsource: global" ] || [ "$output" = "weightsource: task-local" ]
	fi
	# Everything else is numactl's -i 0 output, with the mode's name.
	numactl -i 0 --show | sed 's/^policy: interleave$/policy: weighted-interleave/' >"$want"
	diff -u "$want" <(grep -v -e '^interleaveweights:' -e '^weightsource:' "$got")
}

@test "numactl --show run by numactl2 -w 0 sees mode 6" {
	[ -d "$WI_DIR" ] || skip "needs Linux 6.9+ for weighted interleave"
	run -0 --separate-stderr "$NUMACTL2" -w 0 numactl --show
	# 2.0.16 has no name for mode 6; 2.0.19 calls it weighted-interleave.
	[ "${lines[0]}" = "policy: [6]" ] || [ "${lines[0]}" = "policy: weighted-interleave" ]
	[ -z "$stderr" ]
}

# "node N free" is sampled at each run and may move between two runs, so
# its number is masked on both sides; only a well-formed line gets masked.
mask_free() {
	sed -E 's/^(node [0-9]+ free:) [0-9]+ MB$/\1 N MB/' "$@"
}

@test "--hardware begins with numactl's output, free memory masked" {
	local n
	numactl --hardware >"$want"
	"$NUMACTL2" --hardware >"$got" 2>"$err"
	[ ! -s "$err" ]
	n=$(wc -l <"$want")
	[ "$n" -gt 0 ]
	diff -u <(mask_free "$want") <(head -n "$n" "$got" | mask_free)
}

@test "--show --hardware and --hardware --show act on the first of them, as numactl" {
	local n
	numactl --show --hardware >"$want"
	"$NUMACTL2" --show --hardware >"$got" 2>"$err"
	diff -u "$want" "$got"
	[ ! -s "$err" ]
	numactl --hardware --show >"$want"
	"$NUMACTL2" --hardware --show >"$got" 2>"$err"
	[ ! -s "$err" ]
	n=$(wc -l <"$want")
	diff -u <(mask_free "$want") <(head -n "$n" "$got" | mask_free)
	diff -u <("$NUMACTL2" --hardware | mask_free) <(mask_free "$got")
}

# What numactl2 adds after numactl's lines, built here from /sys: access1
# bandwidth and latency per node, then each node's global weight, then the
# auto switch.
expected_extra() {
	local d n a w any=false auto
	for d in $(ls -d "$NODE_SYSFS"/node[0-9]* | sort -V); do
		n=${d##*node} a=$d/access1/initiators
		[ -r "$a/read_bandwidth" ] && [ -r "$a/write_bandwidth" ] &&
			echo "node $n bandwidth: $(cat "$a/read_bandwidth") MB/s read, $(cat "$a/write_bandwidth") MB/s write"
		[ -r "$a/read_latency" ] && [ -r "$a/write_latency" ] &&
			echo "node $n latency: $(cat "$a/read_latency") ns read, $(cat "$a/write_latency") ns write"
	done
	for d in $(ls -d "$NODE_SYSFS"/node[0-9]* | sort -V); do
		n=${d##*node}
		[ -r "$WI_DIR/node$n" ] || continue
		w=$(cat "$WI_DIR/node$n")
		echo "node $n interleave weight: $((w ? w : 1))"
		any=true
	done
	if $any; then
		auto=manual
		a=$(auto_file) && [ "$(cat "$a")" = true ] && auto=auto
		echo "global interleave weights: $auto"
	fi
	return 0
}

@test "--hardware adds only bandwidth, latency and weight lines, as /sys has them" {
	local n
	numactl --hardware >"$want"
	n=$(wc -l <"$want")
	# Read /sys on both sides of the run: the weights are global, and
	# another suite may be changing them meanwhile.
	expected_extra >"$BATS_TEST_TMPDIR/before"
	"$NUMACTL2" --hardware >"$got" 2>"$err"
	expected_extra >"$BATS_TEST_TMPDIR/after"
	[ ! -s "$err" ]
	tail -n +"$((n + 1))" "$got" >"$BATS_TEST_TMPDIR/extra"
	cmp -s "$BATS_TEST_TMPDIR/before" "$BATS_TEST_TMPDIR/extra" ||
		diff -u "$BATS_TEST_TMPDIR/after" "$BATS_TEST_TMPDIR/extra"
	# Every extra line has one of the four forms.
	run -1 grep -v -E -e '^node [0-9]+ (bandwidth|latency|interleave weight): ' \
		-e '^global interleave weights: (auto|manual)$' "$BATS_TEST_TMPDIR/extra"
	[ -z "$output" ]
}

# "0-1,4" from cpulist becomes "0-1, 4 (3)".
compressed_cpus() {
	local list=$1 r count=0
	local IFS=,
	for r in $list; do
		if [[ $r == *-* ]]; then
			count=$((count + ${r#*-} - ${r%-*} + 1))
		else
			count=$((count + 1))
		fi
	done
	echo "${list//,/, } ($count)"
}

@test "--hardware --cpu-compress prints each node's cpulist as ranges with a count" {
	local d n list
	"$NUMACTL2" --hardware --cpu-compress >"$got" 2>"$err"
	[ ! -s "$err" ]
	for d in $(ls -d "$NODE_SYSFS"/node[0-9]* | sort -V); do
		n=${d##*node}
		list=$(cat "$d/cpulist")
		[ -n "$list" ] || continue
		run -0 grep "^node $n cpus:" "$got"
		[ "$output" = "node $n cpus: $(compressed_cpus "$list")" ]
	done
	# The rest is the plain --hardware output.
	"$NUMACTL2" --hardware >"$want"
	diff -u <(grep -v ' cpus:' "$want" | mask_free) <(grep -v ' cpus:' "$got" | mask_free)
}

@test "--hardware >/dev/full fails with a write error" {
	[ -c /dev/full ] || skip "needs /dev/full"
	run -1 --separate-stderr bash -c '"$1" --hardware >/dev/full' _ "$NUMACTL2"
	[ -z "$output" ]
	[[ $stderr == "numactl2: write error"* ]]
}

@test "--show >/dev/full fails with a write error" {
	[ -c /dev/full ] || skip "needs /dev/full"
	run -1 --separate-stderr bash -c '"$1" --show >/dev/full' _ "$NUMACTL2"
	[ -z "$output" ]
	[[ $stderr == "numactl2: write error"* ]]
}

# without_numa FILE COMMAND...: COMMAND with get_mempolicy(2) failing with
# ENOSYS (strace injects it), as on a kernel without NUMA, where libnuma's
# numa_available() says no; its stdout in FILE, its stderr in $err.
without_numa() {
	local out=$1
	shift
	strace -qq -f -o /dev/null -e trace=get_mempolicy -e inject=get_mempolicy:error=ENOSYS \
		"$@" >"$out" 2>"$err"
}

@test "without NUMA, --show and --hardware print numactl's lines and exit 1, as numactl" {
	command -v strace >/dev/null || skip "needs strace to make get_mempolicy fail"
	local opt rc
	for opt in --show --hardware; do
		rc=0
		without_numa "$want" numactl "$opt" || rc=$?
		[ "$rc" -eq 1 ]
		rc=0
		without_numa "$got" "$NUMACTL2" "$opt" || rc=$?
		[ "$rc" -eq 1 ]
		diff -u "$want" "$got"
		[ ! -s "$err" ]
		grep -q '^No NUMA' "$got"
	done
}

# both_reject OPTION LIST [WHY]: numactl2 refuses the bad node list LIST
# ("invalid node list 'LIST'" and ": WHY", or WHY alone when it is a whole
# line, then the usage hint; refused in test/lib/refused.bash), before
# running anything; numactl rejects it too.
both_reject() {
	local line="numactl2: invalid node list '$2'${3:+: $3}"
	[[ ${3:-} != numactl2:* ]] || line=$3
	refused --usage --absent "$BATS_TEST_TMPDIR/ran" "$line" \
		"$NUMACTL2" "$1" "$2" touch "$BATS_TEST_TMPDIR/ran"
	run ! numactl "$1" "$2" true
}

@test "-i 0-x is rejected by both" {
	both_reject -i 0-x 'missing node argument x'
}

@test "-m 99 is rejected by both" {
	[ ! -e "$NODE_SYSFS/node99" ] || skip "node 99 exists here"
	both_reject -m 99 "$(node_absent_error 99 99)"
}

@test "-N 5 is rejected by both" {
	[ ! -e "$NODE_SYSFS/node5" ] || skip "node 5 exists here"
	both_reject -N 5 "$(node_absent_error 5 5)"
}

@test "-m '' is rejected by both" {
	both_reject -m ''
}

@test "-P 0, is rejected by both" {
	both_reject -P 0, "unparseable node description \`'"
}

# numactl 2.0.16 takes -i '' silently and runs under the default policy;
# numactl2 does not guess.
@test "-i '' is rejected by numactl2" {
	run -1 --separate-stderr "$NUMACTL2" -i '' true
	[ -z "$output" ]
	[ "${stderr_lines[0]}" = "numactl2: invalid node list ''" ]
}

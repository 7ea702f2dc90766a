#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The command-line contract: spellings, help, version, and every kind of
# bad input (a clear message on stderr, exit 1, nothing on stdout, and
# no global weight changed).

load helpers

setup() {
	before=$(wi_snapshot)
}

# bad_input MESSAGE ARGS...: numactl2 refuses ARGS with MESSAGE
# (test/lib/refused.bash), and no global weight changed.
bad_input() {
	refused --unchanged wi_snapshot "$before" "$1" "$NUMACTL2" "${@:2}"
}

@test "--help prints usage on stdout and exits 0" {
	run -0 --separate-stderr "$NUMACTL2" --help
	[ "${lines[0]}" = "Usage: numactl2 [options] [--] command [args...]" ]
	[[ $output == *"--weights=LIST"* ]]
	[[ $output == *"--version"* ]]
	[ -z "$stderr" ]
}

@test "--version prints the name, version, licence and where bugs go on stdout" {
	run -0 --separate-stderr "$NUMACTL2" --version
	[[ ${lines[0]} =~ ^numactl2\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || return 1
	[[ $output == *"GPLv2+: GNU GPL version 2 or later"* ]] || return 1
	# The man page's section, which test/man.bats checks says how.
	[ "${lines[-1]}" = "How to report a bug: man numactl2, section REPORTING BUGS." ] || return 1
	grep -qx '\.SH "REPORTING BUGS"' "$BATS_TEST_DIRNAME/../man/numactl2.8" || return 1
	[ -z "$stderr" ]
}

@test "--help fits 80 columns, is grouped, and ends with three examples" {
	run -0 --separate-stderr "$NUMACTL2" --help
	local long
	long=$(awk 'length > 80' <<<"$output")
	[ -z "$long" ] || { echo "wider than 80: $long"; return 1; }
	[[ $output == *$'\n\nPolicy (as numactl):\n'* ]] || return 1
	[[ $output == *$'\n\nWeights:\n'* ]] || return 1
	[[ $output == *$'\n\nThe job:\n'* ]] || return 1
	[[ $output == *$'\n\nThe system-wide weight table:\n'* ]] || return 1
	[ "${lines[-4]}" = "Examples:" ] || return 1
	[[ ${lines[-3]} == "  numactl2 "* ]] || return 1
	[[ ${lines[-2]} == "  numactl2 "* ]] || return 1
	[[ ${lines[-1]} == "  numactl2 "* ]]
}

# --restore-weights and the default both put weights back: each says, in its
# own entry, when and what a user gets.
@test "--help tells --restore-weights from the default" {
	run -0 --separate-stderr "$NUMACTL2" --help
	local restore keep
	restore=$(grep -A2 -- '^      --restore-weights ' <<<"$output")
	keep=$(grep -A1 -- '^      --keep-weights ' <<<"$output")
	[[ $restore == *"as soon as the command"*"ends"* ]] || return 1
	# The one promise it adds to the default (issue 37, item 6).
	[[ $restore == *"before numactl2 returns"* ]] || return 1
	[[ $restore == *"each node it leaves and why"* ]] || return 1
	[[ $keep == *"by default"*"the table goes back once no running job needs them"* ]]
}

@test "--help's examples are accepted (with --dry-run)" {
	local line ran=0
	cd "$BATS_TEST_TMPDIR"
	printf '#!/bin/sh\nexit 0\n' >app
	cp app stream
	chmod +x app stream
	# --weights=auto reads node 0's bandwidth from a fake HMAT entry (test
	# build only: this host has none).
	# From node 0's CPUs (the host's), its nearest initiator.
	mkdir -p node/node0/access1/initiators/node0
	cat /sys/devices/system/node/node0/cpulist >node/node0/cpulist
	echo 100000 >node/node0/access1/initiators/read_bandwidth
	echo 100000 >node/node0/access1/initiators/write_bandwidth
	export NUMACTL2_SYSFS_NODE=$PWD/node
	run -0 --separate-stderr "$NUMACTL2" --help
	while IFS= read -r line; do
		line=${line%%#*}
		line=${line#  numactl2 }
		# Node 1's part goes where this host has no node 1.
		[ -d /sys/devices/system/node/node1 ] || { line=${line//0,1/0}; line=${line//,1:1/}; }
		[[ $line == *--dry-run* ]] || line="--dry-run $line"
		eval "run --separate-stderr \"\$NUMACTL2\" $line"
		echo "$line: exit $status, $stderr"
		[ "$status" -eq 0 ] || return 1
		ran=$((ran + 1))
	done < <(sed -n '/^Examples:$/,$p' <<<"$output" | sed 1d)
	[ "$ran" -eq 3 ]
}

@test "the four weighted-interleave spellings mean the same" {
	local want
	want=$("$NUMACTL2" -w 0 --dry-run true)
	[[ $want == *"policy: weighted-interleave"* ]]
	[ "$("$NUMACTL2" --weighted-interleave=0 --dry-run true)" = "$want" ]
	[ "$("$NUMACTL2" -w --interleave=0 --dry-run true)" = "$want" ]
	[ "$("$NUMACTL2" -w -i 0 --dry-run true)" = "$want" ]
	[ "$("$NUMACTL2" -w --interleave 0 --dry-run true)" = "$want" ]
}

@test "--weights makes --interleave weighted" {
	run -0 "$NUMACTL2" -i 0 --weights=0:5 --dry-run true
	[ "${lines[0]}" = "policy: weighted-interleave" ]
	[ "${lines[2]}" = "weights: 0:5" ]
}

@test "--dry-run names the target of the weights and the command" {
	printf '#!/bin/sh\n' >"$BATS_TEST_TMPDIR/prog"
	chmod +x "$BATS_TEST_TMPDIR/prog"
	cd "$BATS_TEST_TMPDIR"
	run -0 "$NUMACTL2" -w all --weights=0:7 --dry-run ./prog -x --y
	[ "${lines[0]}" = "policy: weighted-interleave" ]
	[ "${lines[1]}" = "nodes: 0 " ]
	[ "${lines[2]}" = "weights: 0:7" ]
	[[ ${lines[3]} == "weights go to: global (sysfs)"* ]]
	[ "${lines[4]}" = "command: ./prog -x --y" ]
}

@test "--dry-run changes nothing and runs nothing" {
	run -0 "$NUMACTL2" -w 0 --weights=0:9 --dry-run touch "$BATS_TEST_TMPDIR/ran"
	[ "${lines[0]}" = "policy: weighted-interleave" ]
	[ "${lines[4]}" = "command: touch $BATS_TEST_TMPDIR/ran" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(wi_snapshot)" = "$before" ]
}

@test "--dry-run of -w without --weights uses the weights in effect" {
	run -0 "$NUMACTL2" -w 0 --dry-run true
	[ "${lines[2]}" = "weights: 0:$(cat "$WI_DIR/node0")" ]
	[ "${lines[3]}" = "weights go to: none changed; the weights in effect are used" ]
}

@test "--dry-run shows classic policies and CPU binding" {
	run -0 "$NUMACTL2" -m 0 -N 0 --dry-run true
	[ "${lines[0]}" = "policy: bind" ]
	[ "${lines[1]}" = "nodes: 0 " ]
	[ "${lines[2]}" = "cpunodebind: 0 " ]
	run -0 "$NUMACTL2" -b -m 0 --dry-run true
	[ "${lines[0]}" = "policy: bind (balancing)" ]
}

@test "the command's own options pass through untouched" {
	run -0 "$NUMACTL2" -i 0 printf '%s|' -i --show -- x
	[ "$output" = "-i|--show|--|x|" ]
	run -0 "$NUMACTL2" -i 0 -- printf '%s|' -m 1
	[ "$output" = "-m|1|" ]
}

@test "bad option" {
	bad_input "numactl2: invalid option -- 'x'" -x true
	[ "${stderr_lines[1]}" = "Try 'numactl2 --help' for more information." ]
	bad_input "numactl2: unrecognized option '--bogus'" --bogus true
}

@test "missing option argument" {
	bad_input "numactl2: option '-w' requires an argument" -w
	bad_input "numactl2: option '--weights' requires an argument" -i 0 --weights
}

@test "invalid node lists" {
	bad_input "numactl2: invalid node list '0-x': missing node argument x" -i 0-x true
	bad_input "numactl2: invalid node list ''" --interleave= true
	bad_input "numactl2: invalid node list 'bogus': unparseable node description \`bogus'" -w bogus true
}

@test "a node this machine does not have: the error names the nodes it has and --hardware" {
	[ ! -e /sys/devices/system/node/node99 ] || skip "node 99 exists here"
	bad_input "$(node_absent_error 99 99)" -m 99 true
	bad_input "$(node_absent_error '!99' 99)" -m '!99' true
	bad_input "$(node_absent_error 4294967296 4294967296)" -N 4294967296 true
	bad_input "$(node_absent_error 0,4294967296 4294967296)" -i 0,4294967296 true
	bad_input "$(node_absent_error 0-18446744073709551617 18446744073709551617)" -m 0-18446744073709551617 true
}

@test "invalid CPU list" {
	bad_input "numactl2: invalid CPU list: '0-x'" -C 0-x true
	bad_input "numactl2: invalid CPU list: '4294967296' (4294967296 is out of range)" -C 4294967296 true
}

@test "--preferred with a node this host does not have" {
	# libnuma's range check comes first on a one-node host; the project's
	# own "takes one node" check runs in the guest (classic.bats).
	[ ! -e /sys/devices/system/node/node1 ] || skip "node 1 exists here"
	bad_input "$(node_absent_error 0,1 1)" -p 0,1 true
}

@test "--preferred local: refused as not one node, not a crash" {
	bad_input "numactl2: --preferred takes one node: 'local'" -p local true
}

@test "weights out of range" {
	bad_input "numactl2: invalid weight '0' for node 0 (1-255)" -w 0 --weights=0:0 true
	bad_input "numactl2: invalid weight '256' for node 0 (1-255)" -w 0 --weights=0:256 true
	bad_input "numactl2: invalid weight '4294967296' for node 0 (1-255)" -w 0 --weights=0:4294967296 true
	bad_input "numactl2: invalid weight '-1' for node 0 (1-255)" -w 0 --weights=0:-1 true
}

@test "junk in weight lists" {
	bad_input "numactl2: invalid weight '9x' for node 0 (1-255)" -w 0 --weights=0:9x true
	bad_input "numactl2: invalid weight list item '0' (expected NODES:WEIGHT)" -w 0 --weights=0 true
	bad_input "numactl2: empty item in weight list" -w 0 --weights=0:1, true
	bad_input "numactl2: empty item in weight list" -w 0 --weights=0:1,,0:2 true
	bad_input "numactl2: empty item in weight list" -w 0 --weights= true
	bad_input "numactl2: invalid node '3-1' in weight list (0-1023, or A-B with A <= B)" -w 0 --weights=3-1:2 true
	bad_input "numactl2: invalid node 'x' in weight list (0-1023, or A-B with A <= B)" -w 0 --weights=x:2 true
}

@test "a node named twice in --weights" {
	bad_input "numactl2: node 0 named twice in weight list: '0-1:3'" -w 0 --weights=0:2,0-1:3 true
}

@test "a node in --weights outside the interleave set" {
	bad_input "numactl2: node 1 in --weights is not in the interleave set" -w 0 --weights=1:5 true
}

@test "--weights with a policy other than interleave" {
	bad_input "numactl2: --weights needs --weighted-interleave or --interleave" -m 0 --weights=0:5 true
	bad_input "numactl2: --weights needs --weighted-interleave or --interleave" --weights=0:5 true
	bad_input "numactl2: --weights given twice" -w 0 --weights=0:5 --weights=0:4 true
}

@test "a bad weight without -w is said before the missing interleave" {
	bad_input "numactl2: invalid weight '300' for node 0 (1-255)" --weights=0:300 true
	bad_input "numactl2: invalid weight '0' for node 1 (1-255)" -m 0 --weights=1:0 true
	bad_input "numactl2: node 0 named twice in weight list: '0-1:3'" --weights=0:2,0-1:3 true
	bad_input "numactl2: --weights needs --weighted-interleave or --interleave" -m 0 --weights=auto true
}

@test "-w without nodes must come before --interleave" {
	bad_input "numactl2: -w needs a node list, or --interleave after it" -w -m 0 true
}

@test "two policies cannot be combined" {
	bad_input "numactl2: options --interleave and --membind cannot be combined" -i 0 -m 0 true
	bad_input "numactl2: options --weighted-interleave and --preferred cannot be combined" -w 0 -p 0 true
	bad_input "numactl2: options --localalloc and --interleave cannot be combined" -l -i 0 true
}

@test "--balancing needs --membind or --preferred-many" {
	bad_input "numactl2: --balancing needs --membind or --preferred-many" -b -i 0 true
}

@test "--all must come before node lists" {
	bad_input "numactl2: --all must come before all node and CPU lists" -i 0 -a true
}

@test "a policy without a command" {
	bad_input "numactl2: no command given" -i 0
}

@test "'same' reuses the previous node list" {
	run -0 "$NUMACTL2" -N 0 -m same --dry-run true
	[ "${lines[1]}" = "nodes: 0 " ]
	bad_input "numactl2: 'same' needs an earlier node list" -m same true
}

@test "--no-global-weights refuses to change global weights" {
	run -1 --separate-stderr "$NUMACTL2" -w 0 --weights=0:2 --no-global-weights touch "$BATS_TEST_TMPDIR/ran"
	[ "$stderr" = "numactl2: this kernel has no task-local weights (set_mempolicy2), and --no-global-weights forbids changing the global ones" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(wi_snapshot)" = "$before" ]
}

@test "--no-global-weights without --weights runs with the weights in effect" {
	[ -d "$WI_DIR" ] || skip "needs Linux 6.9+ for weighted interleave"
	run -0 --separate-stderr "$NUMACTL2" -w 0 --no-global-weights \
		"${HEAP_POLICY[@]}"
	[ "$output" = "weighted interleave:0" ]
	[ -z "$stderr" ]
	[ "$(wi_snapshot)" = "$before" ]
}

@test "global weight options run alone" {
	bad_input "numactl2: global weight options run alone, without a policy or command" --set-global-weights=0:2 -i 0 true
	bad_input "numactl2: global weight options run alone, without a policy or command" --reset-global-weights true
	bad_input "numactl2: only one of --set-global-weights, --reset-global-weights and --auto-global-weights" --reset-global-weights --auto-global-weights
	bad_input "numactl2: invalid weight '300' for node 0 (1-255)" --set-global-weights=0:300
}

@test "--weights with a global weight option" {
	bad_input "numactl2: global weight options run alone, without a policy or command" --set-global-weights=0:2 --weights=0:3
	bad_input "numactl2: global weight options run alone, without a policy or command" --weights=0:3 --reset-global-weights
	bad_input "numactl2: global weight options run alone, without a policy or command" --auto-global-weights --weights=0:3
}

@test "--dry-run with invalid input: exit 1, the message, no plan" {
	bad_input "numactl2: invalid weight '0' for node 0 (1-255)" --dry-run -w 0 --weights=0:0 true
	bad_input "numactl2: invalid node list '0-x': missing node argument x" --dry-run -i 0-x true
	bad_input "numactl2: node 1 in --weights is not in the interleave set" -w 0 --weights=1:5 --dry-run true
	bad_input "numactl2: invalid weight '300' for node 0 (1-255)" --set-global-weights=0:300 --dry-run
}


@test "leading zeros do not make a node number out of range (as libnuma reads it)" {
	run -0 --separate-stderr "$NUMACTL2" -i 000000000000000000000000000000000000000000 --dry-run true
	[ "${lines[1]}" = "nodes: 0 " ]
	[ -z "$stderr" ]
}

# The long options of the option table (cli/opttable.c: its OPT and LONG_OPT
# entries), one per line.
table_options() {
	sed -n 's/^[[:space:]]*\(LONG_\)\{0,1\}OPT( *"\([a-z-]*\)",.*/--\2/p' "$BATS_TEST_DIRNAME/../cli/opttable.c" | sort -u
}

@test "--help and the man page have every long option of the option table" {
	local opt missing=
	run -0 table_options
	[ "${#lines[@]}" -gt 0 ]
	run -0 --separate-stderr "$NUMACTL2" --help
	for opt in $(table_options); do
		# A line of its own, once: an option in no group of cli/usage.c
		# is missing. An alias (help text "") is named in another's text.
		if grep -q "OPT( *\"${opt#--}\",.* \"\") *\\\\\?$" "$BATS_TEST_DIRNAME/../cli/opttable.c"; then
			[[ $output == *"$opt"* ]] || missing="$missing help:$opt"
		else
			[ "$(grep -cE -- "^  (-., |    )$opt(\[?=| |$)" <<<"$output")" -eq 1 ] || missing="$missing help:$opt"
		fi
		grep -q -- "${opt//-/\\\\-}" "$BATS_TEST_DIRNAME/../man/numactl2.8" || missing="$missing man:$opt"
	done
	[ -z "$missing" ] || { echo "missing:$missing"; return 1; }
}
